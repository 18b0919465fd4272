#!/usr/bin/env bash
# Builds Samples/ScanAPhoto, a package of its own that depends on Focal, as a Swift developer's
# would: copied out of the checkout, its dependency pointed back at this checkout by absolute
# path, built there, and run from another working directory with no FOCAL_MODELS, so that it
# passes only if the models travel with the library.
#
#   scripts/consumer-check.sh [PHOTO]     (default: Samples/Media/document.jpg)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
photo=$(realpath "${1:-$root/Samples/Media/document.jpg}")
work=$(mktemp -d /tmp/focal-consumer.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -R "$root/Samples/ScanAPhoto" "$work/ScanAPhoto"
sed -i "s#path: \"../..\"#path: \"$root\"#" "$work/ScanAPhoto/Package.swift"
grep -q "path: \"$root\"" "$work/ScanAPhoto/Package.swift"
(cd "$work/ScanAPhoto" && swift build --product ScanAPhoto)
binary="$work/ScanAPhoto/.build/debug/ScanAPhoto"
mkdir -p "$work/elsewhere"
cd "$work/elsewhere"
env -u FOCAL_MODELS "$binary" "$photo" scan.jpg
test -s scan.jpg
echo "consumer-check: the consumer package found the page and wrote a scan, from $(pwd), with no FOCAL_MODELS"
