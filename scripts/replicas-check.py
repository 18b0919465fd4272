#!/usr/bin/env python3
"""Two `focal serve` replicas behind nginx on loopback, sharing their scans and an API key file.

    scripts/replicas-check.py [path/to/focal] [--benchmarks path/to/FocalBenchmarks] [--load-seconds 20]
                                                                    (make replicas-check)

First with a shared scan folder (--scan-dir), then with a real PostgreSQL server started here
(--scan-postgres). Checks, and exits 1 if any fails:
  1. without a key every /v1 endpoint but health is 401; a wrong key 401; the right key 200;
  2. a scan posted through nginx is fetched through it 20 times: every answer 200, the same bytes;
  3. under a steady load through nginx, one replica gets SIGTERM: no request fails, and it exits 0;
  4. a replica killed with SIGKILL loses no scan it had answered: a new replica serves it;
  5. (PostgreSQL) a database that cannot be reached stops the start (exit 1, the URL named without
     its password); one that goes away makes scans 503 within seconds, and they work again once
     it is back.
It prints the throughput of two replicas behind nginx against one replica reached directly and
against the in-process reference (FocalBenchmarks service-reference: decode + detect + JSON on as
many threads as cores, no HTTP), all in the same run; each store's write and read latency from
/metrics; and each replica's resident memory before and after. Needs nginx and PostgreSQL's server
(scripts/install-deps.sh --replicas). Standard library only.
"""
import glob
import argparse
import json
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
    def __init__(self, focal, folder, name, store, environment=None):
        self.log = open(os.path.join(folder, name + ".log"), "w")
        self.process = subprocess.Popen(
            [focal, "serve", "--port", "0", "--workers", "1", "--grace", "30",
             "--api-keys", os.path.join(folder, "keys"), *store],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env={**os.environ, **(environment or {})})
        line = self.process.stdout.readline()
        if "http://" not in line:
            self.process.wait()
            sys.exit(f"replicas-check: {name} did not start: " + open(os.path.join(folder, name + ".log")).read())
        self.port = int(line.split("http://")[1].split(":")[1].split()[0])


class Postgres:
    """A throwaway PostgreSQL cluster on a free loopback port, with a password (scram-sha-256)."""
    PASSWORD = "replicas-check-secret"

    def __init__(self, folder):
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not binaries:
            sys.exit("replicas-check: PostgreSQL's server is missing; run scripts/install-deps.sh --replicas")
        self.bin = os.path.dirname(binaries[-1])
        self.data = os.path.join(folder, "postgres")
        self.port = free_port()
        os.mkdir(self.data, 0o700)
        # The server refuses to run as root: then it runs as Debian's postgres user.
        self.run_as = []
        if os.getuid() == 0:
            self.run_as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.data, "postgres", "postgres")
        password_file = os.path.join(self.data, "..", "postgres-password")
        with open(password_file, "w") as f:
            f.write(self.PASSWORD + "\n")
        os.chmod(password_file, 0o644)
        subprocess.run(self.run_as + [os.path.join(self.bin, "initdb"), "-D", self.data, "-U", "focal", "--no-sync",
                                      "--auth", "scram-sha-256", "--pwfile", password_file],
                       check=True, stdout=subprocess.DEVNULL)
        self.start()

    def url(self):
        return f"postgres://focal@127.0.0.1:{self.port}/postgres"

    def start(self):
        subprocess.run(self.run_as + [os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w", "-l",
                                      os.path.join(self.data, "server.log"), "-o",
                                      f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} -c fsync=on",
                                      "start"], check=True, stdout=subprocess.DEVNULL)

    def stop(self):
        subprocess.run(self.run_as + [os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w", "-m", "fast", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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


def prepare_folder(folder):
    os.makedirs(folder, exist_ok=True)
    # nginx's workers run as another user when started by root: they need their temporary folders.
    os.chmod(folder, 0o755)
    for kind in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.mkdir(os.path.join(folder, "nginx-" + kind), 0o777)
        os.chmod(os.path.join(folder, "nginx-" + kind), 0o777)
    with open(os.open(os.path.join(folder, "keys"), os.O_WRONLY | os.O_CREAT, 0o600), "w") as keys:
        keys.write(KEY + "\n")


def start_balancer(folder, replicas):
    port = free_port()
    with open(os.path.join(folder, "nginx.conf"), "w") as config:
        config.write(nginx_config(folder, port, [r.port for r in replicas]))
    proxy = subprocess.Popen(["nginx", "-c", os.path.join(folder, "nginx.conf"), "-p", folder],
                             stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            if request(port, "GET", "/v1/health/ready")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    return proxy, port


def scan_url(answer):
    return answer.decode().split('"url":"')[1].split('"')[0].replace("\\/", "/")


def shared_scans(balancer, replicas, page, authorized, store):
    """Check 2: a scan made by one replica, fetched through the balancer and from both."""
    status, answer = request(balancer, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
    check(status == 200, f"{store}: a scan posted through nginx: {status}")
    if status != 200:
        return None
    url = scan_url(answer)
    fetched = [request(balancer, "GET", url, headers=authorized) for _ in range(20)]
    check(all(s == 200 for s, _ in fetched) and len({b for _, b in fetched}) == 1,
          f"{store}: a scan fetched 20 times through nginx: {sorted({s for s, _ in fetched})}, one body")
    direct = [request(r.port, "GET", url, headers=authorized)[1] for r in replicas]
    check(direct[0] == direct[1] == fetched[0][1], f"{store}: each replica serves it directly")
    return url


def shared_documents(balancer, replicas, page, authorized, store):
    """Check 2b: a multi-page document built through both replicas at once (each change a
    compare-and-swap in the store), read back from each, and exported as one PDF."""
    status, answer = request(replicas[0].port, "POST", "/v1/documents", headers=authorized)
    check(status == 201, f"{store}: a document created on replica 1: {status}")
    if status != 201:
        return
    document = json.loads(answer)["id"]
    statuses = []
    adders = [threading.Thread(target=lambda r=r: statuses.append(request(
        r.port, "POST", f"/v1/documents/{document}/pages", page, {"Content-Type": "image/jpeg", **authorized})[0]))
        for r in replicas * 3]
    for adder in adders:
        adder.start()
    for adder in adders:
        adder.join()
    read = [json.loads(request(r.port, "GET", f"/v1/documents/{document}", headers=authorized)[1]) for r in replicas]
    check(statuses == [201] * 6 and all(len(d["pages"]) == 6 and d["revision"] == 7 for d in read),
          f"{store}: 6 pages added at once through both replicas, all kept ({statuses}, revision {read[0]['revision']})")
    first = read[0]["pages"][0]["id"]
    status, _ = request(replicas[1].port, "PATCH", f"/v1/documents/{document}/pages/{first}?enhance=bw&rotation=90",
                        headers=authorized)
    status, pdf = request(balancer, "GET", f"/v1/documents/{document}/pdf", headers=authorized)
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        info = subprocess.run(["pdfinfo", file.name], capture_output=True, text=True).stdout
    pages = next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "none")
    check(status == 200 and pages == "6", f"{store}: its PDF through nginx: {status}, {pages} pages")


def store_latency(replica, url, page, authorized, store):
    """The store's own latency, from one replica's metrics: five scans written, 20 read."""
    for _ in range(5):
        request(replica.port, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
    for _ in range(20):
        request(replica.port, "GET", url, headers=authorized)
    metrics = request(replica.port, "GET", "/metrics")[1].decode()

    def mean(operation):
        values = {}
        for line in metrics.splitlines():
            for part in ("sum", "count"):
                if line.startswith(f"focal_scan_store_duration_seconds_{part}") and f'operation="{operation}"' in line:
                    values[part] = float(line.split()[-1])
        return values.get("sum", 0) / max(values.get("count", 0), 1) * 1000, int(values.get("count", 0))
    (write, writes), (read, reads) = mean("write"), mean("read")
    size = len(request(replica.port, "GET", url, headers=authorized)[1])
    print(f"      {store}: write {write:.2f} ms over {writes}, read {read:.2f} ms over {reads} "
          f"(a {size // 1024} KB scan; means from /metrics)")


def survives_sigkill(args, folder, replicas, page, authorized, store, options, environment=None):
    """Check 4: a replica killed outright loses no scan it had answered."""
    status, answer = request(replicas[-1].port, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
    url = scan_url(answer)
    kept = request(replicas[-1].port, "GET", url, headers=authorized)[1]
    replicas[-1].process.kill()
    replicas[-1].process.wait()
    replacement = Replica(args.focal, folder, "replacement", options, environment)
    replicas.append(replacement)
    status, after = request(replacement.port, "GET", url, headers=authorized)
    check(status == 200 and after == kept, f"{store}: after SIGKILL, a new replica serves the answered scan")


def in_process_reference(args, seconds):
    """FocalBenchmarks service-reference: what the replicas do per request, without HTTP."""
    if not args.benchmarks:
        return None
    output = subprocess.run([args.benchmarks, "service-reference", "Samples/Media/document.jpg", "--threads",
                             str(os.cpu_count() or 2), "--seconds", str(int(seconds))],
                            check=True, capture_output=True, text=True).stdout
    return float(output.rsplit("=", 1)[1].split()[0])


def stop_all(proxy, replicas):
    if proxy is not None:
        proxy.terminate()
        proxy.wait()
    for replica in replicas:
        if replica.process.poll() is None:
            replica.process.terminate()
            replica.process.wait()


def folder_phase(args, folder, page, authorized):
    prepare_folder(folder)
    store = ["--scan-dir", os.path.join(folder, "scans")]
    replicas, proxy = [], None
    try:
        replicas = [Replica(args.focal, folder, "replica-1", store), Replica(args.focal, folder, "replica-2", store)]
        proxy, balancer = start_balancer(folder, replicas)
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

        # 2. Shared scans, and the folder's latency.
        url = shared_scans(balancer, replicas, page, authorized, "scan folder")
        shared_documents(balancer, replicas, page, authorized, "scan folder")
        if url:
            store_latency(replicas[1], url, page, authorized, "scan folder")

        # Throughput: one replica directly, then both behind nginx (they share the cores), then the
        # in-process reference on as many threads as cores.
        _, one = load(replicas[0].port, page, args.load_seconds / 2, 4)
        _, two = load(balancer, page, args.load_seconds / 2, 4)
        reference = in_process_reference(args, args.load_seconds / 2)
        print(f"      throughput: one replica {one:.1f} requests/s, two behind nginx {two:.1f} ({two / one:.2f}x)"
              + (f", in-process reference {reference:.1f} (two replicas at {two / reference:.2f}x of it)"
                 if reference else ""))

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

        # 4.
        survives_sigkill(args, folder, replicas, page, authorized, "scan folder", store)
    finally:
        stop_all(proxy, replicas)


def postgres_phase(args, folder, page, authorized):
    prepare_folder(folder)
    database = Postgres(folder)
    environment = {"PGPASSWORD": Postgres.PASSWORD}
    store = ["--scan-postgres", database.url()]
    replicas, proxy = [], None
    try:
        # 5a. A database that is not there stops the start, naming it without the password.
        closed = f"postgres://focal:hunter2@127.0.0.1:{free_port()}/postgres"
        started = time.monotonic()
        refused = subprocess.run([args.focal, "serve", "--port", "0", "--scan-postgres", closed],
                                 capture_output=True, text=True, timeout=60)
        check(refused.returncode == 1 and "127.0.0.1" in refused.stderr and "hunter2" not in refused.stderr,
              f"an unreachable database stops the start in {time.monotonic() - started:.1f} s, exit "
              f"{refused.returncode}: {refused.stderr.strip().splitlines()[-1][:150] if refused.stderr else ''}")

        # 5a'. A wrong password stops the start, saying so (the pool retried until it said "no answer").
        refused = subprocess.run([args.focal, "serve", "--port", "0", "--scan-postgres", database.url()],
                                 capture_output=True, text=True, timeout=60, env={**os.environ, "PGPASSWORD": "wrong"})
        last = refused.stderr.strip().splitlines()[-1][:160] if refused.stderr else ""
        check(refused.returncode == 1 and "password authentication failed" in refused.stderr,
              f"a wrong password stops the start, exit {refused.returncode}: {last}")

        replicas = [Replica(args.focal, folder, "replica-1", store, environment),
                    Replica(args.focal, folder, "replica-2", store, environment)]
        proxy, balancer = start_balancer(folder, replicas)
        # 2. Shared scans, and the database's latency.
        url = shared_scans(balancer, replicas, page, authorized, "PostgreSQL")
        shared_documents(balancer, replicas, page, authorized, "PostgreSQL")
        if url:
            store_latency(replicas[1], url, page, authorized, "PostgreSQL")
        # 4.
        survives_sigkill(args, folder, replicas, page, authorized, "PostgreSQL", store, environment)

        # 5b. The database goes away: scans answer 503 promptly; back, they work again.
        database.stop()
        started = time.monotonic()
        status, _ = request(balancer, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
        waited = time.monotonic() - started
        check(status == 503 and waited < 15, f"the database gone: a scan answers {status} after {waited:.1f} s")
        status, _ = request(balancer, "GET", url or "/v1/scans/" + "0" * 32, headers=authorized)
        check(status == 503, f"the database gone: fetching a scan answers {status}, not 404")
        database.start()
        statuses = []
        for _ in range(20):
            status, _ = request(balancer, "POST", "/v1/scan", page, {"Content-Type": "image/jpeg", **authorized})
            statuses.append(status)
            if status == 200:
                break
            time.sleep(0.5)
        check(statuses[-1] == 200, f"the database back: scans work again ({statuses})")
    finally:
        stop_all(proxy, replicas)
        database.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("focal", nargs="?", default=".build/release/focal")
    parser.add_argument("--benchmarks", help="FocalBenchmarks, for the in-process reference")
    parser.add_argument("--load-seconds", type=float, default=20)
    args = parser.parse_args()
    if shutil.which("nginx") is None:
        sys.exit("replicas-check: nginx is missing; run scripts/install-deps.sh --replicas")
    page = open("Samples/Media/document.jpg", "rb").read()
    authorized = {"Authorization": "Bearer " + KEY}

    folder = tempfile.mkdtemp(prefix="focal-replicas-")
    # nginx's workers and PostgreSQL run as other users when started by root: they pass through.
    os.chmod(folder, 0o755)
    try:
        print("With a shared scan folder (--scan-dir):")
        folder_phase(args, os.path.join(folder, "folder"), page, authorized)
        print("With PostgreSQL (--scan-postgres):")
        postgres_phase(args, os.path.join(folder, "postgres"), page, authorized)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        sys.exit(f"replicas-check: {len(failures)} check(s) failed")
    print("replicas-check: all checks passed")


if __name__ == "__main__":
    main()
