#!/usr/bin/env bash
# Schemathesis (from PyPI) against a live `focal serve`, over docs/openapi.yaml: every answer must
# have a status, headers, content type and body the spec documents, and no request may get a 5xx.
#
#   scripts/spec-check.sh [examples]       (make spec-check SPEC_EXAMPLES=2000)
#
# With a fixed seed and a fixed number of examples per operation, a re-run sends the same cases.
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-${SPEC_EXAMPLES:-2000}}
venv=.build/spec-venv
version=4.32.5

if [[ ! -x $venv/bin/st ]]; then
    python3 -m venv "$venv" || { echo "spec-check: python3 -m venv failed; install python3-venv" >&2; exit 1; }
    "$venv/bin/pip" install --quiet "schemathesis==$version"
fi
swift build --product focal 2>&1 | grep -E "error|Build of" || true

log=$(mktemp)
# Small limits, so that the limit checks are exercised too; the port is picked by the kernel.
.build/debug/focal serve --port 0 --workers 2 --queue 8 --timeout 10 --max-body-mb 4 --max-pixels 4 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
    grep -q "listening on" "$log" && break
    sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$log" | head -1)
[[ -n $url ]] || { echo "spec-check: the server did not start:" >&2; cat "$log" >&2; exit 1; }

echo "spec-check: Schemathesis $version against $url, $examples examples per operation and phase"
# Every check but one: positive_data_acceptance expects any body a schema allows to be accepted,
# and a `format: binary` schema cannot say "a JPEG that decodes"; random bytes are rightly 422.
status=0
"$venv/bin/st" --config-file scripts/schemathesis.toml run docs/openapi.yaml --url "$url" --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$examples" --workers 2 --seed 18 --suppress-health-check all --no-color || status=$?
kill -0 $server 2>/dev/null || { echo "spec-check: the server died during the run" >&2; cat "$log" >&2; exit 1; }
exit $status
