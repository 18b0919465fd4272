#!/usr/bin/python3
"""How coloured each still set's frame white is: the colour the shim takes for the frame's light
(quad_evidence.cpp's frame_white: the mean colour of the brightest twentieth of a 32 × 32 grid over
the frame), and its HSV saturation, which PlainPaper::most_white_saturation in quads.cpp bounds.
Camera white balance leaves the light of a page near neutral; a screen or a sign that is the
brightest thing in its frame is not.

Usage: /usr/bin/python3 scripts/eval/frame-whites.py [--work D] SET ...

  SET       a set's name, or a group, as dev-sets.py takes them (still sets and the page-like
            frames; each must have been made once: scripts/eval/dev-sets.py SET)
  --work D  dev-sets.py's work folder, where the sets are (default .build/dev-sets)

Prints, for each set, the greatest saturation of its stills' frame whites, the ninetieth percentile,
and the stills above the bound. Runs nothing else; needs Debian's python3-opencv.
"""
import os

import cv2
import numpy as np

from misses import annotated_stills, dev_sets, set_arguments, still_sets

BOUND = 0.33  # PlainPaper::most_white_saturation


def frame_white(image):
    """The mean colour (b, g, r) of the brightest twentieth of a 32 × 32 grid over image."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    height, width = gray.shape
    xs = ((np.arange(32) + 0.5) * width / 32).astype(int)
    ys = ((np.arange(32) + 0.5) * height / 32).astype(int)
    samples = sorted(((int(gray[y, x]), image[y, x].astype(float)) for x in xs for y in ys), key=lambda s: -s[0])
    return np.mean([colour for _, colour in samples[:len(samples) // 20]], axis=0)


def saturation(colour):
    high, low = colour.max(), colour.min()
    return (high - low) / high if high > 8 else 0.0


def main():
    module = dev_sets()
    ap = set_arguments(module, __doc__, accuracy=False)
    args = ap.parse_args()
    print('%-20s %7s %7s  %s' % ('set', 'most', 'p90', 'stills above %.2f' % BOUND))
    for name, folder in still_sets(module, args.sets, args.work, kinds=('stills', 'empty')):
        stills = annotated_stills('frame-whites', name, folder, args.work)
        values = []
        for still in stills:
            image = cv2.imread(os.path.join(folder, still['file']))
            if image is not None:
                values.append((saturation(frame_white(image)), still['file']))
        if not values:
            continue
        above = [f for s, f in sorted(values, reverse=True) if s > BOUND]
        print('%-20s %7.3f %7.3f  %s' % (name, max(s for s, _ in values), np.percentile([s for s, _ in values], 90),
                                         ' '.join(above)))


if __name__ == '__main__':
    main()
