#!/usr/bin/env bash
# Retrains Focal's page detector from a clean clone: about 95 minutes on 2 cores, no GPU.
#
#   Models/page-detector/train.sh [WORK_DIR]      (default: /tmp/focal-page-detector)
#   STAGE=2 Models/page-detector/train.sh         (the second stage only, from the committed first-stage network, stage1.onnx)
#
# 1. installs the Debian packages whose photos and textures the scenes are made of
#    (scripts/install-deps.sh --train) and a Python venv with PyTorch's CPU build, OpenCV, Pillow, onnx;
# 2. stage 1: composes 20,000 scenes (generate.py, seed 1: about 16 minutes) and trains from scratch
#    for 5 epochs (train.py: about 60 minutes);
# 3. stage 2: composes 12,000 scenes in which 40 % of the documents are ID cards (fronts, backs with
#    magnetic stripes, some held up by a hand) and open books whose two pages are two pages
#    (generate.py --extra 0.4, seed 2: about 7 minutes), and fine-tunes the first stage's network on
#    them, mirrored and turned by quarter turns, with its batch norms' statistics kept
#    (train.py --init --any-orientation, 3 epochs: about 11 minutes);
# 4. exports Sources/Focal/Models/page-detector.onnx (export.py, which prints its sha256).
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
if [[ "${STAGE:-1}" == 1 ]]; then
    if [[ ! -f "$work/scenes/images.npy" ]]; then
        "$py" generate.py --out "$work/scenes" --count "${SCENES:-20000}" --seed 1
    fi
    "$py" train.py --data "$work/scenes" --out "$work/page-detector-stage1.pt" --epochs "${EPOCHS:-5}" --minutes 80
    start="$work/page-detector-stage1.pt"
else
    start="$here/stage1.onnx"
fi
if [[ ! -f "$work/scenes-2/images.npy" ]]; then
    "$py" generate.py --out "$work/scenes-2" --count 12000 --seed 2 --extra 0.4
fi
"$py" train.py --data "$work/scenes-2" --init "$start" --out "$work/page-detector.pt" --epochs 3 --lr 1e-3 --minutes 30 --any-orientation
"$py" export.py "$work/page-detector.pt" "$root/Sources/Focal/Models/page-detector.onnx"
