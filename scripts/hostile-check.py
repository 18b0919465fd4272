#!/usr/bin/env python3
"""What a hostile client of `focal serve` tries, against a live server on loopback.

    scripts/hostile-check.py .build/release/focal [--only NAME ...]

Starts `focal serve` (with API keys and a scan folder, on a free loopback port) for each check,
attacks it, and prints one line per check: what came back and whether that is the answer
expected of a hardened server (PASS) or not (FAIL). Exits 1 if any check fails. Every loop is
bounded in count and time, and only 127.0.0.1 is ever contacted. The models come from the
resource folder SwiftPM puts beside the focal program, or FOCAL_MODELS when set.
"""
import argparse
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "k3y-for-hostile-check"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, focal, *extra, keys=True, scan_dir=None):
        self.folder = tempfile.mkdtemp(prefix="focal-hostile-")
        self.port = free_port()
        self.keys = os.path.join(self.folder, "keys")
        with open(self.keys, "w") as f:
            f.write(KEY + "\n")
        args = [focal, "serve", "--port", str(self.port), "--workers", "2"]
        if keys:
            args += ["--api-keys", self.keys]
        self.scan_dir = scan_dir or os.path.join(self.folder, "scans")
        args += ["--scan-dir", self.scan_dir] + list(extra)
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("focal serve did not start")

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def raw(port, data, wait=10.0, until=None):
    """Sends bytes, returns (text received, whether the server closed) within `wait` seconds."""
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    s.sendall(data)
    received, closed, deadline = b"", False, time.time() + wait
    while time.time() < deadline:
        s.settimeout(max(0.05, deadline - time.time()))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            closed = True
            break
        if not chunk:
            closed = True
            break
        received += chunk
        if until and until in received:
            break
    s.close()
    return received.decode("latin-1"), closed


def status_of(text):
    parts = text.split(" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def request(port, method, target, body=b"", content_type=None, key=None, extra="", wait=30.0):
    head = f"{method} {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}"
    if content_type:
        head += f"Content-Type: {content_type}\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
    if body or method == "POST":
        head += f"Content-Length: {len(body)}\r\n"
    text, _ = raw(port, head.encode() + b"\r\n" + body, wait=wait)
    return status_of(text), text


def png(width, height):
    rows = b"".join(b"\x00" + b"\x80" * (width * 3) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def tiff_with_twice_given_size(big=20000, small=8):
    """A deflated grey TIFF whose width and height tags come twice, `big` first, then `small`."""
    strip = zlib.compressobj(9)
    data = b"".join(strip.compress(bytes(big * 64)) for _ in range(big // 64)) + strip.flush()
    entries = [(256, 4, big), (256, 4, small), (257, 4, big), (257, 4, small), (258, 3, 8), (259, 3, 8),
               (262, 3, 1), (273, 4, 0), (277, 3, 1), (278, 4, big), (279, 4, len(data))]
    ifd_size = 2 + 12 * len(entries) + 4
    offset = 8 + ifd_size
    out = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        value = offset if tag == 273 else value
        packed = struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, 1) + packed
    return out + struct.pack("<I", 0) + data


def check(name, passed, detail):
    print(f"{'PASS' if passed else 'FAIL'}  {name}: {detail}", flush=True)
    return passed


def keys_by_path_spelling(focal):
    with Server(focal) as server:
        image = png(64, 64)
        results = []
        for method, target in [("POST", "//v1/detect"), ("POST", "///v1/detect"), ("POST", "//v1/scan"),
                               ("POST", "//v1/flatten?corners=0,0,10,0,10,10,0,10"), ("GET", "//v1/scans/" + "a" * 32),
                               ("POST", "/v1/./detect"), ("POST", "/v1/%64etect"), ("POST", "/x/../v1/detect"),
                               ("POST", "/v1/detect/"), ("POST", "/V1/detect")]:
            status, _ = request(server.port, method, target, image if method == "POST" else b"", "image/png")
            results.append((target, status))
        bypass = [f"{t} {s}" for t, s in results if s not in (400, 401, 404)]
        return check("1 API key by path spelling", not bypass,
                     ", ".join(f"{t} {s}" for t, s in results[:5]) + (f"; bypassed: {bypass}" if bypass else ""))


def tiff_past_pixel_limit(focal):
    with Server(focal, keys=False) as server:
        body = tiff_with_twice_given_size()
        before = server.rss_mb()
        start = time.time()
        status, _ = request(server.port, "POST", "/v1/detect", body, "image/tiff", wait=120)
        return check("2 TIFF past --max-pixels", status == 413,
                     f"{len(body) // 1024} KB TIFF -> {status} in {time.time() - start:.1f} s, "
                     f"server peak RSS {before:.0f} -> {server.rss_mb():.0f} MB")


def slow_bodies(focal):
    with Server(focal, "--max-connections", "8", "--idle-timeout", "10", keys=False) as server:
        sockets = []
        for _ in range(4):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"POST /v1/detect HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n")
            s.setblocking(False)
            sockets.append(s)
        start, open_at, answers = time.time(), {}, {}
        while time.time() - start < 75 and len(open_at) < len(sockets):
            for index, s in enumerate(sockets):
                if index in open_at:
                    continue
                try:
                    s.sendall(b"x")
                    data = s.recv(65536)
                    if data == b"":
                        open_at[index] = time.time() - start
                    else:
                        answers[index] = status_of(data.decode("latin-1"))
                except BlockingIOError:
                    pass
                except OSError:
                    open_at[index] = time.time() - start
            time.sleep(1)
        longest = max(open_at.values()) if len(open_at) == len(sockets) else None
        return check("3 slow bodies cut off", longest is not None and longest < 40,
                     f"4 bodies at 1 byte/s: closed after {', '.join(f'{v:.0f}' for v in sorted(open_at.values()))} s"
                     f" (of 75 watched), answers {sorted(set(answers.values())) or 'none'}")


def health_at_connection_cap(focal):
    """At the default cap of 512: 300 idle connections, 150 slow heads and 100 slow bodies (a byte
    a second each), then health on a new connection, 200 times."""
    with Server(focal, keys=False) as server:
        held, slow = [], []
        for index in range(550):
            s = socket.create_connection(("127.0.0.1", server.port))
            if index >= 300:
                start = b"GET /v1/health HTTP/1.1\r\nHo" if index < 450 else \
                    b"POST /v1/detect HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 90000\r\n\r\n"
                s.sendall(start)
                s.setblocking(False)
                slow.append(s)
            held.append(s)
        time.sleep(0.5)
        times, failures, last_trickle = [], 0, 0.0
        for _ in range(200):
            if time.time() - last_trickle >= 1:
                for s in slow:
                    try:
                        s.send(b"x")
                    except OSError:
                        pass
                last_trickle = time.time()
            start = time.time()
            status, _ = request(server.port, "GET", "/v1/health", wait=5)
            times.append(time.time() - start)
            failures += status != 200
            time.sleep(0.02)
        times.sort()
        p99 = times[197] * 1000
        for s in held:
            s.close()
        return check("4 health at the connection cap", failures == 0 and p99 < 50,
                     f"300 idle, 150 slow-head and 100 slow-body connections (cap 512): 200 health requests, "
                     f"{failures} failed, p50 {times[99] * 1000:.1f} ms, p99 {p99:.1f} ms, max {times[-1] * 1000:.1f} ms")


def tiny_images(focal):
    with Server(focal, keys=False) as server:
        seen = []
        for width, height in [(1, 1), (1, 5000), (5000, 1)]:
            image = png(width, height)
            for target in ["/v1/detect?types=rectangle", "/v1/detect?types=text", "/v1/detect?types=qr",
                           "/v1/scan", "/v1/scan?format=pdf"]:
                status, _ = request(server.port, "POST", target, image, "image/png")
                seen.append((f"{width}x{height} {target}", status))
        faults = [f"{what} {status}" for what, status in seen if status >= 500]
        return check("5 tiny images", not faults,
                     f"{len(seen)} requests: statuses {sorted(set(s for _, s in seen))}" + (f"; {faults[:4]}" if faults else ""))


def unusable_scan_folder(focal):
    with Server(focal, keys=False) as server:
        image = png(64, 64)
        shutil.rmtree(server.scan_dir)
        with open(server.scan_dir, "w") as f:  # the folder is gone; a file stands in its place
            f.write("x")
        status, text = request(server.port, "POST", "/v1/scan", image, "image/png")
        # A 64x64 grey square has no document, so a scan keeps nothing; use one that has.
        scene = os.path.join(ROOT, "Tests/FocalTests/Resources/phone_photos")
        photos = sorted(p for p in os.listdir(scene) if p.endswith(".webp")) if os.path.isdir(scene) else []
        if photos:
            with open(os.path.join(scene, photos[0]), "rb") as f:
                status, text = request(server.port, "POST", "/v1/scan", f.read(), "image/webp", wait=60)
        retry = "retry-after" in text.lower()
        ready, _ = request(server.port, "GET", "/v1/health/ready")
        return check("6 unusable scan folder", status == 503 and retry and ready == 503,
                     f"scan -> {status}{' with Retry-After' if retry else ''}, readiness -> {ready}")


def repeated_types(focal):
    with Server(focal, keys=False) as server:
        image = png(640, 480)
        start = time.time()
        status, _ = request(server.port, "POST", "/v1/detect?types=" + ",".join(["qr"] * 1000), image, "image/png")
        once = time.time() - start
        start = time.time()
        request(server.port, "POST", "/v1/detect?types=qr", image, "image/png")
        single = time.time() - start
        return check("7 repeated types", status in (200, 400) and once < 5 * single + 0.5,
                     f"types=qr x1000 -> {status} in {once:.2f} s (types=qr once: {single:.2f} s)")


def small_ones(focal):
    with Server(focal, keys=False) as server:
        results, good = [], True
        text, closed = raw(server.port, b"GET /v1/health HTTP/1.0\r\n\r\n", wait=3)
        results.append(f"HTTP/1.0 {status_of(text)} {'closed' if closed else 'left open'}")
        good &= closed
        status, text = request(server.port, "CONNECT", "example.com:443")
        body = text.split("\r\n\r\n", 1)[-1]
        # NIO's encoder gives no answer to CONNECT a body (RFC 9110 §9.3.6 forbids one on a 2xx).
        results.append(f"CONNECT {status}")
        good &= status == 405
        status, _ = request(server.port, "GET", "/v1/health?" + "a" * 100_000)
        results.append(f"100 KB target {status}")
        good &= status == 414
        status, text = request(server.port, "POST", "/v1/detect", b"abcd", "image/png",
                               extra="Content-Length: 4\r\n")
        results.append(f"two equal Content-Length {status}")
        good &= status == 400
        return check("small: HTTP details", good, "; ".join(results))


def keys_revoked(focal):
    with Server(focal) as server:
        def reload(content):
            with open(server.keys, "wb") as f:
                f.write(content)
            server.process.send_signal(signal.SIGHUP)
            time.sleep(0.5)
            return request(server.port, "POST", "/v1/detect", png(32, 32), "image/png", key=KEY)[0]

        with_bom = reload(b"\xef\xbb\xbf" + KEY.encode() + b"\n")
        plain = reload(KEY.encode() + b"\n")
        emptied = reload(b"")
        return check("small: key file", with_bom == 200 and plain == 200 and emptied == 401,
                     f"the key behind a byte order mark -> {with_bom}; the key alone -> {plain}; "
                     f"the file emptied + SIGHUP, the old key -> {emptied}")


CHECKS = {"keys": keys_by_path_spelling, "tiff": tiff_past_pixel_limit, "slow-bodies": slow_bodies,
          "connection-cap": health_at_connection_cap, "tiny": tiny_images, "scan-folder": unusable_scan_folder,
          "types": repeated_types, "http": small_ones, "key-file": keys_revoked}

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("focal")
    parser.add_argument("--only", nargs="*", choices=sorted(CHECKS))
    arguments = parser.parse_args()
    results = [CHECKS[name](os.path.abspath(arguments.focal)) for name in (arguments.only or CHECKS)]
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    sys.exit(0 if all(results) else 1)
