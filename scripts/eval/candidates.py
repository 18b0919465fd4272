#!/usr/bin/python3
"""Whether a still was missed in the choice or before it: for each still, the JI of the quad reported
beside the best JI among every candidate quad the document search weighed, to tell the two kinds of
miss apart before changing anything. Where a candidate scores far above the quad reported, the rules
or the network's agreement chose wrongly; where none comes near the page, no map or edge proposed
it, and no rule that chooses can help.

Usage: /usr/bin/python3 scripts/eval/candidates.py [--accuracy high|low] [--below 0.9] SET ...

  SET          a set's name, or a group, as dev-sets.py takes them (still sets only: a clip's frames
               would log their candidates into one file); the sets must have been made once
               (scripts/eval/dev-sets.py SET)
  --work D     dev-sets.py's work folder, where the sets are (default .build/dev-sets)
  --focal F    a focal built to log its candidates (default .build/candidate-log/release/focal):
               swift build -c release --product focal --build-path .build/candidate-log -Xcxx -DCFOCAL_CANDIDATE_LOG
  --below J    also list each still whose reported quad scores below J, with its best candidate:
               the candidate's JI, the network's agreement with it and its rank beside the first
               candidate's

Prints, for each set: the mean JI of the quads reported; the mean of each still's best candidate
(the choice's ceiling: candidates are found at the working size, so a page's own candidate scores a
little below the quad refined from it); how many stills a candidate beats the quad reported by 0.05
or more (missed in the choice); and how many have no candidate of 0.9 or more (missed before it).
JI here is the intersection over union of the two quads (convex), as the evaluation kit scores a
still with one page. Candidates are logged by a build of the shim with CFOCAL_CANDIDATE_LOG defined
(quads.cpp, QuadSearch::log_candidates): every candidate of every search a frame takes (the second
look's too), in rank order. The build's figures are those of .build/release/focal's from the same
commit. Needs Debian's python3-opencv.
"""
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

from misses import annotated_stills, dev_sets, set_arguments, still_sets

BUILD_COMMAND = ('swift build -c release --product focal --build-path .build/candidate-log '
                 '-Xcxx -DCFOCAL_CANDIDATE_LOG')


def jaccard(a, b):
    """Intersection over union of two quads: exact where both are convex, and counted on a pixel grid
    where one is not (a candidate joined from lines can be bent in or crossed, and the convex
    intersection of such a quad is meaningless: it gave scans-phone-2 a candidate mean of 2.3). OpenCV
    4.6's intersectConvexConvex miscounts two convex quads sharing part of a side (a candidate on the
    border of a scan whose page is the whole image: 16.2 on scans-phone-2's `with-graphics.jpg`, a
    candidate mean of 2.36 again); an intersection larger than either quad is counted on the grid."""
    a, b = np.float32(a), np.float32(b)
    if not (cv2.isContourConvex(a) and cv2.isContourConvex(b)):
        return rasterized_jaccard(a, b)
    if cv2.contourArea(a, oriented=True) < 0:
        a = a[::-1].copy()
    if cv2.contourArea(b, oriented=True) < 0:
        b = b[::-1].copy()
    try:
        inter, _ = cv2.intersectConvexConvex(a, b)
    except cv2.error:
        return 0.0
    area_a, area_b = cv2.contourArea(a), cv2.contourArea(b)
    if inter > min(area_a, area_b) * (1 + 1e-6):
        return rasterized_jaccard(a, b)
    union = area_a + area_b - inter
    return inter / union if union > 0 else 0.0


def rasterized_jaccard(a, b):
    """Intersection over union of two polygons filled on a grid of 1/4 pixel (even-odd: a crossed
    quad covers its two triangles)."""
    points = np.vstack([a, b])
    origin = points.min(axis=0)
    size = np.int32(np.ceil((points.max(axis=0) - origin) * 4)) + 2
    masks = []
    for quad in (a, b):
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillPoly(mask, [np.int32(np.round((quad - origin) * 4))], 1)
        masks.append(mask.astype(bool))
    union = np.count_nonzero(masks[0] | masks[1])
    return np.count_nonzero(masks[0] & masks[1]) / union if union else 0.0


def logged_candidates(path):
    """Each search's candidates from a log: lists of dicts, in rank order."""
    searches, current = [], []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields == ['end']:
                searches.append(current)
                current = []
                continue
            learned, score, agreement, edges, rank = fields[:5]
            corners = np.float32(fields[5:13]).reshape(4, 2)
            current.append({'learned': learned == '1', 'score': float(score), 'agreement': float(agreement),
                            'edges': float(edges), 'rank': float(rank), 'corners': corners})
    return searches


def still_result(focal, accuracy, folder, still):
    """(file, JI reported, best candidate or None, first candidate or None) for one still."""
    with tempfile.TemporaryDirectory() as scratch:
        log, found = os.path.join(scratch, 'candidates.log'), os.path.join(scratch, 'found.json')
        result = subprocess.run([focal, 'detect', os.path.join(folder, still['file']), '--types', 'rectangle',
                                 '--accuracy', accuracy, '--json', found],
                                env=dict(os.environ, FOCAL_CANDIDATE_LOG=log), capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit('candidates: focal failed on %s: %s' % (still['file'], result.stderr.strip()[-500:]))
        with open(found) as f:
            frames = json.load(f)['frames']
        reported = max([jaccard(feature['corners'], still['quad']) for frame in frames for feature in frame['features']],
                       default=0.0)
        searches = logged_candidates(log) if os.path.exists(log) else []
    every = [dict(c, ji=jaccard(c['corners'], still['quad'])) for search in searches for c in search]
    best = max(every, key=lambda c: c['ji'], default=None)
    first = searches[-1][0] if searches and searches[-1] else None
    if first is not None:
        first = dict(first, ji=jaccard(first['corners'], still['quad']))
    return still['file'], reported, best, first


def main():
    module = dev_sets()
    ap = set_arguments(module, __doc__)
    ap.add_argument('--focal', default=os.path.join(module.ROOT, '.build', 'candidate-log', 'release', 'focal'))
    ap.add_argument('--below', type=float)
    args = ap.parse_args()
    if not os.access(args.focal, os.X_OK):
        sys.exit('candidates: no focal that logs its candidates at %s; build one from the project\'s root:\n  %s'
                 % (args.focal, BUILD_COMMAND))
    print('%-20s %8s %10s %8s %8s %7s' % ('set', 'reported', 'candidate', 'choice', 'before', 'stills'))
    listed = []
    for name, folder in still_sets(module, args.sets, args.work):
        stills = [s for s in annotated_stills('candidates', name, folder, args.work) if s['quad'] is not None]
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda s: still_result(args.focal, args.accuracy, folder, s), stills))
        if not results:
            continue
        reported = [r[1] for r in results]
        best = [r[2]['ji'] if r[2] else 0.0 for r in results]
        in_choice = sum(b >= r + 0.05 for r, b in zip(reported, best))
        before = sum(b < 0.9 for b in best)
        print('%-20s %8.3f %10.3f %8d %8d %7d' % (name, np.mean(reported), np.mean(best), in_choice, before,
                                                  len(results)))
        listed += [(name,) + r for r in results if args.below is not None and r[1] < args.below]
    for name, file, reported, best, first in sorted(listed, key=lambda row: row[2]):
        line = '%-14s %-44s reported %.3f' % (name, file[:44], reported)
        if best is not None:
            line += '  best candidate %.3f (agreement %.2f, rank %.2f)' % (best['ji'], best['agreement'], best['rank'])
        if first is not None:
            line += '  first %.3f (agreement %.2f, rank %.2f)' % (first['ji'], first['agreement'], first['rank'])
        print(line)


if __name__ == '__main__':
    main()
