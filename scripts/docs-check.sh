#!/usr/bin/env bash
# Builds Focal's DocC documentation and fails on any warning (a broken link, a parameter not
# described) or on any public symbol of the library without a documentation comment.
#
#   scripts/docs-check.sh        (make docs; the archive is at .build/plugins/Swift-DocC/outputs/Focal.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --disable-sandbox generate-documentation --target Focal --warnings-as-errors
graph=$(find .build -path '*extracted-symbols*' -name Focal.symbols.json -newer Package.swift | head -1)
[[ -n "$graph" ]] || { echo "docs-check: no symbol graph for Focal was extracted" >&2; exit 1; }
python3 - "$graph" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
missing = sorted(
    "%s:%d %s" % (s["location"]["uri"].split("Sources/Focal/")[1], s["location"]["position"]["line"] + 1,
                  ".".join(s["pathComponents"]))
    for s in graph["symbols"]
    if "Sources/Focal/" in s.get("location", {}).get("uri", "") and not s.get("docComment"))
for line in missing:
    print("docs-check: undocumented: " + line)
public = sum(1 for s in graph["symbols"] if "Sources/Focal/" in s.get("location", {}).get("uri", ""))
print(f"docs-check: {public - len(missing)} of {public} public symbols of Focal documented")
sys.exit(1 if missing else 0)
PY
