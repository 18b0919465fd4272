# What the development-set scripts beside this file share: where the annotated real photos are, a
# page flattened from its annotated quad, and a box around one. Each script imports it from its own
# folder (Python puts a script's folder first on its path).
import os

import cv2
import numpy as np

# The tests' resources: phone_photos/ and jscanify_photos/, each with its corners.json
RESOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../Tests/FocalTests/Resources')
PHONE_PHOTOS = os.path.join(RESOURCES, 'phone_photos')


def flattened(image, quad):
    """The page inside quad (clockwise from its top left), warped to a rectangle of its opposite
    sides' mean lengths."""
    q = np.float32(quad)
    w = int((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)
    h = int((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)
    flat = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(image, flat, (w, h))


def box_around(quad, margin):
    """quad's bounding box with margin of its width and height to spare on each side, as x0, y0, x1,
    y1 (not clamped to any image)."""
    (x0, y0), (x1, y1) = np.min(quad, 0), np.max(quad, 0)
    mx, my = margin * (x1 - x0), margin * (y1 - y0)
    return x0 - mx, y0 - my, x1 + mx, y1 + my
