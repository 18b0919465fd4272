#!/usr/bin/python3
"""Joins the stills of one or more sets into a 1280×720 clip, each letterboxed onto black, one frame
each, so that `FocalBenchmarks detect CLIP` times the detector on them as it does on the sample clip:
the sample clip's page on a desk is the easy case, stacked sheets or objects standing on a page the
hard one (a `.high` still whose first look is in doubt takes the finer view, `FinerViewGate` in the
shim's quads.cpp).

Usage: /usr/bin/python3 scripts/eval/stills-to-clip.py OUT.mp4 [--per-set N] SET_FOLDER ...

  SET_FOLDER   a folder of stills, e.g. .build/dev-sets/sets/stacks-1 (made by scripts/eval/dev-sets.py)
  --per-set N  the first N stills of each folder in name order (default 10)

Needs Debian's python3-opencv and ffmpeg; the clip is H.264 at crf 18, ten frames a second.
"""
import argparse
import os
import subprocess
import sys

import cv2
import numpy as np

WIDTH, HEIGHT = 1280, 720
STILL_EXTENSIONS = ('.jpg', '.jpeg', '.png')


def letterboxed(image):
    """The image scaled to fit 1280×720, centred on black."""
    height, width = image.shape[:2]
    scale = min(WIDTH / width, HEIGHT / height)
    resized = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    top, left = (HEIGHT - resized.shape[0]) // 2, (WIDTH - resized.shape[1]) // 2
    canvas[top:top + resized.shape[0], left:left + resized.shape[1]] = resized
    return canvas


def stills(folder, count):
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith(STILL_EXTENSIONS))
    if not names:
        sys.exit('stills-to-clip: no stills in %s' % folder)
    return [os.path.join(folder, n) for n in names[:count]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('out')
    parser.add_argument('folders', nargs='+')
    parser.add_argument('--per-set', type=int, default=10)
    args = parser.parse_args()
    files = [f for folder in args.folders for f in stills(folder, args.per_set)]
    partial = args.out + '.partial.mp4'
    encoder = subprocess.Popen(
        ['ffmpeg', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'bgr24', '-s', '%dx%d' % (WIDTH, HEIGHT),
         '-r', '10', '-i', '-', '-c:v', 'libx264', '-crf', '18', '-pix_fmt', 'yuv420p', partial],
        stdin=subprocess.PIPE)
    for f in files:
        image = cv2.imread(f, cv2.IMREAD_COLOR)
        if image is None:
            encoder.kill()
            sys.exit('stills-to-clip: %s: not an image OpenCV reads' % f)
        encoder.stdin.write(letterboxed(image).tobytes())
    encoder.stdin.close()
    if encoder.wait() != 0:
        sys.exit('stills-to-clip: ffmpeg failed writing %s' % args.out)
    os.replace(partial, args.out)
    print('stills-to-clip: %d stills → %s' % (len(files), args.out))


if __name__ == '__main__':
    main()
