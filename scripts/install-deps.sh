#!/usr/bin/env bash
# Installs the Debian packages Focal builds against, if any are missing. Safe to run again: it does
# nothing when everything is there. Uses sudo only when not already root.
#
#   scripts/install-deps.sh            build and test dependencies
#   scripts/install-deps.sh --bench    also ffmpeg, which the benchmarks compare against, and wrk (service load)
#   scripts/install-deps.sh --replicas also nginx and PostgreSQL's server, the load balancer and the
#                                      shared scan store of scripts/replicas-check.py
#   scripts/install-deps.sh --spec     also python3-venv, for Schemathesis (scripts/spec-check.sh)
#   scripts/install-deps.sh --browser  also chromium and python3-venv, for the scanner page's check
#                                      in a real browser (scripts/browser-check.py, with Playwright)
#   scripts/install-deps.sh --train    also what the page detector's training recipe reads: the real
#                                      photos and textures of Debian's wallpaper and texture packages,
#                                      DejaVu fonts, python3-venv (Models/page-detector/README.md)
#   scripts/install-deps.sh --eval     also what the detector's development sets are made and scored
#                                      with (scripts/eval/dev-sets.py): --train's photos, textures and
#                                      fonts, Debian's python3-opencv and ffmpeg
#   scripts/install-deps.sh --runtime  only what a built `focal` needs to run (the container image's
#                                      runtime stage): Debian's OpenCV, FFmpeg and libv4l libraries
set -euo pipefail

# libhpdf-dev writes scan PDFs; poppler-utils (pdfinfo, pdftoppm) reads them back in the tests.
packages=(pkg-config libopencv-dev libopencv-contrib-dev opencv-data libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libv4l-dev
    libhpdf-dev poppler-utils)
runtime_packages=(libopencv-core406 libopencv-imgproc406 libopencv-photo406 libopencv-imgcodecs406 libopencv-objdetect406
    libopencv-dnn406 libopencv-contrib406 opencv-data libavformat59 libavcodec59 libswscale6 libavutil57 libv4l-0 libhpdf-2.3.0)
recipe_packages=(python3-venv fonts-dejavu-core mate-backgrounds gnome-backgrounds plasma-workspace-wallpapers
    ukui-wallpapers ufoai-textures)
case "${1:-}" in
    --runtime) packages=("${runtime_packages[@]}") ;;
    --bench) packages+=(ffmpeg time wrk) ;;
    --replicas) packages+=(nginx-light postgresql python3) ;;
    --spec) packages+=(python3-venv) ;;
    --browser) packages+=(chromium python3-venv) ;;
    --train) packages+=("${recipe_packages[@]}") ;;
    --eval) packages+=("${recipe_packages[@]}" python3-opencv ffmpeg fonts-dejavu-extra) ;;
esac

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]})); then
    if ! command -v apt-get >/dev/null; then
        echo "install-deps: these packages are missing and this is not a Debian-like system: ${missing[*]}" >&2
        exit 1
    fi
    sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    echo "install-deps: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A runtime needs neither the toolchain nor the headers.
[[ "${1:-}" == "--runtime" ]] && exit 0

if ! command -v swift >/dev/null; then
    echo "install-deps: the Swift toolchain (6.0 or later) is not on PATH; see https://www.swift.org/install/linux/" >&2
    exit 1
fi
if [[ ! -d /usr/include/opencv4/opencv2 ]]; then
    echo "install-deps: OpenCV's headers are not at /usr/include/opencv4 (Focal's COpenCV target expects Debian's layout)" >&2
    exit 1
fi
