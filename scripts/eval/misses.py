#!/usr/bin/python3
"""The stills a dev-sets.py run scored below a threshold: each one's JI and corner error, worst
first, and with --sheet a picture of them (the annotated quad in green, every quad found in red),
to look at before changing a rule or a model.

Usage: /usr/bin/python3 scripts/eval/misses.py [--accuracy high|low] [--below 0.9] [--sheet OUT.png]
                                               [--maps MODEL.onnx [--side N]] SET ...

  SET          a set's name, or a group, as dev-sets.py takes them (still sets only; a set must have
               been scored at that accuracy first: scripts/eval/dev-sets.py --accuracy high SET)
  --work D     dev-sets.py's work folder (default .build/dev-sets)
  --below J    list the stills whose JI is below J (default 0.9; 1.01 lists every still)
  --sheet F    also draw them, each scaled to --height pixels high, rows of --columns, into F (.png)
  --maps M     with --sheet, beside each still the page network M's maps of it as Focal's shim asks
               for them (the frame reduced to 160 pixels along its shorter side at .high, 96 at .low,
               its longer side kept near its proportions): page region red, outline green, corners blue
  --side N     with --maps, the network's input N pixels along the shorter side instead

Reads the score reports dev-sets.py keeps (WORK/predictions/ACCURACY/SET.score.json) and each set's
corners.json; runs nothing. Needs Debian's python3-opencv for --sheet.
"""
import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def dev_sets():
    """dev-sets.py as a module: its table of sets and how it picks them by name."""
    spec = importlib.util.spec_from_file_location('dev_sets', os.path.join(HERE, 'dev-sets.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def set_arguments(module, description, accuracy=True):
    """A parser with the arguments every still-set tool takes: SET ..., --work and, for the tools
    that read a run's reports or run focal (`accuracy`), --accuracy."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('sets', nargs='+')
    if accuracy:
        ap.add_argument('--accuracy', choices=('high', 'low'), default='high')
    ap.add_argument('--work', default=os.path.join(module.ROOT, '.build', 'dev-sets'))
    return ap


def still_sets(module, names, work, kinds=('stills',)):
    """(name, folder) of each still set among names (sets or groups, as dev-sets.py takes them);
    `kinds` ('stills', 'empty') the kinds of set of single frames to take."""
    for name in module.chosen(names):
        _, kind, spec = module.SETS[name]
        if kind in kinds:
            yield name, module.folder_of(name, spec, work)


def annotated_stills(script, name, folder, work):
    """The stills of a set made in `work` (its corners.json's entries), or exit saying how to make it."""
    truth = os.path.join(folder, 'corners.json')
    if not os.path.exists(truth):
        sys.exit('%s: %s is not made in %s: run scripts/eval/dev-sets.py --work %s %s first'
                 % (script, name, work, work, name))
    with open(truth) as f:
        return json.load(f)['stills']


def misses(name, folder, report, below):
    """(set, folder, file, JI, corner error, annotated quad, quads found) of each still below `below`."""
    with open(os.path.join(folder, 'corners.json')) as f:
        truth = {s['file']: s['quad'] for s in json.load(f)['stills']}
    with open(report) as f:
        stills = json.load(f)['stills']
    out = []
    for still in stills:
        if still['ji_image'] >= below:
            continue
        found = []
        with open(still['prediction_file']) as f:
            for frame in json.load(f)['frames']:
                found += [feature['corners'] for feature in frame['features']]
        out.append((name, folder, still['file'], still['ji_image'], still['corner_err_px'], truth[still['file']], found))
    return out


def network_input_size(width, height, side):
    """The input the shim gives the page network for a width × height frame (page_model.cpp's
    proportional_size): `side` along the shorter side, the longer one 1, 4/3 or 16/9 times it."""
    ratio = max(width, height) / min(width, height)
    kept = 1.0 if ratio < 1.2 else 4.0 / 3 if ratio < 1.55 else 16.0 / 9
    length = 32 * int(round(side * kept / 32))
    return (length, side) if width >= height else (side, length)


def maps_tile(net, image, side, shape):
    """The network's maps of image (BGR, full size) over a dimmed copy of it, at `shape` (h, w)."""
    import cv2
    import numpy as np
    size = network_input_size(image.shape[1], image.shape[0], side)
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    net.setInput(cv2.dnn.blobFromImage(small, 1.0, size, (0, 0, 0), False, False))
    maps = net.forward()[0]
    out = cv2.resize(image, (shape[1], shape[0]), interpolation=cv2.INTER_AREA).astype(np.float32) * 0.35
    for channel, (colour, gain) in enumerate([(2, 110), (1, 220), (0, 255)][:maps.shape[0]]):
        out[..., colour] += cv2.resize(maps[channel], (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR) * gain
    return np.clip(out, 0, 255).astype(np.uint8)


def sheet(rows, path, height, columns, maps=None, side=160):
    """Each miss drawn and labelled, in rows of `columns`, into `path`; with maps (a page network
    read by OpenCV's dnn), each beside the network's maps of it at input `side`."""
    import cv2
    import numpy as np
    tiles = []
    for name, folder, file, ji, _, quad, found in rows:
        image = cv2.imread(os.path.join(folder, file))
        if image is None:
            sys.exit('misses: cannot read %s' % os.path.join(folder, file))
        scale = height / image.shape[0]
        full = image
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        photo_width = image.shape[1]
        if maps is not None:
            image = np.hstack([image, maps_tile(maps, full, side, image.shape[:2])])
        def outline(corners, colour, thickness, across=0):
            points = (np.array(corners, np.float64) * scale + [across, 0]).round().astype(np.int32)
            cv2.polylines(image, [points.reshape(-1, 1, 2)], True, colour, thickness)
        for corners, colour in [(quad, (0, 200, 0))] + [(q, (0, 0, 255)) for q in found]:
            outline(corners, colour, 2)
        if maps is not None:  # the annotated quad over the maps too
            outline(quad, (255, 255, 255), 1, across=photo_width)
        label = '%s %s JI %.2f' % (name, file[:24], ji)
        cv2.putText(image, label, (5, height - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3)
        cv2.putText(image, label, (5, height - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1)
        tiles.append(image)
    width = max(t.shape[1] for t in tiles)
    tiles = [cv2.copyMakeBorder(t, 0, 0, 0, width - t.shape[1] + 4, cv2.BORDER_CONSTANT) for t in tiles]
    blank = np.zeros_like(tiles[0])
    tiles += [blank] * (-len(tiles) % columns)
    grid = np.vstack([np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)])
    if not cv2.imwrite(path, grid):
        sys.exit('misses: cannot write %s' % path)


def main():
    module = dev_sets()
    ap = set_arguments(module, __doc__)
    ap.add_argument('--below', type=float, default=0.9)
    ap.add_argument('--sheet')
    ap.add_argument('--height', type=int, default=320)
    ap.add_argument('--columns', type=int, default=5)
    ap.add_argument('--maps')
    ap.add_argument('--side', type=int)
    args = ap.parse_args()
    rows = []
    for name, folder in still_sets(module, args.sets, args.work):
        report = module.score_report(args.work, args.accuracy, name)
        if not os.path.exists(report):
            sys.exit('misses: %s has no score at .%s in %s: run scripts/eval/dev-sets.py --accuracy %s %s first'
                     % (name, args.accuracy, args.work, args.accuracy, name))
        rows += misses(name, folder, report, args.below)
    rows.sort(key=lambda row: row[3])
    for name, _, file, ji, error, _, found in rows:
        print('%-20s %-48s JI %.3f  corner error %6.1f px  %d found' % (name, file, ji, error or 0, len(found)))
    print('%d stills below %.2f at .%s' % (len(rows), args.below, args.accuracy))
    if args.sheet and rows:
        maps = None
        if args.maps:
            import cv2
            maps = cv2.dnn.readNetFromONNX(args.maps)
        side = args.side or (160 if args.accuracy == 'high' else 96)
        sheet(rows, args.sheet, args.height, args.columns, maps, side)


if __name__ == '__main__':
    main()
