#!/usr/bin/env bash
# Focal's benchmarks, release build. Every figure is a ratio against a reference run alongside it.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product focal >/dev/null
swift build -c release --product FocalBenchmarks >/dev/null
swift build -c release --product HelloSwift >/dev/null
bin=.build/release

# Start-up: `focal --version` against a Swift program that links only the runtime, both warm.
startup() {  # prints the median wall time (ms) and the largest peak RSS (MB) of 21 runs of "$@"
    local times=() peak=0
    for _ in $(seq 21); do
        local start end rss
        start=$(date +%s%N)
        rss=$( { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -1)
        end=$(date +%s%N)
        times+=($(( (end - start) / 1000 )))
        (( rss > peak )) && peak=$rss
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 11p)
    echo "$((median / 1000)).$(( (median % 1000) / 100 )) ms, peak RSS $((peak / 1024)) MB"
}
echo "start-up (median of 21 warm runs):"
echo "  focal --version   $(startup $bin/focal --version)"
echo "  Swift hello world $(startup $bin/HelloSwift)"
echo "  shared libraries loaded by focal: $(ldd $bin/focal | wc -l)"
# A one-shot `focal detect` on a photo pays for loading OpenCV's image codecs (GDAL's libraries,
# image_codec.cpp); the same frame as a one-frame video loads none.
frame=$(mktemp --suffix=.mp4)
trap 'rm -f "$frame"' EXIT
ffmpeg -loglevel error -y -i Samples/Media/document.jpg -frames:v 1 -c:v libx264 -pix_fmt yuv420p "$frame"
echo "  focal detect on a photo, edges only    $(startup $bin/focal detect Samples/Media/document.jpg --types rectangle --no-page-model --json /dev/null)"
echo "  the same frame as a one-frame video    $(startup $bin/focal detect "$frame" --types rectangle --no-page-model --json /dev/null)"
echo

$bin/FocalBenchmarks video Samples/Media/document.mp4 "$@"
echo
$bin/FocalBenchmarks detect Samples/Media/document.mp4
echo
$bin/FocalBenchmarks sharpness
