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

margin, out = float(sys.argv[1]), sys.argv[2]
photos = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../Tests/FocalTests/Resources/phone_photos')
os.makedirs(out, exist_ok=True)
stills = []
for still in json.load(open(os.path.join(photos, 'corners.json')))['stills']:
    image = cv2.imread(os.path.join(photos, still['file']))
    h, w = image.shape[:2]
    quad = np.array(still['quad'], float)
    (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
    mx, my = margin * (x1 - x0), margin * (y1 - y0)
    x0, y0 = int(round(max(0, x0 - mx))), int(round(max(0, y0 - my)))
    x1, y1 = int(round(min(w, x1 + mx))), int(round(min(h, y1 + my)))
    name = os.path.splitext(still['file'])[0] + '.png'
    cv2.imwrite(os.path.join(out, name), image[y0:y1, x0:x1])
    stills.append(dict(still, file=name, quad=(quad - [x0, y0]).tolist(), width=x1 - x0, height=y1 - y0))
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'))
print(f'{len(stills)} photos in {out}')
