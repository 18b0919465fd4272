#!/usr/bin/env bash
# Retrains Focal's page detector from a clean clone: about 75 minutes on 2 cores, no GPU.
#
#   Models/page-detector/train.sh [WORK_DIR]      (default: /tmp/focal-page-detector)
#
# 1. installs the Debian packages whose photos and textures the scenes are made of
#    (scripts/install-deps.sh --train) and a Python venv with PyTorch's CPU build, OpenCV, Pillow, onnx;
# 2. composes 20,000 training scenes (generate.py, seed 1: about 16 minutes);
# 3. trains for 5 epochs (train.py: about 50 minutes);
# 4. exports Models/page-detector.onnx (export.py) and prints its sha256 and the held-out IoU.
# The result differs from the committed file in its last bits (PyTorch's CPU kernels are not
# bit-reproducible across machines); MODEL_CARD.md has the figures of the committed one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${1:-/tmp/focal-page-detector}"
mkdir -p "$work"

"$root/scripts/install-deps.sh" --train
if [[ ! -x "$work/venv/bin/python" ]]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q torch numpy opencv-python-headless pillow onnx
fi
py="$work/venv/bin/python"
cd "$here"
if [[ ! -f "$work/scenes/images.npy" ]]; then
    "$py" generate.py --out "$work/scenes" --count "${SCENES:-20000}" --seed 1
fi
"$py" train.py --data "$work/scenes" --out "$work/page-detector.pt" --epochs "${EPOCHS:-5}" --minutes 80
"$py" export.py "$work/page-detector.pt" "$root/Models/page-detector.onnx"
