# Segment-level ground truth for ../shared/eval clips (development only, not used by tests): each
# rendered line is split where the rendered page (SRC/pages) shows an ink-free gap wider than K line
# heights; lines from real scans stay whole. Usage: segment-ground-truth.py SRC_SET DST_SET [K]
import json, sys, os, cv2, numpy as np
src, dst = sys.argv[1], sys.argv[2]
k = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
os.makedirs(dst, exist_ok=True)
splits = 0
for name in os.listdir(src):
    path = os.path.join(src, name)
    if not name.endswith('.json'):
        if not os.path.exists(os.path.join(dst, name)): os.symlink(path, os.path.join(dst, name))
        continue
    d = json.load(open(path))
    for doc in d['documents']:
        page = cv2.imread(os.path.join(src, 'pages', doc['doc'] + '.jpg'), cv2.IMREAD_GRAYSCALE)
        H = np.array(d['frames'][doc['sharpest_frame']]['H_page_to_frame'], float).reshape(3, 3)
        lines, projected = [], []
        for line, quad in zip(doc['text_lines'], doc['text_lines_in_sharpest_frame']):
            x0, y0, x1, y1 = line['bbox']
            if line['source'] != 'rendered' or not line.get('text') or '  ' not in line['text'].strip():
                lines.append(line); projected.append(quad); continue
            crop = page[y0:y1, x0:x1].astype(np.float32)
            paper = np.percentile(crop, 90)
            ink = (crop < paper - 0.35 * max(paper - crop.min(), 1)).any(axis=0)
            cols = np.flatnonzero(ink)
            pieces, start, prev = [], cols[0], cols[0]
            for c in cols[1:]:
                if c - prev - 1 > k * (y1 - y0):
                    pieces.append((start, prev + 1)); start = c
                prev = c
            pieces.append((start, prev + 1))
            splits += len(pieces) > 1
            for a, b in pieces:
                a, b = x0 + a, x0 + b
                lines.append(dict(line, bbox=[int(a), y0, int(b), y1]))
                pts = np.array([[a, y0, 1], [b, y0, 1], [b, y1, 1], [a, y1, 1]], float) @ H.T
                projected.append((pts[:, :2] / pts[:, 2:]).round(2).tolist())
        doc['text_lines'], doc['text_lines_in_sharpest_frame'] = lines, projected
    json.dump(d, open(os.path.join(dst, name), 'w'))
print('lines split:', splits)
