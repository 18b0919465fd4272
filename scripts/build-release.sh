#!/usr/bin/env bash
# Builds `focal` for deployment and stages it with its model under a prefix:
#
#   scripts/build-release.sh [prefix]      (default out/dist)
#
# gives PREFIX/bin/focal, with the Swift runtime linked in (a runtime machine needs only the
# libraries of `scripts/install-deps.sh --runtime`), PREFIX/share/focal/models, where focal
# looks for its models when installed under /usr/local or /usr, and PREFIX/share/focal/scanner,
# the scanner page `focal serve` answers at /. The container image
# (deploy/Containerfile) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-out/dist}
swift build -c release --product focal --static-swift-stdlib
mkdir -p "$prefix/bin" "$prefix/share/focal/models" "$prefix/share/focal/scanner"
install -m 0755 .build/release/focal "$prefix/bin/focal"
install -m 0644 Sources/Focal/Models/*.onnx "$prefix/share/focal/models/"
install -m 0644 Sources/FocalService/Scanner/* "$prefix/share/focal/scanner/"
echo "build-release: $prefix/bin/focal, $prefix/share/focal/models and $prefix/share/focal/scanner (the page focal serve answers at /)"
