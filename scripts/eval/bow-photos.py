#!/usr/bin/env python3
# Pages bowed as a hand that holds them bends them, for measuring how the detector places a bowed
# page's corners (development only, not used by tests). The pages are the real ones of the phone
# photos (Tests/FocalTests/Resources/phone_photos, group "page"), flattened by their annotated
# corners; each is drawn in 32 strips, each through its own homography, whose ends lie on two
# opposite sides bowed out or in by 1.5–6 % of the page's width (a sine along the side), onto one
# of Debian's wallpaper photographs (/usr/share/backgrounds/*.jpg: scripts/install-deps.sh --train),
# turned, tilted and, in a third of them, with a thumb over one side. Writes OUT/bowedNN.jpg and
# OUT/corners.json (the four corners, as the field annotates a bowed page), to score with
# ../shared/eval/score.py --gt OUT/corners.json --pred P after focal detect on each JPEG.
# Usage: [BOW_MAX=0.06] bow-photos.py OUT SEED COUNT      (needs numpy and opencv-python)
#   seed 11: tuning; seed 12: looked at while choosing BowSearch::least_bow; seed 13: held apart.
#   BOW_MAX=0.10, pages sagging further (0.7.4): seeds 21 and 22 tuning (with 11, 14 and 15), 23 held apart.
import glob, json, os, sys
import cv2
import numpy as np

from photos import PHONE_PHOTOS, flattened

out, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
BOW_MAX = float(os.environ.get('BOW_MAX', '0.06'))  # the deepest bow, in the page's width across the bowed sides
rng = np.random.default_rng(seed)
pages = []
for still in json.load(open(os.path.join(PHONE_PHOTOS, 'corners.json')))['stills']:
    if still['group'] != 'page':
        continue
    pages.append(flattened(cv2.imread(os.path.join(PHONE_PHOTOS, still['file'])), still['quad']))
backgrounds = sorted(glob.glob('/usr/share/backgrounds/*.jpg'))
if not backgrounds:
    sys.exit('bow-photos.py: no /usr/share/backgrounds/*.jpg; run scripts/install-deps.sh --train')
os.makedirs(out, exist_ok=True)


def corners(width, height, page_w, page_h, portrait):
    """Where the page's corners lie: its proportions, 45–80 % of the frame, turned and keystoned."""
    scale = rng.uniform(0.45, 0.8) * min(width, height) / max(page_h, page_w) * (1.25 if portrait else 1.0)
    cx, cy = width / 2 + rng.uniform(-0.08, 0.08) * width, height / 2 + rng.uniform(-0.08, 0.08) * height
    a = np.deg2rad(rng.uniform(-12, 12))
    base = np.array([[-page_w / 2, -page_h / 2], [page_w / 2, -page_h / 2], [page_w / 2, page_h / 2], [-page_w / 2, page_h / 2]]) * scale
    base[:, 0] *= 1 + rng.uniform(-0.1, 0.1) * np.sign(base[:, 1])
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return base @ turn.T + [cx, cy]


def draw_bowed(frame, page, c, bow):
    """page onto frame with corners c, its left and right sides bowed by bow pixels (out when > 0)."""
    ph, pw = page.shape[:2]
    height, width = frame.shape[:2]

    def side(top, bottom, outward, t):
        along = bottom - top
        normal = np.array([along[1], -along[0]]) / np.linalg.norm(along) * outward
        return top + along * t + normal * bow * np.sin(np.pi * t)

    strips = 32
    for k in range(strips):
        r0, r1 = k * ph // strips, min(ph, (k + 1) * ph // strips + 1)
        t0, t1 = r0 / ph, r1 / ph
        target = np.float32([side(c[0], c[3], -1, t0), side(c[1], c[2], 1, t0), side(c[1], c[2], 1, t1), side(c[0], c[3], -1, t1)])
        source = np.float32([[0, 0], [pw, 0], [pw, r1 - r0], [0, r1 - r0]])
        h = cv2.getPerspectiveTransform(source, target)
        warped = cv2.warpPerspective(page[r0:r1], h, (width, height))
        mask = cv2.warpPerspective(np.full((r1 - r0, pw), 255, np.uint8), h, (width, height)) > 127
        frame[mask] = warped[mask]


stills = []
for n in range(count):
    portrait = rng.random() < 0.5
    width, height = (1080, 1440) if portrait else (1280, 720)
    frame = cv2.resize(cv2.imread(backgrounds[rng.integers(len(backgrounds))]), (width, height))
    page = pages[rng.integers(len(pages))]
    c = corners(width, height, page.shape[1], page.shape[0], portrait)
    sides = rng.random() < 0.6  # the left and right sides bow; else the top and bottom
    across = np.linalg.norm(c[1] - c[0]) if sides else np.linalg.norm(c[3] - c[0])
    bow = rng.choice([-1, 1], p=[0.3, 0.7]) * rng.uniform(0.015, BOW_MAX) * across
    if sides:
        draw_bowed(frame, page, c, bow)
    else:  # the page a quarter turned, so that its strips run the other way
        draw_bowed(frame, cv2.rotate(page, cv2.ROTATE_90_CLOCKWISE), c[[3, 0, 1, 2]], bow)
    if rng.random() < 0.33:
        i, t = rng.integers(4), rng.uniform(0.3, 0.7)
        p = c[i] + (c[(i + 1) % 4] - c[i]) * t
        axes = (int(0.03 * min(width, height)), int(0.05 * min(width, height)))
        angle = rng.uniform(0, 180)
        skin = (int(rng.uniform(90, 140)), int(rng.uniform(130, 170)), int(rng.uniform(190, 230)))
        cv2.ellipse(frame, (int(p[0]), int(p[1])), axes, angle, 0, 360, skin, -1, cv2.LINE_AA)
    frame = np.clip(frame.astype(np.float32) + rng.normal(0, 2.5, frame.shape), 0, 255).astype(np.uint8)
    name = 'bowed%02d.jpg' % n
    cv2.imwrite(os.path.join(out, name), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    stills.append({'file': name, 'quad': c.tolist(), 'width': width, 'height': height, 'group': 'bowed',
                   'bow_px': float(bow), 'sides_bowed': 'left and right' if sides else 'top and bottom'})
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'), indent=1)
