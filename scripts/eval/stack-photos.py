#!/usr/bin/env python3
# A page lying on another sheet, for measuring the detector on a stack of papers (development; one
# scene of seed 1, halved, is Tests/FocalTests/Resources/stacked_photos). Each scene is a real photo
# of a page (the phone photos' and jscanify's, in Tests/FocalTests/Resources; jscanify's held-apart
# photos are left out, to stay held apart); onto that page another photo's page, cut out along its
# annotated quad and flattened, is laid in the same perspective: about as large, turned a little and
# pushed off towards a side, so that the sheet below shows along one or two of its sides, with a
# soft shadow.
# The laid page is the document to find. Writes OUT/NAME.png and OUT/corners.json, to score with
# ../shared/eval/score.py --gt OUT/corners.json --pred P after focal detect on each PNG.
# Usage: stack-photos.py SEED OUT    (e.g. 1 /tmp/stack1; needs numpy and opencv-python)
import json, os, sys
import cv2
import numpy as np

from photos import RESOURCES, flattened

seed, out = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(seed)


def photos():
    """(image, quad, name) of every photo of a single page with its four corners in the frame."""
    found = []
    for folder, groups in (('phone_photos', {'page'}), ('jscanify_photos', {'tuning'})):
        for still in json.load(open(os.path.join(RESOURCES, folder, 'corners.json')))['stills']:
            quad = np.array(still['quad'], float)
            inside = (quad >= 0).all() and (quad[:, 0] < still['width']).all() and (quad[:, 1] < still['height']).all()
            if still['group'] in groups and inside:
                found.append((cv2.imread(os.path.join(RESOURCES, folder, still['file'])), quad, still['file']))
    return found


def placement(sheet, size):
    """Where the laid page goes, in the image: a rectangle in the sheet's own coordinates (the unit
    square), 0.8–0.95 of it, turned by up to 12 degrees and pushed 0.08–0.2 off its centre, mapped
    through the sheet's perspective; None where it would leave the frame."""
    to_image = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), np.float32(sheet))
    scale, turn = rng.uniform(0.8, 0.95), np.radians(rng.uniform(-12, 12))
    direction = rng.uniform(0, 2 * np.pi)
    centre = np.array([0.5, 0.5]) + rng.uniform(0.08, 0.2) * np.array([np.cos(direction), np.sin(direction)])
    corners = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * scale / 2)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    laid = cv2.perspectiveTransform(np.float32([corners @ rotation.T + centre]), to_image)[0]
    w, h = size
    inside = (laid[:, 0] > 0.02 * w).all() and (laid[:, 0] < 0.98 * w).all() and (laid[:, 1] > 0.02 * h).all() and (laid[:, 1] < 0.98 * h).all()
    return laid.astype(float) if inside else None


def laid_on(scene, page, quad):
    """scene with page warped onto quad, over a soft shadow cast down and to the right."""
    h, w = scene.shape[:2]
    ph, pw = page.shape[:2]
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]]), np.float32(quad))
    mask = cv2.warpPerspective(np.ones((ph, pw), np.float32), warp, (w, h))
    diagonal = np.hypot(w, h)
    shift = np.float32([[1, 0, 0.004 * diagonal], [0, 1, 0.006 * diagonal]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, (w, h)), (0, 0), 0.006 * diagonal)
    darkened = scene.astype(np.float32) * (1 - rng.uniform(0.15, 0.35) * shadow[..., None])
    paper = cv2.warpPerspective(page, warp, (w, h)).astype(np.float32) * rng.uniform(0.9, 1.05)
    mixed = darkened * (1 - mask[..., None]) + paper * mask[..., None]
    return np.clip(mixed, 0, 255).astype(np.uint8)


def main():
    os.makedirs(out, exist_ok=True)
    found = photos()
    stills = []
    for index, (scene, sheet, name) in enumerate(found):
        others = [i for i in range(len(found)) if i != index]
        top_image, top_quad, top_name = found[others[rng.integers(len(others))]]
        page = flattened(top_image, top_quad)
        laid = None
        while laid is None:
            laid = placement(sheet, (scene.shape[1], scene.shape[0]))
        file = '%02d-%s-on-%s.png' % (index, os.path.splitext(top_name)[0], os.path.splitext(name)[0])
        cv2.imwrite(os.path.join(out, file), laid_on(scene, page, laid))
        stills.append(dict(file=file, quad=laid.tolist(), width=scene.shape[1], height=scene.shape[0], group='stack'))
    json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'))
    print(f'{len(stills)} scenes in {out}')


if __name__ == '__main__':
    main()
