#!/usr/bin/env python3
# Frames of the evaluation generator's clips as still images, for measuring the detector on video
# frames read one at a time, as a still (development only, not used by tests): every sixth frame
# that shows exactly one document, decoded by ffmpeg to OUT/clipNN_KK.png, with its corners in
# OUT/corners.json, to score with ../shared/eval/score.py --gt OUT/corners.json --pred P after
# focal detect on each PNG.
# Usage: clip-stills.py SET OUT      (SET: a make_set.py or facade-clips.py output; needs ffmpeg)
import glob, json, os, subprocess, sys
from collections import Counter

source, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
stills = []
for truth_path in sorted(glob.glob(os.path.join(source, 'clip*.json'))):
    name = os.path.basename(truth_path)[:-5]
    truth = json.load(open(truth_path))
    documents = Counter(f['index'] for f in truth['frames'] if f.get('corners'))
    corners = {f['index']: f['corners'] for f in truth['frames'] if f.get('corners')}
    chosen = sorted(i for i in documents if documents[i] == 1)[::6]
    select = '+'.join(f'eq(n\\,{i})' for i in chosen)
    subprocess.run(['ffmpeg', '-loglevel', 'error', '-y', '-i', os.path.join(source, name + '.mp4'), '-vf',
                    f"select='{select}'", '-vsync', '0', os.path.join(out, name + '_%02d.png')], check=True)
    for k, i in enumerate(chosen):
        stills.append({'file': f'{name}_{k + 1:02d}.png', 'quad': corners[i], 'width': truth['width'],
                       'height': truth['height']})
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'))
print(f'{len(stills)} stills in {out}')
