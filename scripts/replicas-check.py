#!/usr/bin/env python3
"""Two `focal serve` replicas behind nginx on loopback, sharing a scan folder and an API key file.

    scripts/replicas-check.py [path/to/focal] [--load-seconds 20]      (make replicas-check)

Checks, and exits 1 if any fails:
  1. without a key every /v1 endpoint but health is 401; a wrong key 401; the right key 200;
  2. a scan posted through nginx is fetched through it 20 times: every answer 200, the same bytes;
  3. under a steady load through nginx, one replica gets SIGTERM: no request fails, and it exits 0;
  4. a replica killed with SIGKILL loses no scan it had answered: a new replica serves it;
and prints the throughput of two replicas behind nginx against one replica reached directly, in
the same run, the scan folder's write and read latency as a client sees it, and each replica's
resident memory before and after. Needs nginx (scripts/install-deps.sh --replicas). Standard library only.
"""
import argparse
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

KEY = "replicas-check-key"
failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port, method, path, body=None, headers=None, timeout=120):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def median(values):
    return sorted(values)[len(values) // 2]


class Replica:
    def __init__(self, focal, folder, name):
        self.log = open(os.path.join(folder, name + ".log"), "w")
        self.process = subprocess.Popen(
            [focal, "serve", "--port", "0", "--workers", "1", "--grace", "30",
             "--api-keys", os.path.join(folder, "keys"), "--scan-dir", os.path.join(folder, "scans")],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        self.port = int(line.split("http://")[1].split(":")[1].split()[0])


def nginx_config(folder, port, upstreams):
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=30s;" for p in upstreams)
    temp = {kind: os.path.join(folder, "nginx-" + kind) for kind in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    return f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 512; }}
http {{
  access_log off;
  client_body_temp_path {temp['body']};
  proxy_temp_path {temp['proxy']};
  fastcgi_temp_path {temp['fastcgi']};
  uwsgi_temp_path {temp['uwsgi']};
  scgi_temp_path {temp['scgi']};
  client_max_body_size 64m;
  upstream focal {{
{servers}
    keepalive 16;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://focal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # A replica that is draining or gone refuses the connection: the request goes to the other
      # one. Nothing was processed, so even a POST is safe to send again.
      proxy_next_upstream error timeout non_idempotent;
      proxy_next_upstream_tries 2;
    }}
  }}
}}
"""


def load(port, body, seconds, threads, path="/v1/detect"):
    """Requests from `threads` clients for `seconds`: (statuses, requests per second)."""
    statuses, lock = {}, threading.Lock()
    stop = time.monotonic() + seconds

    def client():
        while time.monotonic() < stop:
            try:
                status, _ = request(port, "POST", path, body,
                                    {"Content-Type": "image/jpeg", "Authorization": "Bearer " + KEY})
            except OSError as error:
                status = type(error).__name__
            with lock:
                statuses[status] = statuses.get(status, 0) + 1

    start = time.monotonic()
    workers = [threading.Thread(target=client) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    total = sum(statuses.values())
    return statuses, total / (time.monotonic() - start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("focal", nargs="?", default=".build/release/focal")
    parser.add_argument("--load-seconds", type=float, default=20)
    args = parser.parse_args()
    if shutil.which("nginx") is None:
        sys.exit("replicas-check: nginx is missing; run scripts/install-deps.sh --replicas")
    page = open("Samples/Media/document.jpg", "rb").read()
    authorized = {"Authorization": "Bearer " + KEY}

    folder = tempfile.mkdtemp(prefix="focal-replicas-")
    # nginx's workers run as another user when started by root: they need their temporary folders.
    os.chmod(folder, 0o755)
    for kind in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.mkdir(os.path.join(folder, "nginx-" + kind), 0o777)
        os.chmod(os.path.join(folder, "nginx-" + kind), 0o777)
    with open(os.open(os.path.join(folder, "keys"), os.O_WRONLY | os.O_CREAT, 0o600), "w") as keys:
        keys.write(KEY + "\n")
    replicas, proxy = [], None
    try:
        replicas = [Replica(args.focal, folder, "replica-1"), Replica(args.focal, folder, "replica-2")]
        balancer = free_port()
        with open(os.path.join(folder, "nginx.conf"), "w") as config:
            config.write(nginx_config(folder, balancer, [r.port for r in replicas]))
        proxy = subprocess.Popen(["nginx", "-c", os.path.join(folder, "nginx.conf"), "-p", folder],
                                 stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if request(balancer, "GET", "/v1/health/ready")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)

        before = [rss_mb(r.process.pid) for r in replicas]

        # 1. Keys.
        for method, path in [("POST", "/v1/detect"), ("POST", "/v1/scan"), ("GET", "/v1/scans/" + "0" * 32)]:
            check(request(balancer, method, path, page, {"Content-Type": "image/jpeg"})[0] == 401,
                  f"{method} {path} without a key: 401")
        check(request(balancer, "POST", "/v1/detect", page,
                      {"Content-Type": "image/jpeg", "Authorization": "Bearer wrong"})[0] == 401, "a wrong key: 401")
        check(request(balancer, "POST", "/v1/detect", page, {"Content-Type": "image/jpeg", **authorized})[0] == 200,
              "the right key: 200")
        check(request(balancer, "GET", "/v1/health")[0] == 200, "health without a key: 200")

        # 2. A scan made by one replica, fetched through the balancer from both.
        status, answer = request(balancer, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
        url = answer.decode().split('"url":"')[1].split('"')[0].replace("\\/", "/")
        fetched = [request(balancer, "GET", url, headers=authorized) for _ in range(20)]
        check(status == 200 and all(s == 200 for s, _ in fetched) and len({b for _, b in fetched}) == 1,
              f"a scan fetched 20 times through nginx: {sorted({s for s, _ in fetched})}, one body")
        direct = [request(r.port, "GET", url, headers=authorized)[1] for r in replicas]
        check(direct[0] == direct[1] == fetched[0][1], "each replica serves it directly")

        # The scan folder's own latency, from one replica's metrics: five scans written, 20 read.
        for _ in range(5):
            request(replicas[1].port, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
        for _ in range(20):
            request(replicas[1].port, "GET", url, headers=authorized)
        metrics = request(replicas[1].port, "GET", "/metrics")[1].decode()

        def mean(operation):
            values = {}
            for line in metrics.splitlines():
                for part in ("sum", "count"):
                    if line.startswith(f"focal_scan_store_duration_seconds_{part}") and f'operation="{operation}"' in line:
                        values[part] = float(line.split()[-1])
            return values.get("sum", 0) / max(values.get("count", 0), 1) * 1000, int(values.get("count", 0))
        (write, writes), (read, reads) = mean("write"), mean("read")
        print(f"      scan folder: write {write:.2f} ms over {writes}, read {read:.2f} ms over {reads} "
              f"(a {len(fetched[0][1]) // 1024} KB scan; means from /metrics)")

        # Throughput: one replica directly, then both behind nginx (they share the two cores).
        _, one = load(replicas[0].port, page, args.load_seconds / 2, 4)
        _, two = load(balancer, page, args.load_seconds / 2, 4)
        print(f"      throughput: one replica {one:.1f} requests/s, two behind nginx {two:.1f} ({two / one:.2f}x)")

        after = [rss_mb(r.process.pid) for r in replicas]
        print("      resident memory: " + ", ".join(
            f"replica {i + 1} {b:.0f} MB before, {a:.0f} MB after the load" for i, (b, a) in enumerate(zip(before, after))))

        # 3. A rolling stop under load.
        result = {}
        loader = threading.Thread(target=lambda: result.update(zip(("statuses", "rate"),
                                                                   load(balancer, page, args.load_seconds, 4))))
        loader.start()
        time.sleep(args.load_seconds / 3)
        replicas[0].process.send_signal(signal.SIGTERM)
        exit_code = replicas[0].process.wait(timeout=60)
        loader.join()
        statuses = result["statuses"]
        check(set(statuses) == {200}, f"SIGTERM under load: every request answered 200 ({statuses})")
        check(exit_code == 0, f"the stopped replica exits 0 (got {exit_code})")

        # 4. A replica killed outright loses no scan it had answered.
        status, answer = request(replicas[1].port, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
        url = answer.decode().split('"url":"')[1].split('"')[0].replace("\\/", "/")
        kept = request(replicas[1].port, "GET", url, headers=authorized)[1]
        replicas[1].process.kill()
        replicas[1].process.wait()
        replacement = Replica(args.focal, folder, "replica-3")
        replicas.append(replacement)
        status, after = request(replacement.port, "GET", url, headers=authorized)
        check(status == 200 and after == kept, "after SIGKILL, a new replica serves the answered scan")
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait()
        for replica in replicas:
            if replica.process.poll() is None:
                replica.process.terminate()
                replica.process.wait()
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        sys.exit(f"replicas-check: {len(failures)} check(s) failed")
    print("replicas-check: all checks passed")


if __name__ == "__main__":
    main()
