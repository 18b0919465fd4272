#!/usr/bin/python3
"""How much of each network quad the document search judges is paper, and how much of that paper
is plain: the figures `PictureOnPaper` in the shim's quads.cpp was set on. A page mostly picture
and a window's white frame round pale shapes both leave less than 0.35 of their quad paper; what
parts them is the share of that paper that is plain (near-neutral).

Usage: /usr/bin/python3 scripts/eval/paper-shares.py [--accuracy high|low] [--list] SET ...

  SET          a set's name, or a group, as dev-sets.py takes them (stills and the page-like sets,
               whose frames hold no document); the sets must have been made once
               (scripts/eval/dev-sets.py SET)
  --work D     dev-sets.py's work folder, where the sets are (default .build/dev-sets)
  --focal F    a focal built to log them (default .build/candidate-log/release/focal):
               swift build -c release --product focal --build-path .build/candidate-log -Xcxx -DCFOCAL_CANDIDATE_LOG
  --least P    the least paper share counted (default 0.25, PictureOnPaper::least_paper)
  --most P     the paper share below which quads are counted (default 0.35, the share asked of a page)
  --list       also list each quad counted, lowest plain share of its paper first

Prints, over the quads whose paper share lies in [least, most): for the page's own quads (JI 0.9 or
more against the annotation), for parts of a page (JI below 0.9) and for quads on frames without a
document (every one a false page if taken), how many there are, on how many stills, and the range of
plain paper over paper. The build logs each network quad that passes the first paper test
(QuadSearch::paper_enough, log_paper): its paper share, plain paper share, largest piece, interior
brightness and share of deep plain paper (PaperAmongTheBrightest, DeepPaper; shown by --list).
Needs Debian's python3-opencv.
"""
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from candidates import BUILD_COMMAND, jaccard
from misses import annotated_stills, dev_sets, set_arguments, still_sets


def logged_quads(path):
    """Each logged quad: dicts of paper, plain, piece and corners."""
    quads = []
    if not os.path.exists(path):
        return quads
    with open(path) as f:
        for line in f:
            fields = line.split()
            quads.append({'paper': float(fields[0]), 'plain': float(fields[1]), 'piece': float(fields[2]),
                          'corners': np.float32(fields[3:11]).reshape(4, 2), 'bright': float(fields[11]),
                          'deep': float(fields[12])})
    return quads


def still_quads(focal, accuracy, folder, still):
    """The quads one still's searches judged, each with its JI (None where the still has no document)."""
    with tempfile.TemporaryDirectory() as scratch:
        log = os.path.join(scratch, 'paper.log')
        result = subprocess.run([focal, 'detect', os.path.join(folder, still['file']), '--types', 'rectangle',
                                 '--accuracy', accuracy, '--json', os.path.join(scratch, 'found.json')],
                                env=dict(os.environ, FOCAL_PAPER_LOG=log), capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit('paper-shares: focal failed on %s: %s' % (still['file'], result.stderr.strip()[-500:]))
        quads = logged_quads(log)
    truth = still['quad']
    return [dict(q, file=still['file'], ji=None if truth is None else jaccard(q['corners'], truth)) for q in quads]


def kind_of(quad):
    if quad['ji'] is None:
        return 'no page'
    return 'page' if quad['ji'] >= 0.9 else 'part'


def main():
    module = dev_sets()
    ap = set_arguments(module, __doc__)
    ap.add_argument('--focal', default=os.path.join(module.ROOT, '.build', 'candidate-log', 'release', 'focal'))
    ap.add_argument('--least', type=float, default=0.25)
    ap.add_argument('--most', type=float, default=0.35)
    ap.add_argument('--list', action='store_true')
    args = ap.parse_args()
    if not os.access(args.focal, os.X_OK):
        sys.exit('paper-shares: no focal that logs its quads at %s; build one from the project\'s root:\n  %s'
                 % (args.focal, BUILD_COMMAND))
    counted = []
    for name, folder in still_sets(module, args.sets, args.work, kinds=('stills', 'empty')):
        stills = annotated_stills('paper-shares', name, folder, args.work)
        with ThreadPoolExecutor(max_workers=2) as pool:
            for quads in pool.map(lambda s: still_quads(args.focal, args.accuracy, folder, s), stills):
                counted += [dict(q, set=name) for q in quads if args.least <= q['paper'] < args.most]
    print('quads with %.2f to %.2f of them paper, %s:' % (args.least, args.most, args.accuracy))
    for kind in ('page', 'part', 'no page'):
        quads = [q for q in counted if kind_of(q) == kind]
        if not quads:
            print('  %-8s none' % kind)
            continue
        shares = [q['plain'] / q['paper'] for q in quads]
        stills = {(q['set'], q['file']) for q in quads}
        print('  %-8s %4d quads on %3d stills, plain paper over paper %.2f to %.2f' % (kind, len(quads), len(stills),
                                                                                    min(shares), max(shares)))
    if args.list:
        for q in sorted(counted, key=lambda q: q['plain'] / q['paper']):
            ji = '-' if q['ji'] is None else '%.2f' % q['ji']
            print('%-14s %-44s paper %.3f plain %.3f (%.2f of it) piece %.2f bright %.2f deep %.3f JI %s' % (
                q['set'], q['file'][:44], q['paper'], q['plain'], q['plain'] / q['paper'], q['piece'], q['bright'],
                q['deep'], ji))


if __name__ == '__main__':
    main()
