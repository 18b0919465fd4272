#!/usr/bin/env bash
# focal overlay against ffmpeg's own H.264 transcode of the same clip, in the same run, and peak
# memory at 1080p for a 300-frame and a 3000-frame input.
#   scripts/bench-overlay.sh [--memory] [ROUNDS]
# Each round runs focal and both ffmpeg references back to back, and the ratio is taken within the
# round: on a shared machine the speed of all three drifts together from minute to minute.
set -euo pipefail
cd "$(dirname "$0")/.."
memory=false
if [[ "${1:-}" == "--memory" ]]; then memory=true; shift; fi
rounds=${1:-5}
swift build -c release --product focal >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The x264 settings focal overlay uses by default (VideoWriter.Settings.lowMemory: one thread per
# core), and ffmpeg decoding on one thread as focal does.
lean="threads=$(nproc):rc-lookahead=3:bframes=0:sync-lookahead=0"

# 360 frames of 1280x720 from the bundled sample.
ffmpeg -v error -nostdin -stream_loop 3 -i Samples/Media/document.mp4 -c:v libx264 -preset veryfast -crf 20 "$scratch/in720.mp4"
wall() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
focal_ms=() ffmpeg_ms=() same_ms=() ratio=() ratio_same=()
for ((round = 1; round <= rounds; round++)); do
    f=$(wall .build/release/focal overlay "$scratch/in720.mp4" -o "$scratch/focal.mp4" --accuracy low -q)
    g=$(wall ffmpeg -v error -nostdin -y -i "$scratch/in720.mp4" -c:v libx264 -preset veryfast -crf 23 "$scratch/ffmpeg.mp4")
    h=$(wall ffmpeg -v error -nostdin -y -threads 1 -i "$scratch/in720.mp4" -c:v libx264 -preset veryfast -crf 23 \
        -x264-params "$lean" "$scratch/same.mp4")
    focal_ms+=("$f") ffmpeg_ms+=("$g") same_ms+=("$h")
    ratio+=("$(awk -v a="$f" -v b="$g" 'BEGIN { printf "%.3f", a / b }')")
    ratio_same+=("$(awk -v a="$f" -v b="$h" 'BEGIN { printf "%.3f", a / b }')")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "overlay, 1280x720, 360 frames, median of $rounds rounds (ratios taken within each round):"
echo "  focal overlay --accuracy low                        $(median "${focal_ms[@]}") ms"
echo "  ffmpeg -c:v libx264 -preset veryfast                $(median "${ffmpeg_ms[@]}") ms   ratio $(median "${ratio[@]}") (goal: at most 1.3)"
echo "  ffmpeg, focal's x264 settings ($lean)   $(median "${same_ms[@]}") ms   ratio $(median "${ratio_same[@]}")"
echo "  per-round ratios: ${ratio[*]} | ${ratio_same[*]}"

if $memory; then
    ffmpeg -v error -nostdin -i Samples/Media/document.mp4 -vf scale=1920:1080 -c:v libx264 -preset veryfast "$scratch/in1080.mp4"
    ffmpeg -v error -nostdin -stream_loop -1 -i "$scratch/in1080.mp4" -frames:v 300 -c:v libx264 -preset veryfast "$scratch/in300.mp4"
    ffmpeg -v error -nostdin -stream_loop -1 -i "$scratch/in1080.mp4" -frames:v 3000 -c:v libx264 -preset veryfast "$scratch/in3000.mp4"
    peak() { /usr/bin/time -f "%M" -o "$scratch/rss" "$@" >/dev/null 2>&1; cat "$scratch/rss"; }
    echo "peak RSS at 1920x1080 (goal: under 200 MB, the same for 3000 frames as for 300):"
    for n in 300 3000; do
        for mode in "" --compact; do
            rss=$(peak .build/release/focal overlay "$scratch/in$n.mp4" -o "$scratch/out$n.mp4" --accuracy low -q $mode)
            echo "  focal overlay, $n frames ${mode:-(default)}: $((rss / 1024)) MB"
        done
    done
    for params in "" "$lean"; do
        rss=$(peak ffmpeg -v error -nostdin -y ${params:+-threads 1} -i "$scratch/in300.mp4" -c:v libx264 -preset veryfast \
            -crf 23 ${params:+-x264-params $params} "$scratch/ff.mp4")
        echo "  ffmpeg alone, 300 frames ${params:-(x264 defaults)}: $((rss / 1024)) MB"
    done
fi
