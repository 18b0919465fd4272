#!/usr/bin/env python3
# Photos as a grey 640 × 480 camera would see them, for measuring the detector on small
# single-channel frames (development only, not used by tests): a 4:3 box (3:4 for portrait photos)
# around the annotated page with an eighth of its size to spare (less where the photo ends),
# resized to 640 × 480 (480 × 640) and turned grey. SRC holds the
# photos and their corners.json (Tests/FocalTests/Resources/phone_photos, or an occlude-photos.py
# output); writes OUT/NAME.png and OUT/corners.json, to score with ../shared/eval/score.py.
# Usage: grey-camera.py SRC OUT      (needs numpy and opencv-python; COLOUR=1 keeps the colour)
import json, os, sys
import cv2
import numpy as np

from photos import box_around

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
stills = []
for still in json.load(open(os.path.join(src, 'corners.json')))['stills']:
    image = cv2.imread(os.path.join(src, still['file']))
    h, w = image.shape[:2]
    q = np.array(still['quad'], float)
    x0, y0, x1, y1 = box_around(q, 0.12)
    landscape = w >= h
    ratio = 4 / 3 if landscape else 3 / 4
    if (x1 - x0) / (y1 - y0) < ratio:
        grow = (y1 - y0) * ratio - (x1 - x0)
        x0, x1 = x0 - grow / 2, x1 + grow / 2
    else:
        grow = (x1 - x0) / ratio - (y1 - y0)
        y0, y1 = y0 - grow / 2, y1 + grow / 2
    # No larger than the photo (a page that nearly fills it then reaches the frame's edge), and
    # moved onto it: a camera's frame shows no border of its own.
    shrink = min(1.0, w / (x1 - x0), h / (y1 - y0))
    cx, cy, bw, bh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * shrink, (y1 - y0) * shrink
    cx, cy = min(max(cx, bw / 2), w - bw / 2), min(max(cy, bh / 2), h - bh / 2)
    x0, y0, x1, y1 = (int(round(v)) for v in (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))
    crop = image[max(0, y0):y1, max(0, x0):x1]
    width, height = (640, 480) if landscape else (480, 640)
    frame = cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)
    if not os.environ.get('COLOUR'):
        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    name = os.path.splitext(still['file'])[0] + '.png'
    cv2.imwrite(os.path.join(out, name), frame)
    quad = (q - [max(0, x0), max(0, y0)]) * [width / crop.shape[1], height / crop.shape[0]]
    stills.append(dict(still, file=name, quad=quad.tolist(), width=width, height=height))
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'), indent=1)
