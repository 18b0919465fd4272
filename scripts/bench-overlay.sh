#!/usr/bin/env bash
# focal overlay against ffmpeg's own H.264 transcode of the same clip, in the same run, and peak
# memory at 1080p for a 300-frame and a 3000-frame input.
#   scripts/bench-overlay.sh [--memory]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product focal >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# 360 frames of 1280x720 from the bundled sample.
ffmpeg -v error -nostdin -stream_loop 3 -i Samples/Media/document.mp4 -c:v libx264 -preset veryfast -crf 20 "$scratch/in720.mp4"
wall() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
focal_ms=(); ffmpeg_ms=()
for round in 1 2 3; do
    focal_ms+=($(wall .build/release/focal overlay "$scratch/in720.mp4" -o "$scratch/focal.mp4" --accuracy low -q))
    ffmpeg_ms+=($(wall ffmpeg -v error -nostdin -y -i "$scratch/in720.mp4" -c:v libx264 -preset veryfast -crf 23 "$scratch/ffmpeg.mp4"))
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
f=$(median "${focal_ms[@]}"); g=$(median "${ffmpeg_ms[@]}")
echo "overlay, 1280x720, 360 frames (median of 3):"
echo "  focal overlay --accuracy low   ${f} ms"
echo "  ffmpeg -c:v libx264 -preset veryfast   ${g} ms"
echo "  ratio $(awk -v a="$f" -v b="$g" 'BEGIN { printf "%.2f", a / b }') (goal: at most 1.3)"
if [[ "${1:-}" == "--memory" ]]; then
    ffmpeg -v error -nostdin -i Samples/Media/document.mp4 -vf scale=1920:1080 -c:v libx264 -preset veryfast "$scratch/in1080.mp4"
    ffmpeg -v error -nostdin -stream_loop 2 -i "$scratch/in1080.mp4" -frames:v 300 -c:v libx264 -preset veryfast "$scratch/in300.mp4"
    ffmpeg -v error -nostdin -stream_loop 33 -i "$scratch/in1080.mp4" -frames:v 3000 -c:v libx264 -preset veryfast "$scratch/in3000.mp4"
    for n in 300 3000; do
        for mode in "" --low-memory; do
            rss=$( { /usr/bin/time -f "%M" .build/release/focal overlay "$scratch/in$n.mp4" -o "$scratch/out$n.mp4" --accuracy low -q $mode; } 2>&1 | tail -1)
            echo "  1920x1080, $n frames ${mode:-(defaults)}: peak RSS $((rss / 1024)) MB"
        done
    done
    # ffmpeg alone with the same encoder settings, for reference.
    for params in "" "threads=2:rc-lookahead=3:bframes=0"; do
        rss=$( { /usr/bin/time -f "%M" ffmpeg -v error -nostdin -y ${params:+-threads 1} -i "$scratch/in300.mp4" -c:v libx264 -preset veryfast -crf 23 ${params:+-x264-params $params} "$scratch/ff.mp4"; } 2>&1 | tail -1)
        echo "  ffmpeg alone, 300 frames ${params:-(defaults)}: peak RSS $((rss / 1024)) MB"
    done
fi
