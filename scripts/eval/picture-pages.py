#!/usr/bin/env python3
# Pages with a large picture printed to their edges, as on a magazine page, for measuring the
# detector there (development only, not used by tests): on each page of the phone photos
# (Tests/FocalTests/Resources/phone_photos, the A4 pages on a desk), twice each, a picture covering 45–65 % of
# the page is printed in the page's own perspective, running off two neighbouring sides (a corner),
# two opposite sides (a band across), or one side. The pictures are drawn here, seeded: a saturated
# colour gradient with soft blobs and a few shapes, or a darker one, so no image is read but the
# photos. Photos are halved to 540 × 960. Writes OUT/NAME.jpg and OUT/corners.json (the page's
# quad: the document is the whole page, picture included), to score with ../shared/eval/score.py
# --gt OUT/corners.json --pred P after focal detect on each JPEG.
# Usage: picture-pages.py SEED OUT      (e.g. 1 /tmp/pictures1; needs numpy and opencv-python)
import json, os, sys
import cv2
import numpy as np

from photos import PHONE_PHOTOS

seed, out = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)
PAGES = ('a4-on-dark-background.webp', 'a4-on-white-background.webp', 'inner-table-on-dark-background.webp',
         'inner-table.webp', 'low-contrast.webp', 'with-graphics.webp')
PAGE_W, PAGE_H = 1000, 1414  # the page flattened, A4's proportions
SCALE = 0.5


def picture(w, h):
    """A picture as a magazine prints one: a two-colour gradient, soft blobs and a few shapes."""
    hues = rng.uniform(0, 180, 2)
    dark = rng.random() < 0.3
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    t = ((xs * np.cos(angle) + ys * np.sin(angle)) / (w + h) + 0.5).clip(0, 1)
    hsv = np.empty((h, w, 3), np.float32)
    hsv[..., 0] = hues[0] * (1 - t) + hues[1] * t
    hsv[..., 1] = rng.uniform(150, 255)
    hsv[..., 2] = rng.uniform(40, 110) if dark else rng.uniform(150, 240)
    image = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    for _ in range(int(rng.integers(3, 8))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        if rng.random() < 0.5:
            cv2.circle(image, centre, int(rng.uniform(0.05, 0.25) * min(w, h)), colour, -1, cv2.LINE_AA)
        else:
            size = (int(rng.uniform(0.1, 0.4) * w), int(rng.uniform(0.05, 0.3) * h))
            box = ((centre[0], centre[1]), size, float(rng.uniform(0, 180)))
            cv2.fillPoly(image, [np.int32(cv2.boxPoints(box))], colour, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), rng.uniform(1, 6))


def placement():
    """Where the picture lies on the page (x0, y0, x1, y1 in the flattened page) and how it runs off."""
    kind = ['corner', 'band', 'side'][int(rng.integers(3))]
    share = rng.uniform(0.45, 0.65)
    if kind == 'corner':  # off two neighbouring sides
        w, h = PAGE_W * rng.uniform(0.7, 0.9), PAGE_H * share / 0.8
        x0 = 0 if rng.random() < 0.5 else PAGE_W - w
        y0 = 0 if rng.random() < 0.5 else PAGE_H - h
        return kind, (x0, y0, x0 + w, y0 + min(h, PAGE_H * 0.75))
    if kind == 'band':  # off two opposite sides, across the page
        h = PAGE_H * share
        y0 = rng.uniform(0.1, 0.9 - share) * PAGE_H if share < 0.8 else 0
        return kind, (0, y0, PAGE_W, y0 + h)
    w = PAGE_W * rng.uniform(0.75, 0.9)  # off one side (the top or the bottom)
    x0 = (PAGE_W - w) / 2
    y0 = 0 if rng.random() < 0.5 else PAGE_H * (1 - share)
    return kind, (x0, y0, x0 + w, y0 + PAGE_H * share)


stills = []
annotated = {s['file']: s for s in json.load(open(os.path.join(PHONE_PHOTOS, 'corners.json')))['stills']}
for number, name in enumerate(PAGES * 2):  # each page twice, pictured differently
    photo = cv2.imread(os.path.join(PHONE_PHOTOS, name))
    quad = np.float32(annotated[name]['quad'])
    to_photo = cv2.getPerspectiveTransform(np.float32([[0, 0], [PAGE_W, 0], [PAGE_W, PAGE_H], [0, PAGE_H]]), quad)
    page = cv2.warpPerspective(photo, np.linalg.inv(to_photo), (PAGE_W, PAGE_H), flags=cv2.INTER_AREA)
    kind, (x0, y0, x1, y1) = placement()
    x0, y0, x1, y1 = (int(round(v)) for v in (x0, y0, x1, y1))
    # Printed on the paper: the page's light and shading carry over to the picture.
    light = cv2.GaussianBlur(cv2.cvtColor(page[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), (0, 0), 25).astype(np.float32)
    light = (light / max(1.0, np.percentile(light, 95)))[..., None].clip(0.3, 1.1)
    page[y0:y1, x0:x1] = (picture(x1 - x0, y1 - y0).astype(np.float32) * light).clip(0, 255).astype(np.uint8)
    size = (photo.shape[1], photo.shape[0])
    printed = cv2.warpPerspective(page, to_photo, size, flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.full((PAGE_H, PAGE_W), 255, np.uint8), to_photo, size) > 250
    photo[inside] = printed[inside]
    small = cv2.resize(photo, (int(size[0] * SCALE), int(size[1] * SCALE)), interpolation=cv2.INTER_AREA)
    file = '%02d-%s-%s.jpg' % (number, os.path.splitext(name)[0], kind)
    cv2.imwrite(os.path.join(out, file), small, [cv2.IMWRITE_JPEG_QUALITY, 92])
    stills.append({'file': file, 'quad': (quad * SCALE).round(2).tolist(), 'width': small.shape[1],
                   'height': small.shape[0]})
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'), indent=1)
print(f'{len(stills)} pages in {out}')
