#!/usr/bin/env python3
# The phone photos (Tests/FocalTests/Resources/phone_photos) cropped close around each document, so
# that the page fills the frame, for measuring the detector there (development only, not used by
# tests): the annotated quad's bounding box with MARGIN of its size to spare on each side (less where
# the photo ends), at the photo's own resolution. Writes OUT/NAME.png and OUT/corners.json, to score
# with ../shared/eval/score.py --gt OUT/corners.json --pred P after focal detect on each PNG.
# Usage: fill-photos.py MARGIN OUT      (e.g. 0.04 /tmp/fill04; needs numpy and opencv-python)
import json, os, sys
import cv2
import numpy as np

from photos import PHONE_PHOTOS, box_around

margin, out = float(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
stills = []
for still in json.load(open(os.path.join(PHONE_PHOTOS, 'corners.json')))['stills']:
    image = cv2.imread(os.path.join(PHONE_PHOTOS, still['file']))
    h, w = image.shape[:2]
    quad = np.array(still['quad'], float)
    x0, y0, x1, y1 = box_around(quad, margin)
    x0, y0 = int(round(max(0, x0))), int(round(max(0, y0)))
    x1, y1 = int(round(min(w, x1))), int(round(min(h, y1)))
    name = os.path.splitext(still['file'])[0] + '.png'
    cv2.imwrite(os.path.join(out, name), image[y0:y1, x0:x1])
    stills.append(dict(still, file=name, quad=(quad - [x0, y0]).tolist(), width=x1 - x0, height=y1 - y0))
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'))
print(f'{len(stills)} photos in {out}')
