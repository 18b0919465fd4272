#!/usr/bin/env python3
"""Health latency while every worker is busy, and how late the timeout's 503 comes.

    scripts/health-under-load.py [path/to/focal] [--seconds 60] [--timeout 5]

Starts `focal serve --workers 2 --timeout T`, keeps both workers busy with heavy requests (a blank
6000x6000 PNG, 36 megapixels, under the 40 MP limit, with all four detectors: each runs past the
timeout), and meanwhile asks /v1/health every 10 ms. Prints the health latencies (p50, p99, max)
and, for every heavy request, when its 503 arrived relative to its deadline. Standard library only.
"""
import argparse
import http.client
import struct
import subprocess
import threading
import time
import zlib


def blank_png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + b"\xff" * width  # filter byte, then white grey pixels
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("focal", nargs="?", default=".build/release/focal")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--timeout", type=float, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    server = subprocess.Popen(
        [args.focal, "serve", "--port", "0", "--workers", str(args.workers), "--timeout", str(args.timeout)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.split("http://")[1].split(":")[1].split()[0])
        body = blank_png(6000, 6000)
        stop = time.monotonic() + args.seconds
        lateness, statuses = [], {}
        lock = threading.Lock()

        def heavy():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            while time.monotonic() < stop:
                start = time.monotonic()
                connection.request("POST", "/v1/detect?types=rectangle,text,face,qr", body,
                                   {"Content-Type": "image/png"})
                response = connection.getresponse()
                response.read()
                took = time.monotonic() - start
                with lock:
                    statuses[response.status] = statuses.get(response.status, 0) + 1
                    if response.status == 503 and response.getheader("Retry-After") == "5":
                        lateness.append(took - args.timeout)

        threads = [threading.Thread(target=heavy) for _ in range(args.workers)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)  # let both requests reach the workers
        health = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        latencies, busy_samples = [], 0
        while time.monotonic() < stop:
            start = time.monotonic()
            health.request("GET", "/v1/health")
            response = health.getresponse()
            text = response.read()
            latencies.append(time.monotonic() - start)
            busy_samples += b'"busy":%d' % args.workers in text
            time.sleep(0.01)
        for thread in threads:
            thread.join()

        ms = lambda seconds: f"{seconds * 1000:.1f} ms"
        print(f"health: {len(latencies)} requests, {busy_samples} of them with all {args.workers} workers busy; "
              f"p50 {ms(percentile(latencies, 0.5))}, p99 {ms(percentile(latencies, 0.99))}, max {ms(max(latencies))}")
        print(f"heavy requests: {dict(sorted(statuses.items()))}")
        if lateness:
            print(f"timeout 503s: {len(lateness)}, arriving {ms(min(lateness))} to {ms(max(lateness))} "
                  f"after the {args.timeout:g} s deadline")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
