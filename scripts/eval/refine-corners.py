#!/usr/bin/python3
"""Refines a rough quad on a photo's page edges, for annotating stills (scripts/eval/receipt-corners.json
was made with it). Each side moves to the straightest strong dark-to-bright edge (outside to inside)
within RADIUS pixels along its normal: 80 points along the side's middle, the strongest edge on each,
a line through the most of them agreeing to 2 pixels (at least 55%). A side without such an edge stays
where it was: a scan whose paper meets the frame keeps the frame there. Check every side by eye.

Usage: /usr/bin/python3 scripts/eval/refine-corners.py IMAGE (frame | X0,Y0,X1,Y1,X2,Y2,X3,Y3) [RADIUS]
  frame     start from the image's own border
  RADIUS    how far a side may move (default 4% of the image's longer side)
Prints the still's JSON line (file, quad, width, height) and, per side, how many points carried its line.
"""
import json
import os
import sys

import cv2
import numpy as np

MIN_STEP = 40          # the weakest Sobel step (grey levels) counted as an edge
SAMPLES = 80
AGREE_PIXELS = 2.0
MIN_SHARE = 0.55


def inward_gradient(image):
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (5, 5), 1.5)
    return cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)


def edge_points(gx, gy, a, b, inward, radius):
    """The strongest inward-brightening step on each normal along side a-b."""
    h, w = gx.shape
    points = []
    for t in np.linspace(0.08, 0.92, SAMPLES):
        best = None
        for s in np.arange(-radius, radius + 1, 1.0):
            x, y = a + (b - a) * t + inward * s
            if 1 <= x < w - 1 and 1 <= y < h - 1:
                step = gx[int(y), int(x)] * inward[0] + gy[int(y), int(x)] * inward[1]
                if best is None or step > best[0]:
                    best = (step, (x, y))
        if best and best[0] > MIN_STEP:
            points.append(best[1])
    return np.array(points)


def agreeing_line(points):
    """(point, direction) through the largest set of points within AGREE_PIXELS of one line, or None."""
    if len(points) < MIN_SHARE * SAMPLES:
        return None, 0
    rng = np.random.default_rng(0)
    best = None
    for _ in range(200):
        p, q = points[rng.choice(len(points), 2, replace=False)]
        if np.linalg.norm(q - p) < 1:
            continue
        d = (q - p) / np.linalg.norm(q - p)
        near = np.abs((points - p) @ np.array([-d[1], d[0]])) < AGREE_PIXELS
        if best is None or near.sum() > best.sum():
            best = near
    if best is None or best.sum() < MIN_SHARE * SAMPLES:
        return None, 0
    vx, vy, x0, y0 = cv2.fitLine(points[best].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return (np.array([x0, y0]), np.array([vx, vy])), int(best.sum())


def refine(image, quad, radius):
    gx, gy = inward_gradient(image)
    centre = quad.mean(0)
    lines, support = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / np.linalg.norm(b - a)
        inward = np.array([-d[1], d[0]])
        if np.dot(centre - (a + b) / 2, inward) < 0:
            inward = -inward
        line, count = agreeing_line(edge_points(gx, gy, a, b, inward, radius))
        lines.append(line or (a, d))
        support.append(count)
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[(i - 1) % 4], lines[i]
        t = np.linalg.solve(np.array([d1, -d2]).T, p2 - p1)
        corners.append(p1 + d1 * t[0])
    return np.array(corners), support


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    image = cv2.imread(sys.argv[1])
    if image is None:
        sys.exit('refine-corners: cannot read %s' % sys.argv[1])
    h, w = image.shape[:2]
    if sys.argv[2] == 'frame':
        quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float)
    else:
        quad = np.array([float(v) for v in sys.argv[2].split(',')]).reshape(4, 2)
    radius = int(sys.argv[3]) if len(sys.argv) == 4 else int(0.04 * max(w, h))
    corners, support = refine(image, quad, radius)
    corners[:, 0] = corners[:, 0].clip(0, w - 1)
    corners[:, 1] = corners[:, 1].clip(0, h - 1)
    still = {'file': os.path.basename(sys.argv[1]), 'quad': [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
             'width': w, 'height': h}
    print(json.dumps(still), 'support (top right bottom left):', *support)


if __name__ == '__main__':
    main()
