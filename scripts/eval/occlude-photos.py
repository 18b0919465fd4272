#!/usr/bin/env python3
# The phone photos (Tests/FocalTests/Resources/phone_photos) with something over each document, for
# measuring how the detector copes with occlusion (development only, not used by tests). Writes
# OUT/NAME.png and OUT/corners.json (the annotated corners: the document runs on under it), to score
# with ../shared/eval/score.py --gt OUT/corners.json --pred P after focal detect on each PNG.
#   laid-cable  a dark cable from the desk left of the page to the desk right of it, laid as
#               RealPhotoTests.thePhotosWithACableAcrossThePageAreFoundWhole lays it
#   cable       a dark cable across the page, placed at random (seed 5), with its shadow
#   corner      a grey box standing over one corner, with a darker side face and a shadow
#   pen         a red pen over one side, half on the page
#   shadow      the soft shadow of the hand and phone over the page, across one or two of its sides
#   glare       a bright reflection of a lamp on glossy paper, reaching one side (on the paper only)
#   clutter     a cluttered desk (after SmartDoc 2015's): a highlighter and an orange on the page, a
#               pen over one side, a mug beside it and the laid cable across it
# Usage: [SEED=5] occlude-photos.py KIND OUT      (needs numpy and opencv-python)
import json, os, sys
import cv2
import numpy as np

from photos import PHONE_PHOTOS

kind, out = sys.argv[1], sys.argv[2]
truth = json.load(open(os.path.join(PHONE_PHOTOS, 'corners.json')))
rng = np.random.default_rng(int(os.environ.get('SEED', 5)))  # where things lie; 5 for every set before clutter
os.makedirs(out, exist_ok=True)


def ordered(quad):
    """topLeft, topRight, bottomRight, bottomLeft (clockwise on screen from the top-left-most)."""
    q = np.array(quad, float)
    c = q.mean(0)
    q = q[np.argsort(np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0]))]
    return np.roll(q, -int(np.argmin(q.sum(1))), axis=0)


def laid_cable(img, still):
    """A dark cable from the desk left of the page to the desk right of it, as RealPhotoTests lays it."""
    tl, tr, br, bl = ordered(still['quad'])
    centre = (tl + tr + br + bl) / 4
    a, b = tl + (bl - tl) * 0.35, tr + (br - tr) * 0.55
    a, b = a + (a - centre) * 0.5, b + (b - centre) * 0.5
    m = (a + b) / 2 + np.array([0, -0.04 * np.linalg.norm(bl - tl)])
    pts = np.array([(1 - t) ** 2 * a + 2 * (1 - t) * t * m + t * t * b for t in np.linspace(0, 1, 25)])
    width = max(2, int(round(0.017 * img.shape[1])))
    cv2.polylines(img, [np.int32(np.round(pts * 8))], False, (30, 25, 25), width, cv2.LINE_AA, shift=3)


def pen(img, c):
    """A red pen (BGR 30, 60, 200) over one side of the page c, half on it."""
    k = rng.integers(4)
    p = c[k] + (c[(k + 1) % 4] - c[k]) * rng.uniform(0.3, 0.7)
    d = c[(k + 1) % 4] - c[k]
    d = d / np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    ang = rng.uniform(0.4, 1.2)
    v = d * np.cos(ang) + n * np.sin(ang)
    length = np.linalg.norm(c[1] - c[0]) * 0.55
    a, b = (p - v * length * 0.5).astype(int), (p + v * length * 0.5).astype(int)
    cv2.line(img, tuple(a + [10, 12]), tuple(b + [10, 12]), (50, 50, 50), 22, cv2.LINE_AA)
    cv2.line(img, tuple(a), tuple(b), (30, 60, 200), 20, cv2.LINE_AA)
    cv2.line(img, tuple(a), tuple(a + (v * 60).astype(int)), (20, 20, 20), 20, cv2.LINE_AA)


def highlighter(img, c):
    """A yellow highlighter lying on the page c, well inside it, with its cap and shadow."""
    size = np.linalg.norm(c[1] - c[0])
    centre = c.mean(0) + (c[rng.integers(4)] - c.mean(0)) * rng.uniform(0.2, 0.5)
    ang = rng.uniform(0, np.pi)
    v = np.array([np.cos(ang), np.sin(ang)])
    a, b = (centre - v * size * 0.2).astype(int), (centre + v * size * 0.2).astype(int)
    width = max(6, int(size * 0.04))
    cv2.line(img, tuple(a + [8, 10]), tuple(b + [8, 10]), (60, 60, 60), width + 2, cv2.LINE_AA)
    cv2.line(img, tuple(a), tuple(b), (40, 230, 240), width, cv2.LINE_AA)
    cv2.line(img, tuple(b), tuple(b - (v * size * 0.06).astype(int)), (30, 30, 30), width, cv2.LINE_AA)


def orange(img, c):
    """An orange lying half on the page c near one of its corners: shaded, with a shadow."""
    size = np.linalg.norm(c[1] - c[0])
    k = rng.integers(4)
    centre = c[k] + (c.mean(0) - c[k]) * rng.uniform(0.12, 0.25)
    r = int(size * rng.uniform(0.09, 0.13))
    x, y = int(centre[0]), int(centre[1])
    shadow = np.zeros(img.shape[:2], np.float32)
    cv2.circle(shadow, (x + r // 3, y + r // 2), r, 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), r / 4)[..., None] * 0.5
    img[:] = np.uint8(img * (1 - shadow))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    light = np.clip(1.1 - np.hypot(xx + r * 0.35, yy + r * 0.35) / (1.6 * r), 0.35, 1.0)
    disc = np.hypot(xx, yy) <= r
    y0, x0 = y - r, x - r
    region = img[max(0, y0):y0 + 2 * r + 1, max(0, x0):x0 + 2 * r + 1]
    sub = (slice(max(0, -y0), max(0, -y0) + region.shape[0]), slice(max(0, -x0), max(0, -x0) + region.shape[1]))
    colour = np.array([20, 130, 245], np.float32) * light[sub][..., None]
    region[disc[sub]] = np.uint8(colour[disc[sub]])


def mug(img, c):
    """A dark mug standing on the desk beside one side of the page c, seen from above at an angle."""
    size = np.linalg.norm(c[1] - c[0])
    k = rng.integers(4)
    p = c[k] + (c[(k + 1) % 4] - c[k]) * rng.uniform(0.3, 0.7)
    out = p - c.mean(0)
    centre = p + out / np.linalg.norm(out) * size * 0.28
    r = int(size * 0.15)
    x, y = int(centre[0]), int(centre[1])
    cv2.ellipse(img, (x + r // 3, y + r // 2), (r, int(r * 0.8)), 0, 0, 360, (45, 45, 45), -1, cv2.LINE_AA)
    cv2.ellipse(img, (x + r, y), (r // 2, r // 3), 0, 0, 360, (70, 40, 40), max(4, r // 6), cv2.LINE_AA)
    cv2.ellipse(img, (x, y), (r, int(r * 0.8)), 0, 0, 360, (90, 50, 50), -1, cv2.LINE_AA)
    cv2.ellipse(img, (x, y), (int(r * 0.8), int(r * 0.62)), 0, 0, 360, (35, 25, 20), -1, cv2.LINE_AA)


for still in truth['stills']:
    img = cv2.imread(os.path.join(PHONE_PHOTOS, still['file']))
    c = np.array(still['quad'], float)
    if kind == 'laid-cable':
        laid_cable(img, still)
    elif kind == 'cable':
        a = c[0] + (c[3] - c[0]) * rng.uniform(0.2, 0.8)
        a = a + (a - c.mean(0)) * 0.6
        b = c[1] + (c[2] - c[1]) * rng.uniform(0.2, 0.8)
        b = b + (b - c.mean(0)) * 0.6
        m = (a + b) / 2 + rng.normal(0, 80, 2)
        pts = np.array([(1 - t) ** 2 * a + 2 * (1 - t) * t * m + t * t * b for t in np.linspace(0, 1, 200)], np.int32).reshape(-1, 1, 2)
        shadow = img.copy()
        cv2.polylines(shadow, [pts + np.array([14, 18])], False, (0, 0, 0), 26, cv2.LINE_AA)
        img = cv2.addWeighted(img, 0.6, cv2.GaussianBlur(shadow, (31, 31), 0), 0.4, 0)
        cv2.polylines(img, [pts], False, (35, 35, 40), 18, cv2.LINE_AA)
        cv2.polylines(img, [pts - np.array([3, 3])], False, (80, 80, 90), 4, cv2.LINE_AA)
    elif kind == 'corner':
        p = c[rng.integers(4)]
        s = np.linalg.norm(c[1] - c[0]) * 0.16
        box = np.array([[-s, -s], [s, -s * 0.8], [s * 1.1, s], [-s * 0.9, s * 1.1]]) + p
        side = np.array([box[1], box[1] + [s * 0.3, -s * 0.2], box[2] + [s * 0.3, -s * 0.2], box[2]])
        cv2.fillPoly(img, [(box + [20, 25]).astype(np.int32)], (60, 60, 60))
        cv2.fillPoly(img, [box.astype(np.int32)], (150, 150, 155), cv2.LINE_AA)
        cv2.fillPoly(img, [side.astype(np.int32)], (110, 110, 115), cv2.LINE_AA)
    elif kind == 'pen':
        pen(img, c)
    elif kind == 'shadow':
        # an arm and a phone from one side of the frame, over the page: a band and a blob
        k = rng.integers(4)
        p = c[k] + (c[(k + 1) % 4] - c[k]) * rng.uniform(0.2, 0.8)
        inward = c.mean(0) - p
        size = np.linalg.norm(c[1] - c[0])
        tip = p + inward * rng.uniform(0.3, 0.7)
        root = p - inward * 3
        mask = np.zeros(img.shape[:2], np.float32)
        cv2.line(mask, tuple(np.int32(root)), tuple(np.int32(tip)), 1.0, int(size * rng.uniform(0.25, 0.45)))
        cv2.ellipse(mask, tuple(np.int32(tip)), (int(size * 0.3), int(size * 0.18)),
                    float(np.degrees(np.arctan2(inward[1], inward[0]))), 0, 360, 1.0, -1)
        blur = int(size * 0.15) | 1
        mask = cv2.GaussianBlur(mask, (blur, blur), 0)[..., None] * rng.uniform(0.35, 0.55)
        img = np.uint8(np.clip(img * (1 - mask), 0, 255))
    elif kind == 'glare':
        k = rng.integers(4)
        p = c[k] + (c[(k + 1) % 4] - c[k]) * rng.uniform(0.25, 0.75)
        size = np.linalg.norm(c[1] - c[0])
        mask = np.zeros(img.shape[:2], np.float32)
        cv2.ellipse(mask, tuple(np.int32(p)), (int(size * rng.uniform(0.12, 0.22)), int(size * rng.uniform(0.06, 0.12))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        blur = int(size * 0.12) | 1
        paper = np.zeros(img.shape[:2], np.float32)
        cv2.fillPoly(paper, [np.int32(np.round(c))], 1.0, cv2.LINE_AA)
        mask = (np.clip(cv2.GaussianBlur(mask, (blur, blur), 0) * 1.6, 0, 1) * paper)[..., None]
        img = np.uint8(np.clip(img * (1 - mask) + 250 * mask, 0, 255))
    elif kind == 'clutter':
        for draw in (highlighter, pen, orange, mug):
            draw(img, c)
        laid_cable(img, still)
    else:
        sys.exit('occlude-photos.py: unknown kind %r: use laid-cable, cable, corner, pen, shadow, glare or clutter' % kind)
    cv2.imwrite(os.path.join(out, still['file'].replace('.webp', '.png')), img)
for still in truth['stills']:
    still['file'] = still['file'].replace('.webp', '.png')
json.dump(truth, open(os.path.join(out, 'corners.json'), 'w'))
