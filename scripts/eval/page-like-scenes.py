#!/usr/bin/env python3
# Frames with no document in them, only things shaped like one, for counting the false pages the
# detector reports (development; not used by tests): on a rendered desk (wood, pale concrete, dark
# laminate, grey fabric), one or two of a monitor showing a picture in its dark bezel, a window
# with a white frame and mullions onto a dark street, a picture in a wide frame (no white mat),
# a cardboard box's lid with tape across it, a coloured sign with lettering bars, and a keyboard,
# each in its own perspective, with the light falling across the frame, noise, a little blur and
# JPEG. Pictures are drawn here, seeded (colour gradients with blobs and shapes, as
# picture-pages.py draws them), so no photo of a page can slip in. Landscape 1280 × 720 and
# portrait 720 × 1280 frames. Writes OUT/NAME.jpg and OUT/corners.json, whose stills have no quad
# ("quad": null): score.py then reports what was detected on each, and every detection is a false
# page.
# Usage: page-like-scenes.py SEED OUT [COUNT]    (e.g. 1 /tmp/pagelike1 24; needs numpy and opencv-python)
import json
import os
import sys

import cv2
import numpy as np

seed, out = int(sys.argv[1]), sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 24
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)


def desk(w, h):
    """A desk's surface: wood grain, pale concrete, dark laminate or grey fabric."""
    kind = ['wood', 'concrete', 'laminate', 'fabric'][int(rng.integers(4))]
    noise = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind == 'wood':
        streaks = cv2.GaussianBlur(noise, (0, 0), sigmaX=60, sigmaY=1.5)
        streaks /= max(1e-6, float(np.abs(streaks).max()))
        base = np.array([40, 80, 140], np.float32) * rng.uniform(0.7, 1.2)
        image = base * (1 + 0.35 * streaks[..., None])
    elif kind == 'concrete':
        blotches = cv2.GaussianBlur(noise, (0, 0), 12)
        blotches /= max(1e-6, float(np.abs(blotches).max()))
        image = np.full((h, w, 3), rng.uniform(160, 200), np.float32) * (1 + 0.12 * blotches[..., None])
        image += 6 * noise[..., None]
    elif kind == 'laminate':
        image = np.full((h, w, 3), rng.uniform(25, 60), np.float32) + 3 * noise[..., None]
    else:
        weave = cv2.GaussianBlur(noise, (0, 0), 1.2)
        image = np.full((h, w, 3), rng.uniform(90, 140), np.float32) * (1 + 0.25 * weave[..., None])
    return image


def picture(w, h, dark=False):
    """A colourful picture: a gradient between two hues, with blobs and shapes, softened."""
    hues = rng.uniform(0, 180, 2)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    t = ((xs * np.cos(angle) + ys * np.sin(angle)) / (w + h) + 0.5).clip(0, 1)
    hsv = np.empty((h, w, 3), np.float32)
    hsv[..., 0] = hues[0] * (1 - t) + hues[1] * t
    hsv[..., 1] = rng.uniform(80, 255)
    hsv[..., 2] = rng.uniform(40, 100) if dark else rng.uniform(90, 230)
    image = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    for _ in range(int(rng.integers(4, 10))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        if rng.random() < 0.5:
            cv2.circle(image, centre, int(rng.uniform(0.04, 0.2) * min(w, h)), colour, -1, cv2.LINE_AA)
        else:
            size = (int(rng.uniform(0.1, 0.4) * w), int(rng.uniform(0.05, 0.3) * h))
            box = ((centre[0], centre[1]), size, float(rng.uniform(0, 180)))
            cv2.fillPoly(image, [np.int32(cv2.boxPoints(box))], colour, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), rng.uniform(0.8, 3)).astype(np.float32)


def inset(image, margin, content):
    """content laid into image, `margin` (a share of the shorter side) in from each side."""
    h, w = image.shape[:2]
    m = max(2, int(margin * min(w, h)))
    image[m:h - m, m:w - m] = cv2.resize(content, (w - 2 * m, h - 2 * m), interpolation=cv2.INTER_AREA)
    return m


def thing(kind, w, h):
    """The face of a page-like thing, flat, w × h."""
    if kind == 'monitor':
        face = np.full((h, w, 3), rng.uniform(8, 30), np.float32)
        inset(face, rng.uniform(0.03, 0.07), picture(w, h))
    elif kind == 'window':
        face = np.full((h, w, 3), rng.uniform(215, 245), np.float32)
        m = inset(face, rng.uniform(0.03, 0.06), picture(w, h, dark=rng.random() < 0.7))
        bar = max(3, int(0.6 * m))
        for k in range(1, int(rng.integers(1, 3)) + 1):
            x = int(w * k / (int(rng.integers(2, 4)) if k == 1 else 3))
            face[:, max(0, x - bar // 2):x + bar // 2] = face[0, 0]
        if rng.random() < 0.4:
            face[h // 2 - bar // 2:h // 2 + bar // 2, :] = face[0, 0]
    elif kind == 'framed':
        # no white mat: a picture with a white border lying on a desk is a photo print, a document
        # (the evaluation kit's clips have one)
        face = np.full((h, w, 3), 0, np.float32)
        face[:] = np.array(rng.choice([[20, 20, 20], [40, 90, 150], [60, 160, 200]]), np.float32)
        inset(face, rng.uniform(0.05, 0.1), picture(w, h))
    elif kind == 'box':
        face = np.full((h, w, 3), 1, np.float32) * np.array([70, 120, 165], np.float32) * rng.uniform(0.8, 1.15)
        tape = int(rng.uniform(0.06, 0.1) * min(w, h))
        face[:, w // 2 - tape:w // 2 + tape] *= 1.25
    elif kind == 'sign':
        # saturated, as signs are: a pale grey plate with dark bars would be a page
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(170, 255), rng.uniform(90, 220)]]])
        face = np.full((h, w, 3), 1, np.float32) * cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        light = np.float32([245, 245, 245]) if rng.random() < 0.5 else np.float32([20, 20, 20])
        for k in range(int(rng.integers(2, 5))):
            y = int(h * (0.2 + 0.6 * k / 4))
            face[y:y + max(4, h // 14), int(w * 0.1):int(w * rng.uniform(0.5, 0.9))] = light
    else:  # keyboard
        face = np.full((h, w, 3), rng.uniform(20, 60), np.float32)
        keys = rng.uniform(150, 220) if rng.random() < 0.5 else rng.uniform(5, 20)
        rows, cols = 5, 14
        for r in range(rows):
            for c in range(cols):
                x0, y0 = int(w * (0.03 + 0.94 * c / cols)), int(h * (0.06 + 0.88 * r / rows))
                face[y0:y0 + int(0.8 * h / rows), x0:x0 + int(0.85 * w / cols)] = keys
    return face


def placed(frame, face, fill, centre):
    """face laid onto frame in perspective: about `fill` of the frame's shorter side, turned, tilted."""
    H, W = frame.shape[:2]
    h, w = face.shape[:2]
    size = fill * min(W, H)
    scale = size / max(w, h)
    corners = np.float32([[-w, -h], [w, -h], [w, h], [-w, h]]) * 0.5 * scale
    turn = np.radians(rng.uniform(-25, 25))
    rotation = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = corners @ rotation.T
    corners[:, 0] *= 1 + rng.uniform(-0.15, 0.15) * np.sign(corners[:, 1])  # a little keystone
    quad = (corners + np.float32(centre)).astype(np.float32)
    to_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    warped = cv2.warpPerspective(face, to_frame, (W, H), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones((h, w), np.float32), to_frame, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    shadow = cv2.GaussianBlur(mask, (0, 0), 0.02 * min(W, H))
    if shadow.ndim == 2:
        shadow = shadow[..., None]
    frame *= 1 - 0.35 * np.roll(shadow, (int(0.01 * H), int(0.01 * W)), axis=(0, 1))
    frame[:] = frame * (1 - mask) + warped * mask


stills = []
kinds = ['monitor', 'window', 'framed', 'box', 'sign', 'keyboard']
for number in range(count):
    W, H = (1280, 720) if rng.random() < 0.6 else (720, 1280)
    frame = desk(W, H)
    chosen = [kinds[number % len(kinds)]] + ([kinds[int(rng.integers(len(kinds)))]] if rng.random() < 0.4 else [])
    spots = [(0.5, 0.5)] if len(chosen) == 1 else [(0.3, 0.45), (0.72, 0.55)]
    for kind, (sx, sy) in zip(chosen, spots):
        aspect = rng.uniform(1.2, 1.8)
        w, h = (int(400 * aspect), 400) if kind in ('monitor', 'keyboard', 'sign') or rng.random() < 0.5 else (400, int(400 * aspect))
        fill = rng.uniform(0.45, 0.8) if len(chosen) == 1 else rng.uniform(0.3, 0.5)
        centre = (W * (sx + rng.uniform(-0.06, 0.06)), H * (sy + rng.uniform(-0.06, 0.06)))
        placed(frame, thing(kind, w, h), fill, centre)
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    light = 1 + rng.uniform(0.1, 0.35) * ((xs * np.cos(angle) + ys * np.sin(angle)) / (W + H))
    frame = frame * light[..., None] + rng.normal(0, 2.5, frame.shape)
    frame = cv2.GaussianBlur(frame.clip(0, 255).astype(np.uint8), (0, 0), rng.uniform(0.4, 1.0))
    file = '%02d-%s.jpg' % (number, '-'.join(chosen))
    cv2.imwrite(os.path.join(out, file), frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 95))])
    stills.append({'file': file, 'quad': None, 'width': W, 'height': H})
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'), indent=1)
print(f'{len(stills)} frames without a document in {out}')
