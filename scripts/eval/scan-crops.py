#!/usr/bin/env python3
# Pages as a flatbed scanner or a scan app's crop gives them, filling the whole image, for measuring
# the detector where no side of the page shows (development only, not used by tests): each annotated
# page of SRC flattened (photos.flattened), then cropped inside its own sides by INSET_MIN to
# INSET_MAX of its size on each side, drawn per side from SEED (a third of the pages at 0: the page's
# own sides on the image's border, as ../shared/real/receipts' scans), scaled to a longer side of
# 800 to 1600 pixels and saved as JPEG at quality 75 to 95. The answer is the whole image. SRC holds
# the photos and their corners.json (Tests/FocalTests/Resources/phone_photos or jscanify_photos);
# writes OUT/NAME.jpg and OUT/corners.json, to score with ../shared/eval/score.py.
# Usage: scan-crops.py SRC OUT SEED      (needs numpy and opencv-python; INSET_MIN / INSET_MAX,
# default 0.01 / 0.06)
import json, os, random, sys
import cv2

from photos import flattened

src, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
least, most = float(os.environ.get('INSET_MIN', 0.01)), float(os.environ.get('INSET_MAX', 0.06))
rng = random.Random(seed)
os.makedirs(out, exist_ok=True)
stills = []
for still in json.load(open(os.path.join(src, 'corners.json')))['stills']:
    page = flattened(cv2.imread(os.path.join(src, still['file'])), still['quad'])
    h, w = page.shape[:2]
    inset = [0.0] * 4 if rng.random() < 1 / 3 else [rng.uniform(least, most) for _ in range(4)]
    x0, y0 = int(round(inset[0] * w)), int(round(inset[1] * h))
    x1, y1 = w - int(round(inset[2] * w)), h - int(round(inset[3] * h))
    crop = page[y0:y1, x0:x1]
    scale = rng.uniform(800, 1600) / max(crop.shape[:2])
    crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    name = os.path.splitext(still['file'])[0] + '.jpg'
    cv2.imwrite(os.path.join(out, name), crop, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(75, 95)])
    ch, cw = crop.shape[:2]
    quad = [[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]]
    stills.append(dict(file=name, quad=quad, width=cw, height=ch, group=still.get('group', 'scan')))
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'))
print(f'{len(stills)} scans in {out}')
