#!/usr/bin/env bash
# The service's throughput and latency with wrk on loopback, against the same work done in process,
# then a soak of mixed valid and malformed requests with the server's memory before and after.
#
#   scripts/bench-service.sh [IMAGE.jpg] [SECONDS]      (needs wrk: scripts/install-deps.sh --bench)
set -euo pipefail
cd "$(dirname "$0")/.."
image=${1:-Samples/Media/document.jpg}
seconds=${2:-20}
port=18731
swift build -c release --product focal >/dev/null
swift build -c release --product FocalBenchmarks >/dev/null
bin=.build/release

echo "== in process (the reference)"
$bin/FocalBenchmarks service-reference "$image" --threads 2 --seconds "$seconds"

$bin/focal serve --port $port --workers 2 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf localhost:$port/v1/health >/dev/null && break; sleep 0.1; done
rss() { awk '/VmRSS/ {printf "%.1f MB", $2 / 1024}' /proc/$server/status; }

echo "== wrk (one thread: the machine has two cores, both for the server), 2 workers, 4 connections, ${seconds} s"
IMAGE=$image wrk -t1 -c4 -d${seconds}s --latency -s scripts/wrk/detect.lua http://127.0.0.1:$port/v1/detect \
  | grep -E 'Requests/sec|99%|Latency|requests in|Non-2xx'

echo "== soak: valid and malformed requests in turn until at least 10000"
echo "server RSS before: $(rss)"
IMAGE=$image wrk -t1 -c4 -d$((seconds * 3))s -s scripts/wrk/soak.lua http://127.0.0.1:$port/v1/detect \
  | grep -E 'requests in|Non-2xx|Socket errors' || true
echo "server RSS after: $(rss)"
kill -0 $server && echo "server still running" && curl -s localhost:$port/v1/health
curl -s localhost:$port/metrics | grep '^focal_requests_total'
