#!/usr/bin/env python3
"""Training scenes for Focal's page detector: documents photographed on real surfaces.

Each sample is a SIZE×SIZE colour image of a scene and a two-channel target:
  channel 0  the whole page (amodal: also where a hand, a pen or the frame's edge hides it),
  channel 1  a band along each page's outline (it separates touching pages and pins the edges).

Scenes are composed from
  * backgrounds: real photos and material textures that Debian packages ship (wallpapers, game
    textures of wood, stone, fabric, metal, facades), plus plain desks of every shade, white included;
  * documents rendered here: text pages, tables, forms, receipts, ID-like cards, book pages, pages
    with pictures cut from the backgrounds;
  * a camera: perspective, roll, distance, pages partly out of frame, several pages, stacks;
  * what gets in the way: hands and fingers, cables, pens, mugs, other objects, cast shadows,
    glare, curl, defocus and motion blur, noise, JPEG;
  * frames with no document (a third), many with things that look like pages: screens, windows,
    whiteboards, tiles, boxes, signs, picture frames.

The held-out evaluation material is never read: see MODEL_CARD.md for what is excluded.

Usage: generate.py --out DIR --count N [--seed S] [--size 192] [--workers 2] [--extra P] [--crossing P]
                   [--stacking P] [--standing P] [--bleed P] [--picture-book P] [--dense P] [--windows P]
                   [--stack-top] [--scan P] [--white-sheet P] [--photo-print P] [--corners [--object-mask]]
With --extra P, each document is, with probability P, one of the kinds the first model misses most:
an ID card (front or back with its magnetic stripe), a card held up by a hand, or an open book
whose two pages are two pages. With --crossing P, a scene with documents gets, with probability P,
a cable or a pen lying across one of them and out over the desk. With --stacking P, a scene with
documents gets, with probability P, another page laid on one of them, turned and pushed off so that
the sheet below shows along one or two of its sides (a page on a stack of papers). With --standing
P, a scene with documents gets, with probability P, a cylinder or a box (or both) standing on one of
them near a side or corner, seen from above at an angle, hiding part of it, on a desk made pale in
half of them (a white sheet on a light desk under standing objects). With --bleed P, a rendered
page, table, form, picture page or book page gets, with probability P, a photograph printed over
part of it up to its edges (a band across it, a column down one side, a block off a corner), as on
a magazine page; the whole page stays the target. With --picture-book P, a document that is none of
--extra's kinds is, with probability P, a picture book's or a textbook's page (framed pictures in a
grid with captions, a heading band, a rule across the page); the whole page is the target. With
--dense P, a document that is none of those is, with probability P, a sheet printed edge to edge
in tiny type in two to four columns (a formula sheet, lecture notes), which, when it is the
scene's first page, fills the frame in most draws (a photo of a sheet taken up close). With
--windows P, a distractor is, with probability P, a window in a thin white frame with thin white
mullions onto a dark or coloured view, which the network took for a page. With
--stack-top, a scene whose pages are drawn as a stack (each laid on the one before, slightly
shifted) has only the top page as a document, the pages under it paper showing along its sides,
as --stacking's sheet below is; without it every page of the stack keeps its visible part as a
target, the opposite of what --stacking teaches (README.md, "Only a stack's top page"). With --scan
P, a scene is, with probability P, one page's scan or a scan app's crop: a page-shaped image that the
page fills, its sides on the image's border or just past it, nothing in view but the page. With
--white-sheet P, a scene is, with probability P, one light sheet (blank in three draws of ten) near
the middle of a pale desk, seen from above at an angle, with one or two tall objects (two in seven
draws of ten, each 12–32 % of the sheet's size across) standing on it near its sides and corners,
hiding parts of it, in a grey 4:3 frame (a white sheet under objects seen by a 640 × 480 camera);
the sheet stays whole in the targets. With --photo-print P, a document that is none of those is,
with probability P, a photographic print: a real photo on photo paper, most with a thin white
border, the whole print the target (no other kind draws one; the frame distractor is a photo behind
a dark mount). Without them (P = 0) the scenes are those of the first stage, draw for draw.
With --corners, a third map: a disc at each page's corners. With --object-mask as well, a fourth:
the objects standing on a page (--standing, --white-sheet) where they rise beyond it, which are
not page; train.py --object-weight counts them more (the network painted a cylinder's top beyond
the sheet's far side as page). The scenes are the same draw for draw with it or without.
Writes DIR/images.npy (N×S×S×3 uint8, BGR) and DIR/targets.npy (N×M×S×S uint8, 0/255; M maps).
"""
import argparse
import glob
import math
import os
import zipfile
from multiprocessing import Pool

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

SIZE = 192
WORK = 3  # scenes are composed at WORK×SIZE and reduced, so edges and text get real anti-aliasing

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
WALLPAPER_GLOBS = [
    "/usr/share/backgrounds/**/*.jpg", "/usr/share/backgrounds/**/*.png", "/usr/share/backgrounds/**/*.webp",
    "/usr/share/wallpapers/*/contents/images/*.jpg", "/usr/share/wallpapers/*/contents/images/*.png",
]
TEXTURE_PACK = "/usr/share/games/ufoai/base/0textures.pk3"
# Not a surface: skies, lights, decals and icons make poor desks and were left out of the pool.
TEXTURE_SKIP = ("tex_lights", "tex_sky", "tex_common", "tex_pics", "tex_alien", "tex_ufo", "tex_dropship")

WORDS = ("the of and to in is for on that with as by this are from at be or an it was which not have has "
         "report total invoice date amount page section figure table note account number payment customer "
         "order item quantity price description summary results analysis method data sample value review "
         "meeting project budget office request delivery address phone reference signature approved").split()

_backgrounds = None
_textures = None


def load_pools():
    global _backgrounds, _textures
    if _backgrounds is not None:
        return
    paths = sorted({p for g in WALLPAPER_GLOBS for p in glob.glob(g, recursive=True)})
    # Wallpapers ship in several sizes: keep the smallest copy of each picture.
    by_dir = {}
    for p in paths:
        key = os.path.dirname(p) if "/contents/images" in p else p
        by_dir.setdefault(key, []).append(p)
    _backgrounds = []
    for key, group in sorted(by_dir.items()):
        group.sort(key=os.path.getsize)
        im = cv2.imread(group[0], cv2.IMREAD_COLOR)
        if im is None:
            continue
        s = 900 / max(im.shape[:2])
        if s < 1:
            im = cv2.resize(im, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        _backgrounds.append(im)
    _textures = []
    if os.path.exists(TEXTURE_PACK):
        z = zipfile.ZipFile(TEXTURE_PACK)
        for name in sorted(z.namelist()):
            if not name.lower().endswith((".jpg", ".png")) or any(s in name for s in TEXTURE_SKIP):
                continue
            im = cv2.imdecode(np.frombuffer(z.read(name), np.uint8), cv2.IMREAD_COLOR)
            if im is None or min(im.shape[:2]) < 64:
                continue
            _textures.append(im)
    if not _backgrounds and not _textures:
        raise SystemExit("no background images: run scripts/install-deps.sh --train first")


def pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def font(rng, px, mono=False, bold=False):
    names = ["DejaVuSansMono-Bold.ttf" if bold else "DejaVuSansMono.ttf"] if mono else (
        ["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf"] if bold else
        ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansCondensed.ttf", "DejaVuSerifCondensed.ttf", "DejaVuSans-ExtraLight.ttf"])
    return ImageFont.truetype(os.path.join(FONT_DIR, pick(rng, names)), max(6, int(px)))


def sentence(rng, n):
    return " ".join(pick(rng, WORDS) for _ in range(n))


# ----------------------------------------------------------------------------------------- surfaces
def texture_crop(rng, w, h):
    """A w×h piece of a real photo or material texture, tiled where the source is small."""
    use_tex = _textures and (not _backgrounds or rng.random() < 0.55)
    src = pick(rng, _textures if use_tex else _backgrounds)
    scale = rng.uniform(0.6, 2.5) * max(w, h) / max(src.shape[:2]) if not use_tex else rng.uniform(1.0, 4.0)
    scale = max(scale, 0.15)
    im = cv2.resize(src, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    reps = (int(math.ceil(h / im.shape[0])) + 1, int(math.ceil(w / im.shape[1])) + 1)
    if reps[0] > 1 or reps[1] > 1:
        im = np.tile(im, (reps[0], reps[1], 1))
    y = int(rng.integers(0, im.shape[0] - h + 1))
    x = int(rng.integers(0, im.shape[1] - w + 1))
    out = im[y:y + h, x:x + w]
    if rng.random() < 0.5:
        out = cv2.flip(out, int(rng.integers(-1, 2)))
    return out.copy()


def plain_desk(rng, w, h):
    """A plain surface: any shade, white and light grey often (the hardest case for a white page)."""
    if rng.random() < 0.45:
        base = np.full(3, rng.uniform(170, 250)) + rng.normal(0, 6, 3)
    else:
        base = rng.uniform(0, 255, 3)
    im = np.empty((h, w, 3), np.float32)
    im[:] = base
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(0.5, 3))
    im += grain[..., None] * rng.uniform(2, 12)
    return np.clip(im, 0, 255).astype(np.uint8)


def background(rng, w, h):
    r = rng.random()
    if r < 0.3:
        bg = plain_desk(rng, w, h)
    else:
        bg = texture_crop(rng, w, h)
    if rng.random() < 0.3:  # a second surface: desk edge, a mat, a floor
        other = plain_desk(rng, w, h) if rng.random() < 0.5 else texture_crop(rng, w, h)
        poly = random_polygon(rng, w, h, rng.integers(3, 6), big=True)
        m = np.zeros((h, w), np.uint8)
        cv2.fillPoly(m, [poly], 255)
        bg = np.where(m[..., None] > 0, other, bg)
    return bg


def random_polygon(rng, w, h, n, big=False):
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = rng.uniform(0.4, 1.2) * max(w, h) if big else rng.uniform(0.05, 0.25) * max(w, h)
    angles = np.sort(rng.uniform(0, 2 * math.pi, n))
    pts = [(cx + r * rng.uniform(0.5, 1.0) * math.cos(a), cy + r * rng.uniform(0.5, 1.0) * math.sin(a)) for a in angles]
    return np.int32(pts)


# ---------------------------------------------------------------------------------------- documents
def paper_colour(rng, kind):
    if kind == "book":
        return np.array([rng.uniform(170, 215), rng.uniform(205, 235), rng.uniform(215, 245)])
    if rng.random() < 0.12:  # coloured paper
        c = rng.uniform(150, 255, 3)
        return c
    v = rng.uniform(215, 255)
    return np.array([v, v, v]) + rng.normal(0, 4, 3)


def render_document(rng, kind=None):
    """A flat document as an image; returns (image BGR uint8, kind)."""
    if kind is None:
        kind = pick(rng, ["page", "page", "page", "table", "form", "receipt", "card", "book", "picture", "blank"])
    if kind == "receipt":
        w, h = 300, int(300 * rng.uniform(1.8, 3.6))
    elif kind == "card":
        w, h = 428, 270
    elif kind == "book":
        w, h = 400, int(400 * rng.uniform(1.45, 1.65))
    else:
        w = 420
        h = int(w * pick(rng, [1.414, 1.294, 1.414, 1.25, 0.707, 1.0, 1.6]))
    paper = paper_colour(rng, kind)
    img = Image.new("RGB", (w, h), tuple(int(c) for c in paper[::-1]))
    d = ImageDraw.Draw(img)
    ink = tuple(int(v) for v in (rng.uniform(0, 90, 3) if rng.random() < 0.85 else rng.uniform(0, 200, 3)))
    margin = int(w * rng.uniform(0.05, 0.14))
    if kind == "card":
        if rng.random() < 0.8:  # printed background: gradient and a band
            arr = np.array(img).astype(np.float32)
            g = np.linspace(0, 1, w)[None, :, None] * rng.uniform(-60, 30, 3)[None, None, :]
            arr = np.clip(arr + g, 0, 255)
            img = Image.fromarray(arr.astype(np.uint8))
            d = ImageDraw.Draw(img)
        if rng.random() < 0.5:
            d.rectangle([0, 0, w, int(h * rng.uniform(0.1, 0.25))], fill=tuple(int(v) for v in rng.uniform(0, 255, 3)))
        if rng.random() < 0.7:
            ph = texture_crop(rng, int(w * 0.28), int(h * 0.5))
            img.paste(Image.fromarray(cv2.cvtColor(ph, cv2.COLOR_BGR2RGB)), (int(w * 0.05), int(h * 0.3)))
        y = int(h * 0.3)
        while y < h - 20:
            d.text((int(w * 0.38), y), sentence(rng, 2).upper(), font=font(rng, rng.uniform(11, 18)), fill=ink)
            y += int(rng.uniform(16, 30))
    elif kind == "blank":
        if rng.random() < 0.5:
            for y in range(margin, h - margin, int(rng.uniform(14, 24))):
                d.line([(margin // 2, y), (w - margin // 2, y)], fill=(200, 180, 160), width=1)
    elif kind == "picture":
        ph = texture_crop(rng, w - 2 * margin, int(h * rng.uniform(0.3, 0.7)))
        img.paste(Image.fromarray(cv2.cvtColor(ph, cv2.COLOR_BGR2RGB)), (margin, margin))
        y = margin + ph.shape[0] + 10
        while y < h - margin:
            d.text((margin, y), sentence(rng, 6), font=font(rng, 11), fill=ink)
            y += 16
    else:
        mono = kind == "receipt"
        px = rng.uniform(8, 15) if kind != "receipt" else rng.uniform(10, 16)
        f = font(rng, px, mono=mono)
        y = margin
        if rng.random() < 0.7:
            d.text((margin, y), sentence(rng, 3).title(), font=font(rng, px * rng.uniform(1.4, 2.4), bold=True), fill=ink)
            y += int(px * 3)
        while y < h - margin - px:
            r = rng.random()
            if kind in ("table", "form") and r < 0.35:
                rows, cols = int(rng.integers(2, 7)), int(rng.integers(2, 6))
                rh = int(px * 1.8)
                x0, x1 = margin, w - margin
                for i in range(rows + 1):
                    d.line([(x0, y + i * rh), (x1, y + i * rh)], fill=ink, width=1)
                for j in range(cols + 1):
                    xx = x0 + (x1 - x0) * j // cols
                    d.line([(xx, y), (xx, y + rows * rh)], fill=ink, width=1)
                if rng.random() < 0.5:
                    d.rectangle([x0, y, x1, y + rh], fill=tuple(int(v) for v in rng.uniform(120, 230, 3)))
                for i in range(rows):
                    for j in range(cols):
                        d.text((x0 + (x1 - x0) * j // cols + 3, y + i * rh + 2), pick(rng, WORDS), font=f, fill=ink)
                y += rows * rh + int(px * 2)
            elif r < 0.45 and kind != "receipt":
                y += int(px * 1.5)  # paragraph break
            else:
                indent = margin + (int(rng.uniform(0, w * 0.5)) if kind == "receipt" and rng.random() < 0.3 else 0)
                n = int(rng.integers(2, 12))
                d.text((indent, y), sentence(rng, n), font=f, fill=ink)
                if kind == "receipt" and rng.random() < 0.6:
                    d.text((w - margin - int(px * 4), y), "%d.%02d" % (rng.integers(1, 99), rng.integers(0, 99)), font=f, fill=ink)
                y += int(px * rng.uniform(1.3, 1.7))
    out = cv2.cvtColor(np.array(img), cv2.COLOR_RGB2BGR)
    if rng.random() < 0.15:  # a printed border or frame
        t = int(rng.integers(2, 10))
        cv2.rectangle(out, (margin // 2, margin // 2), (w - margin // 2, h - margin // 2), tuple(int(v) for v in rng.uniform(0, 200, 3)), t)
    return out, kind


def render_photo_print(rng):
    """A photographic print (--photo-print): a real photo or texture on photo paper, most with a thin
    white border (1-6 % of the short side), in a print's proportions (6 x 4, 7 x 5, 3 x 2, square),
    either way up. The whole print is the document; the frame distractor, a photo behind a dark
    mount, is not."""
    short = int(rng.integers(260, 340))
    long = int(short * pick(rng, [1.5, 1.4, 1.5, 1.0, 1.33]))
    w, h = (long, short) if rng.random() < 0.5 else (short, long)
    out = np.empty((h, w, 3), np.uint8)
    out[:] = np.clip(rng.uniform(225, 252) + rng.normal(0, 3, 3), 0, 255).astype(np.uint8)
    border = int(short * rng.uniform(0.01, 0.06)) if rng.random() < 0.8 else 0
    out[border:h - border, border:w - border] = texture_crop(rng, w - 2 * border, h - 2 * border)
    return out


def cartoon(rng, d, x0, y0, x1, y1):
    """A few figures of flat saturated colour in the box (x0, y0)-(x1, y1), as a children's book draws them."""
    w, h = x1 - x0, y1 - y0
    n = int(rng.integers(1, 6))
    for i in range(n):
        cx = x0 + w * (i + 0.5) / n + rng.uniform(-0.1, 0.1) * w / n
        bw = w / n * rng.uniform(0.25, 0.45)
        body = tuple(int(v) for v in rng.uniform(0, 255, 3))
        d.rectangle([cx - bw, y0 + h * 0.45, cx + bw, y0 + h * 0.8], fill=body)
        d.ellipse([cx - bw * 0.9, y0 + h * 0.15, cx + bw * 0.9, y0 + h * 0.47], fill=tuple(int(v) for v in rng.uniform(120, 255, 3)))
        d.rectangle([cx - bw * 0.8, y0 + h * 0.8, cx + bw * 0.8, y0 + h * 0.92], fill=tuple(int(v) for v in rng.uniform(0, 160, 3)))


def render_picture_book(rng):
    """A page of a picture book or a textbook (--picture-book): a coloured heading band, a grid of framed
    pictures with a caption under each, a rule or a second heading, and a few lines below. The network
    left such pages partly out of the page when it had learned to leave pictures and other sheets out."""
    w = 420
    h = int(w * rng.uniform(1.3, 1.5))
    paper = paper_colour(rng, "page")
    img = Image.new("RGB", (w, h), tuple(int(c) for c in paper[::-1]))
    d = ImageDraw.Draw(img)
    ink = tuple(int(v) for v in rng.uniform(0, 90, 3))
    margin = int(w * rng.uniform(0.04, 0.1))
    y = margin
    if rng.random() < 0.6:  # a heading band, often to the page's top edge
        top = 0 if rng.random() < 0.6 else margin // 2
        band = int(h * rng.uniform(0.04, 0.09))
        d.rectangle([0 if top == 0 else margin, top, w if top == 0 else w - margin, top + band], fill=tuple(int(v) for v in rng.uniform(0, 255, 3)))
        y = top + band + margin // 2
    d.text((margin, y), sentence(rng, 3).capitalize(), font=font(rng, rng.uniform(12, 18), bold=True), fill=ink)
    y += 28
    rows, cols = int(rng.integers(2, 4)), int(rng.integers(2, 4))
    gap = int(rng.uniform(8, 20))
    grid_h = int((h - y - margin) * rng.uniform(0.45, 0.7))
    cw, ch = (w - 2 * margin - (cols - 1) * gap) // cols, grid_h // rows
    panel_fill = tuple(int(v) for v in rng.uniform(170, 255, 3))
    frame = tuple(int(v) for v in rng.uniform(0, 255, 3))
    for r in range(rows):
        for c in range(cols):
            x0, y0 = margin + c * (cw + gap), y + r * ch
            x1, y1 = x0 + cw, y0 + ch - 18
            if rng.random() < 0.4:
                ph = texture_crop(rng, x1 - x0, y1 - y0)
                img.paste(Image.fromarray(cv2.cvtColor(ph, cv2.COLOR_BGR2RGB)), (x0, y0))
            else:
                d.rectangle([x0, y0, x1, y1], fill=panel_fill, outline=frame, width=int(rng.integers(1, 4)))
                cartoon(rng, d, x0 + 4, y0 + 4, x1 - 4, y1 - 4)
            d.text((x0 + cw // 4, y1 + 3), sentence(rng, 2).capitalize() + ".", font=font(rng, 11), fill=ink)
    y += rows * ch + gap
    if rng.random() < 0.7:  # a rule across the page, sometimes from edge to edge
        x0, x1 = (0, w) if rng.random() < 0.3 else (margin, w - margin)
        d.line([(x0, y), (x1, y)], fill=tuple(int(v) for v in rng.uniform(0, 255, 3)), width=int(rng.integers(1, 6)))
        y += 10
    d.text((margin, y), sentence(rng, 3).capitalize(), font=font(rng, rng.uniform(12, 16), bold=True), fill=ink)
    y += 24
    if rng.random() < 0.5:
        cartoon(rng, d, int(w * 0.6), y, w - margin, h - margin)
    while y < h - margin - 12:
        d.text((margin + int(rng.uniform(0, w * 0.15)), y), sentence(rng, int(rng.integers(2, 6))), font=font(rng, 12), fill=ink)
        y += 16
    return cv2.cvtColor(np.array(img), cv2.COLOR_RGB2BGR)


def render_dense_sheet(rng):
    """A sheet printed edge to edge in tiny type (--dense): a formula sheet, lecture notes or a
    newspaper page, two to four columns of small lines and formulas, rules between them, small
    diagrams and boxed results. At the network's scale the print is a grey texture all over the
    page, which it took for something other than paper where such a sheet filled the frame."""
    w = 420
    h = int(w * pick(rng, [1.414, 1.294, 1.414, 1.25]))
    paper = paper_colour(rng, "page")
    img = Image.new("RGB", (w, h), tuple(int(c) for c in paper[::-1]))
    d = ImageDraw.Draw(img)
    ink = tuple(int(v) for v in rng.uniform(0, 80, 3))
    margin = int(w * rng.uniform(0.015, 0.05))
    cols = int(rng.integers(2, 5))
    gap = int(rng.uniform(4, 10))
    cw = (w - 2 * margin - (cols - 1) * gap) // cols
    px = rng.uniform(5, 8)
    f, bold = font(rng, px), font(rng, px * 1.3, bold=True)
    ruled = rng.random() < 0.6
    for c in range(cols):
        x0 = margin + c * (cw + gap)
        if ruled and c > 0:
            d.line([(x0 - gap // 2, margin), (x0 - gap // 2, h - margin)], fill=ink, width=1)
        y = margin
        while y < h - margin - px:
            r = rng.random()
            if r < 0.08:  # a heading
                d.text((x0, y), sentence(rng, 2).upper(), font=bold, fill=ink)
                y += int(px * 1.8)
            elif r < 0.16:  # a small diagram or plot, sometimes boxed
                bh = int(rng.uniform(3, 7) * px)
                if y + bh > h - margin:
                    break
                if rng.random() < 0.5:
                    d.rectangle([x0 + 2, y, x0 + cw - 2, y + bh], outline=ink, width=1)
                pts = [(x0 + 4 + k * (cw - 8) / 6, y + bh * rng.uniform(0.15, 0.85)) for k in range(7)]
                d.line(pts, fill=ink, width=1)
                if rng.random() < 0.5:
                    d.ellipse([x0 + cw * 0.3, y + bh * 0.2, x0 + cw * 0.3 + bh * 0.6, y + bh * 0.8], outline=ink, width=1)
                y += bh + int(px)
            elif r < 0.24:  # a formula: symbols and a fraction bar
                d.text((x0 + cw * 0.15, y), " ".join(pick(rng, ["x", "=", "+", "(a)", "dx", "2", "n", "y"]) for _ in range(6)), font=f, fill=ink)
                d.line([(x0 + cw * 0.15, y + px * 1.2), (x0 + cw * 0.6, y + px * 1.2)], fill=ink, width=1)
                y += int(px * 2.6)
            else:
                d.text((x0, y), sentence(rng, int(rng.integers(3, 9))), font=f, fill=ink)
                y += int(px * rng.uniform(1.1, 1.4))
    return cv2.cvtColor(np.array(img), cv2.COLOR_RGB2BGR)


def filling_quad(rng, w, h, W, H):
    """Where a w×h page lands when it fills the frame (--dense): nearly upright and square-on, its
    sides a little inside or just beyond the frame's edges, as a photo of a sheet taken up close."""
    # a portrait sheet in a landscape frame is mostly photographed turned to fill it
    turned = (W > H) != (w > h) and rng.random() < 0.8
    aspect = w / h if turned else h / w
    pw = min(W, H / aspect) * rng.uniform(0.85, 1.05)
    ph = pw * aspect
    ang = rng.normal(0, 0.02)
    cx, cy = W / 2 + rng.normal(0, 0.02 * W), H / 2 + rng.normal(0, 0.02 * H)
    pts = turned_rectangle(pw, ph, ang) + np.array([cx, cy])
    if turned:  # the page's first corner (its top left) goes to the frame's top right or bottom left
        pts = np.roll(pts, 1 if rng.random() < 0.5 else -1, axis=0)
    pts += rng.normal(0, 0.01 * max(W, H), (4, 2))
    return pts.astype(np.float32)


def scan_quad(rng, W, H):
    """Where a page lands when the image is its scan or a scan app's crop (--scan): the whole frame, its
    sides on the image's border in a third of the draws, else each cut a little inside the page's own
    (the page runs on past every edge of the image, no side in view)."""
    inset = np.zeros(4) if rng.random() < 1 / 3 else rng.uniform(0.01, 0.06, 4)
    x0, y0, x1, y1 = -inset[0] * W, -inset[1] * H, W * (1 + inset[2]), H * (1 + inset[3])
    pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) + rng.normal(0, 0.003 * max(W, H), (4, 2))
    return pts.astype(np.float32)


def print_to_the_edge(rng, doc):
    """doc with a photograph printed over part of it up to its edges, as on a magazine page: a band
    across it, a column down one side, or a block off a corner (--bleed). The page stays the target."""
    h, w = doc.shape[:2]
    layout = pick(rng, ["band", "band", "column", "corner"])
    if layout == "band":
        ph = int(h * rng.uniform(0.3, 0.65))
        y = pick(rng, [0, h - ph, int(rng.integers(0, h - ph + 1))])
        x0, y0, x1, y1 = 0, y, w, y + ph
    elif layout == "column":
        pw = int(w * rng.uniform(0.35, 0.65))
        x0 = 0 if rng.random() < 0.5 else w - pw
        x0, y0, x1, y1 = x0, 0, x0 + pw, h
    else:
        pw, ph = int(w * rng.uniform(0.5, 0.9)), int(h * rng.uniform(0.45, 0.8))
        x0 = 0 if rng.random() < 0.5 else w - pw
        y0 = 0 if rng.random() < 0.5 else h - ph
        x1, y1 = x0 + pw, y0 + ph
    picture = texture_crop(rng, x1 - x0, y1 - y0)
    if rng.random() < 0.5:  # printed inks: often more saturated than the photo
        hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(1.2, 2.0) + rng.uniform(0, 60), 0, 255)
        picture = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    out = doc.copy()
    out[y0:y1, x0:x1] = picture
    return out


# ------------------------------------------------------------------ cards, book spreads (--extra)
def rounded_alpha(w, h, radius):
    """A w×h mask with its corners rounded by radius pixels (cards are cut so)."""
    m = np.zeros((h, w), np.uint8)
    r = int(radius)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def portrait(rng, w, h):
    """A passport-style photo: a plain backdrop, shoulders, a face and hair (or a real photo's crop)."""
    if rng.random() < 0.3:
        return texture_crop(rng, w, h)
    im = np.empty((h, w, 3), np.uint8)
    im[:] = rng.uniform(150, 250, 3)
    skin = tuple(skin_tone(rng))
    cv2.ellipse(im, (w // 2, h), (int(w * 0.48), int(h * 0.3)), 0, 0, 360, tuple(rng.uniform(0, 120, 3)), -1)
    cv2.ellipse(im, (w // 2, int(h * 0.42)), (int(w * 0.27), int(h * 0.27)), 0, 0, 360, tuple(rng.uniform(0, 90, 3)), -1)
    cv2.ellipse(im, (w // 2, int(h * 0.5)), (int(w * 0.22), int(h * 0.25)), 0, 0, 360, skin, -1)
    return im


def render_card(rng):
    """An ID-like card (85.6 × 54 mm), front or back: printed security patterns, a header band,
    portraits, chips, a watermark word, machine-readable lines; backs with a dark magnetic stripe,
    barcodes and a signature strip. Returns (image BGR uint8, alpha with rounded corners)."""
    w, h = 428, 270
    back = rng.random() < 0.4
    base = rng.uniform(205, 250, 3) if back or rng.random() < 0.4 else rng.uniform(120, 250, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img += np.linspace(0, 1, w, dtype=np.float32)[None, :, None] * rng.uniform(-50, 30, 3).astype(np.float32)
    if not back or rng.random() < 0.5:  # guilloche: fine waves of a second colour
        xs = np.arange(w, dtype=np.float32)
        colour = tuple(float(v) for v in np.clip(base + rng.uniform(-90, 20, 3), 0, 255))
        for _ in range(int(rng.integers(4, 16))):
            ys = rng.uniform(0, h) + rng.uniform(5, 45) * np.sin(xs / rng.uniform(40, 220) * 2 * math.pi + rng.uniform(0, 7))
            cv2.polylines(img, [np.int32(np.stack([xs, ys], 1))], False, colour, 1, cv2.LINE_AA)
    ink = tuple(int(v) for v in rng.uniform(0, 80, 3))
    boxes = []  # (image, x, y) pasted after the text
    if back:
        if rng.random() < 0.65:  # magnetic stripe
            y0 = int(h * rng.uniform(0.05, 0.14))
            img[y0:y0 + int(h * rng.uniform(0.15, 0.24))] = rng.uniform(5, 45)
        if rng.random() < 0.5:  # barcode
            x0, y0 = int(w * rng.uniform(0.04, 0.4)), int(h * rng.uniform(0.55, 0.75))
            x = x0
            while x < min(w - 10, x0 + w * 0.5):
                bw = int(rng.integers(1, 4))
                img[y0:y0 + int(h * 0.14), x:x + bw] = rng.uniform(0, 40)
                x += bw + int(rng.integers(1, 4))
        if rng.random() < 0.4:  # signature strip
            y0 = int(h * rng.uniform(0.4, 0.55))
            img[y0:y0 + int(h * 0.12), int(w * 0.05):int(w * 0.7)] = rng.uniform(225, 250)
        if rng.random() < 0.4:
            boxes.append((portrait(rng, int(w * 0.12), int(h * 0.22)), int(w * 0.83), int(h * 0.72)))
    else:
        if rng.random() < 0.6:  # header band
            img[:int(h * rng.uniform(0.12, 0.22))] = rng.uniform(0, 255, 3)
        if rng.random() < 0.8:
            boxes.append((portrait(rng, int(w * 0.28), int(h * 0.5)), int(w * 0.04), int(h * 0.3)))
        if rng.random() < 0.3:  # chip
            cv2.rectangle(img, (int(w * 0.07), int(h * 0.35)), (int(w * 0.2), int(h * 0.55)), (60, 170, 210), -1)
        if rng.random() < 0.3:
            boxes.append((portrait(rng, int(w * 0.1), int(h * 0.18)), int(w * 0.84), int(h * 0.6)))
    pil = Image.fromarray(cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2RGB))
    d = ImageDraw.Draw(pil)
    if not back and rng.random() < 0.7:
        d.text((int(w * 0.05), int(h * 0.04)), sentence(rng, 3).upper(), font=font(rng, rng.uniform(14, 22), bold=True),
               fill=tuple(int(v) for v in rng.uniform(0, 255, 3)))
    x = int(w * (0.38 if not back else 0.05))
    y = int(h * rng.uniform(0.26, 0.4))
    while y < h * (0.72 if rng.random() < 0.3 else 0.9):
        d.text((x, y), sentence(rng, int(rng.integers(1, 4))).upper(), font=font(rng, rng.uniform(10, 17)), fill=ink)
        y += int(rng.uniform(16, 30))
    if not back and rng.random() < 0.3:  # machine-readable zone
        for k in range(int(rng.integers(2, 4))):
            line = "".join(pick(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<<<<<") for _ in range(30))
            d.text((int(w * 0.04), int(h * 0.74) + k * 20), line, font=font(rng, 15, mono=True), fill=ink)
    out = cv2.cvtColor(np.array(pil), cv2.COLOR_RGB2BGR)
    for im, bx, by in boxes:
        out[by:by + im.shape[0], bx:bx + im.shape[1]] = im[:h - by, :w - bx]
    if rng.random() < 0.3:  # a watermark word across the card
        layer = Image.new("L", (w, h), 0)
        ImageDraw.Draw(layer).text((int(w * 0.2), int(h * 0.3)), pick(rng, WORDS).upper(), font=font(rng, 70, bold=True), fill=255)
        a = np.array(layer, np.float32)[..., None] / 255 * rng.uniform(0.3, 0.7)
        out = (out * (1 - a) + rng.uniform(60, 200, 3) * a).astype(np.uint8)
    return out, rounded_alpha(w, h, rng.uniform(0.02, 0.08) * w)


def render_spread(rng):
    """An open book: two pages side by side, shaded into the gutter. Returns (image, page width)."""
    left, _ = render_document(rng, "book")
    right, _ = render_document(rng, "book")
    right = cv2.resize(right, (left.shape[1], left.shape[0]))
    spread = np.hstack([left, right]).astype(np.float32)
    w = left.shape[1]
    x = np.arange(2 * w, dtype=np.float32)
    sigma = rng.uniform(8, 45)
    gutter = 1 - rng.uniform(0.15, 0.6) * np.exp(-((x - w) ** 2) / (2 * sigma * sigma))
    spread *= gutter[None, :, None]
    return np.clip(spread, 0, 255).astype(np.uint8), w


def split_spread(q, w, h):
    """The two pages' quads inside a spread's quad (the spread is 2w × h)."""
    M = cv2.getPerspectiveTransform(np.float32([[0, 0], [2 * w, 0], [2 * w, h], [0, h]]), q)
    def warp(points):
        return cv2.perspectiveTransform(np.float32(points)[None], M)[0]
    return warp([[0, 0], [w, 0], [w, h], [0, h]]), warp([[w, 0], [2 * w, 0], [2 * w, h], [w, h]])


def hold(rng, scene, q):
    """A hand holding the document up by one edge: palm and forearm outside it, the thumb across the edge."""
    H, W = scene.shape[:2]
    side = max(W, H)
    k = int(rng.integers(4))
    a, b = q[k].astype(np.float64), q[(k + 1) % 4].astype(np.float64)
    along = (b - a) / (np.linalg.norm(b - a) + 1e-6)
    p = a + rng.uniform(0.15, 0.85) * (b - a)
    out = p - q.mean(0)
    out /= np.linalg.norm(out) + 1e-6
    palm = p + out * rng.uniform(0.04, 0.1) * side
    over = np.zeros((H, W), np.uint8)
    r = int(rng.uniform(0.06, 0.11) * side)
    angle = math.degrees(math.atan2(out[1], out[0]))
    cv2.ellipse(over, tuple(np.int32(palm)), (int(r * rng.uniform(1.1, 1.6)), r), angle, 0, 360, 255, -1)
    cv2.line(over, tuple(np.int32(palm)), tuple(np.int32(palm + out * side)), 255, int(rng.uniform(0.1, 0.18) * side))
    tip = p - out * rng.uniform(0.02, 0.09) * side + along * rng.normal(0, 0.03) * side
    cv2.line(over, tuple(np.int32(palm)), tuple(np.int32(tip)), 255, int(rng.uniform(0.03, 0.05) * side))
    for _ in range(int(rng.integers(0, 3))):  # fingertips curled over the other side of the edge
        f = p + along * rng.normal(0, 0.05) * side
        cv2.circle(over, tuple(np.int32(f - out * 0.015 * side)), int(0.018 * side), 255, -1)
    paint_over(rng, scene, over, shaded_fill(rng, skin_tone(rng), W, H))


# ------------------------------------------------------------------------------------------ camera
def turned_rectangle(pw, ph, ang):
    """The corners of a pw×ph rectangle centred on the origin, turned by ang (radians), top left first."""
    base = np.array([[-pw / 2, -ph / 2], [pw / 2, -ph / 2], [pw / 2, ph / 2], [-pw / 2, ph / 2]])
    c, s = math.cos(ang), math.sin(ang)
    return base @ np.array([[c, s], [-s, c]])


def page_quad(rng, w, h, W, H, in_frame):
    """Where a w×h document lands in a W×H frame: a perspective view of it, as four corners."""
    aspect = h / w
    area = rng.uniform(0.08, 0.85) * W * H if in_frame else rng.uniform(0.3, 1.4) * W * H
    pw = math.sqrt(area / aspect)
    ph = pw * aspect
    ang = rng.uniform(-math.pi, math.pi) if rng.random() < 0.25 else rng.normal(0, 0.25)
    cx = rng.uniform(0.3, 0.7) * W if in_frame else rng.uniform(0.0, 1.0) * W
    cy = rng.uniform(0.3, 0.7) * H if in_frame else rng.uniform(0.0, 1.0) * H
    base = turned_rectangle(pw, ph, ang)
    # perspective: tilt about a random axis, as a camera looking down at an angle
    tilt = rng.uniform(0, 0.45)
    axis = rng.uniform(0, 2 * math.pi)
    dirv = np.array([math.cos(axis), math.sin(axis)])
    depth = 1 + tilt * (base @ dirv) / max(pw, ph)
    pts = base / depth[:, None] + np.array([cx, cy])
    pts += rng.normal(0, 0.01 * max(W, H), (4, 2))
    return pts.astype(np.float32)


def sheet_quad(rng, w, h, W, H):
    """Where --white-sheet's w×h sheet lands in a W×H frame: near the middle, 12–45 % of the frame,
    turned a little, its far side (upwards in the frame) narrower, as a camera looking down at it."""
    aspect = h / w
    pw = math.sqrt(rng.uniform(0.12, 0.45) * W * H / aspect)
    base = turned_rectangle(pw, pw * aspect, rng.normal(0, 0.2) + (math.pi / 2 if rng.random() < 0.3 else 0))
    axis = -math.pi / 2 + rng.uniform(-0.5, 0.5)
    depth = 1 + rng.uniform(0.15, 0.5) * (base @ np.array([math.cos(axis), math.sin(axis)])) / max(pw, pw * aspect)
    centre = np.array([rng.uniform(0.38, 0.62) * W, rng.uniform(0.4, 0.62) * H])
    return (base / depth[:, None] + centre + rng.normal(0, 0.008 * max(W, H), (4, 2))).astype(np.float32)


def inside_fraction(q, W, H):
    m = np.zeros((H, W), np.uint8)
    cv2.fillPoly(m, [np.int32(np.round(q))], 1)
    a = abs(cv2.contourArea(q.astype(np.float32)))
    return m.sum() / max(a, 1.0)


def place_document(rng, scene, target, doc, q, curl, alpha=None):
    H, W = scene.shape[:2]
    h, w = doc.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(src, q)
    warped = cv2.warpPerspective(doc, M, (W, H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
    own = np.full((h, w), 255, np.uint8) if alpha is None else alpha
    mask = cv2.warpPerspective(own, M, (W, H), flags=cv2.INTER_LINEAR)
    if curl:  # a bent or curled page: its shading changes across it
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        phase = rng.uniform(0, 2 * math.pi)
        shade = 1 - rng.uniform(0.05, 0.25) * (0.5 + 0.5 * np.sin(xx / w * rng.uniform(2, 6) + phase))
        shade_w = cv2.warpPerspective(shade, M, (W, H), flags=cv2.INTER_LINEAR, borderValue=1.0)
        warped = np.clip(warped.astype(np.float32) * shade_w[..., None], 0, 255).astype(np.uint8)
    a = mask.astype(np.float32)[..., None] / 255
    if rng.random() < 0.4:  # the page's own shadow on the desk
        off = rng.normal(0, 0.01 * W, 2)
        sh = cv2.warpAffine(mask, np.float32([[1, 0, off[0]], [0, 1, off[1]]]), (W, H))
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(2, 10)).astype(np.float32)[..., None] / 255
        scene[:] = np.clip(scene * (1 - rng.uniform(0.1, 0.5) * sh), 0, 255)
    scene[:] = scene * (1 - a) + warped.astype(np.float32) * a
    full = np.zeros((H, W), np.uint8)
    cv2.fillPoly(full, [np.int32(np.round(q * 8))], 255, lineType=cv2.LINE_8, shift=3)
    target.append(q)
    return full


# --------------------------------------------------------------------------------------- occluders
def skin_tone(rng):
    """A skin colour (BGR), for hands and portraits."""
    return np.array([rng.uniform(60, 190), rng.uniform(90, 200), rng.uniform(130, 240)])


def occlude(rng, scene):
    H, W = scene.shape[:2]
    kind = pick(rng, ["hand", "hand", "cable", "pen", "object", "mug", "object"])
    over = np.zeros((H, W), np.uint8)
    colour = rng.uniform(0, 255, 3)
    if kind == "hand":
        colour = skin_tone(rng)
        base = np.array([rng.uniform(0, W), rng.choice([0, H]) if rng.random() < 0.5 else rng.uniform(0, H)])
        ang = rng.uniform(0, 2 * math.pi)
        L = rng.uniform(0.15, 0.4) * max(W, H)
        for k in range(int(rng.integers(1, 5))):
            a = ang + rng.normal(0, 0.25)
            tip = base + L * rng.uniform(0.6, 1.0) * np.array([math.cos(a), math.sin(a)])
            cv2.line(over, tuple(np.int32(base)), tuple(np.int32(tip)), 255, int(rng.uniform(0.035, 0.06) * max(W, H)))
        cv2.circle(over, tuple(np.int32(base)), int(rng.uniform(0.08, 0.18) * max(W, H)), 255, -1)
    elif kind == "cable":
        colour = rng.uniform(0, 60, 3) if rng.random() < 0.6 else rng.uniform(180, 255, 3)
        pts = np.cumsum(rng.normal(0, 0.12 * max(W, H), (6, 2)), axis=0) + np.array([rng.uniform(0, W), rng.uniform(0, H)])
        cv2.polylines(over, [np.int32(pts)], False, 255, int(rng.uniform(0.008, 0.025) * max(W, H)), cv2.LINE_AA)
    elif kind == "pen":
        c = np.array([rng.uniform(0, W), rng.uniform(0, H)])
        a = rng.uniform(0, math.pi)
        L = rng.uniform(0.15, 0.35) * max(W, H)
        d = L / 2 * np.array([math.cos(a), math.sin(a)])
        cv2.line(over, tuple(np.int32(c - d)), tuple(np.int32(c + d)), 255, int(rng.uniform(0.012, 0.03) * max(W, H)))
    elif kind == "mug":
        c = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
        r = int(rng.uniform(0.08, 0.18) * max(W, H))
        cv2.circle(over, c, r, 255, -1)
    else:
        cv2.fillPoly(over, [random_polygon(rng, W, H, int(rng.integers(3, 8)))], 255)
    if rng.random() < 0.5 and kind in ("object", "mug", "pen"):
        fill = texture_crop(rng, W, H).astype(np.float32)
    else:
        fill = shaded_fill(rng, colour, W, H)
    paint_over(rng, scene, over, fill)


def lay_across(rng, scene, q):
    """A cable, a pen or a highlighter lying across the document q and on out over the desk: a
    thin line through a page, which is no page's edge (the page runs on under it). Cables run
    from one side to another, pens over one side; both stick out beyond the page."""
    H, W = scene.shape[:2]
    q = np.float64(q)
    centre = q.mean(axis=0)
    size = math.sqrt(abs(cv2.contourArea(np.float32(q))))
    i = int(rng.integers(4))
    a = q[i] + (q[(i + 1) % 4] - q[i]) * rng.uniform(0.15, 0.85)
    over = np.zeros((H, W), np.uint8)
    if rng.random() < 0.65:  # a cable, from one side (often the opposite one) to another
        j = (i + 2) % 4 if rng.random() < 0.7 else (i + 1 + 2 * int(rng.integers(2))) % 4
        b = q[j] + (q[(j + 1) % 4] - q[j]) * rng.uniform(0.15, 0.85)
        a = a + (a - centre) * rng.uniform(0.1, 0.8)
        b = b + (b - centre) * rng.uniform(0.1, 0.8)
        bend = (b - a)[::-1] * np.array([-1, 1]) * rng.normal(0, 0.15)
        m = (a + b) / 2 + bend
        t = np.linspace(0, 1, 60)[:, None]
        pts = (1 - t) ** 2 * a + 2 * (1 - t) * t * m + t * t * b
        width = rng.uniform(0.006, 0.022) * max(W, H)
        colour = rng.uniform(0, 60, 3) if rng.random() < 0.6 else rng.uniform(150, 255, 3)
        cv2.polylines(over, [np.int32(pts * 8)], False, 255, max(1, int(width)), cv2.LINE_AA, shift=3)
    else:  # a pen or a highlighter over a side, most of it on the page
        ang = math.atan2(*(centre - a)[::-1]) + rng.normal(0, 0.5)
        d = np.array([math.cos(ang), math.sin(ang)])
        L = rng.uniform(0.3, 0.7) * size
        start = a - d * L * rng.uniform(0.2, 0.45)
        width = rng.uniform(0.01, 0.03) * max(W, H)
        colour = rng.uniform(0, 255, 3)
        cv2.line(over, tuple(np.int32(start)), tuple(np.int32(start + d * L)), 255, max(1, int(width)), cv2.LINE_AA)
    paint_over(rng, scene, over, shaded_fill(rng, colour, W, H))


def shaded_fill(rng, colour, W, H):
    fill = np.empty((H, W, 3), np.float32)
    fill[:] = colour
    shade = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 0.05 * W)
    return fill * (1 + 4 * shade[..., None]).clip(0.6, 1.3)


def paint_over(rng, scene, over, fill):
    """Lays fill where over is set, with a soft shadow beside it."""
    H, W = scene.shape[:2]
    a = cv2.GaussianBlur(over, (0, 0), 1.0).astype(np.float32)[..., None] / 255
    if rng.random() < 0.6:  # its shadow
        off = rng.normal(0, 0.02 * W, 2)
        sh = cv2.warpAffine(over, np.float32([[1, 0, off[0]], [0, 1, off[1]]]), (W, H))
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(3, 15)).astype(np.float32)[..., None] / 255
        scene[:] = scene * (1 - rng.uniform(0.2, 0.6) * sh)
    scene[:] = scene * (1 - a) + fill * a


def white_framed_window(rng, w, h):
    """A window in a thin white frame, one to six panes between thin white mullions, onto a dark or
    coloured view: a photograph or texture darkened to 15–45 % or dimmed to 50–90 %, or flat saturated
    shapes on a dark ground (--windows). The network took such windows for pages: white lines all
    round and across, as a page's margins."""
    view = pick(rng, ["dark", "shapes", "dimmed"])
    if view == "shapes":
        pil = Image.fromarray(np.full((h, w, 3), rng.uniform(20, 90, 3)).astype(np.uint8))
        d = ImageDraw.Draw(pil)
        for _ in range(int(rng.integers(3, 9))):
            x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(15, 60)
            colour = tuple(int(v) for v in rng.uniform(60, 255, 3))
            if rng.random() < 0.5:
                d.ellipse([x - r, y - r, x + r, y + r], fill=colour)
            else:
                d.polygon([(x + r * math.cos(a), y + r * math.sin(a)) for a in rng.uniform(0, 2 * math.pi, 4)], fill=colour)
        img = np.array(pil).astype(np.float32)
    else:
        brightness = (0.15, 0.45) if view == "dark" else (0.5, 0.9)
        img = texture_crop(rng, w, h).astype(np.float32) * rng.uniform(*brightness)
    white = tuple(float(v) for v in np.full(3, rng.uniform(205, 250)) + rng.normal(0, 4, 3))
    frame = int(rng.uniform(0.015, 0.05) * w)
    bar = max(2, int(rng.uniform(0.01, 0.03) * w))
    cols, rows = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    for k in range(1, cols):
        x = int(w * k / cols)
        img[:, x - bar // 2:x + (bar + 1) // 2] = white
    for k in range(1, rows):
        y = int(h * k / rows)
        img[y - bar // 2:y + (bar + 1) // 2, :] = white
    img[:frame], img[-frame:], img[:, :frame], img[:, -frame:] = white, white, white, white
    return img


def distractor(rng, scene, windows=0.0):
    """Something rectangular that is not a document: a screen, a window, a whiteboard, tiles, a box, a sign."""
    H, W = scene.shape[:2]
    kind = pick(rng, ["screen", "window", "whiteboard", "tiles", "box", "sign", "frame", "keyboard"])
    if windows > 0 and rng.random() < windows:
        kind = "white-framed window"
    q = page_quad(rng, 400, int(400 * rng.uniform(0.4, 1.2)), W, H, in_frame=rng.random() < 0.6)
    w, h = 400, 300
    img = np.empty((h, w, 3), np.float32)
    if kind == "white-framed window":
        img = white_framed_window(rng, w, h)
    elif kind == "screen":
        img[:] = rng.uniform(0, 40)
        inner = texture_crop(rng, w - 30, h - 30) if rng.random() < 0.7 else np.full((h - 30, w - 30, 3), rng.uniform(150, 255), np.float32)
        img[15:h - 15, 15:w - 15] = inner
    elif kind == "window":
        img[:] = rng.uniform(150, 255, 3)
        sky = texture_crop(rng, w, h).astype(np.float32) * 0.6 + 100
        t = int(rng.integers(6, 20))
        for (y0, y1) in ((t, h // 2 - t // 2), (h // 2 + t // 2, h - t)):
            for (x0, x1) in ((t, w // 2 - t // 2), (w // 2 + t // 2, w - t)):
                img[y0:y1, x0:x1] = sky[y0:y1, x0:x1]
    elif kind == "whiteboard":
        img[:] = rng.uniform(215, 250)
        img[:8], img[-8:], img[:, :8], img[:, -8:] = 150, 150, 150, 150
        for _ in range(int(rng.integers(0, 6))):
            p = np.cumsum(rng.normal(0, 30, (8, 2)), 0) + [rng.uniform(40, w - 40), rng.uniform(40, h - 40)]
            cv2.polylines(img, [np.int32(p)], False, tuple(float(v) for v in rng.uniform(0, 200, 3)), 3)
    elif kind == "tiles":
        img[:] = rng.uniform(150, 255, 3)
        step = int(rng.integers(30, 90))
        grout = tuple(float(v) for v in rng.uniform(60, 200, 3))
        for x in range(0, w, step):
            cv2.line(img, (x, 0), (x, h), grout, 3)
        for y in range(0, h, step):
            cv2.line(img, (0, y), (w, y), grout, 3)
    elif kind == "box":
        img[:] = np.array([rng.uniform(60, 140), rng.uniform(110, 170), rng.uniform(150, 210)])
        cv2.line(img, (0, h // 2), (w, h // 2), (200, 200, 200), int(rng.integers(10, 30)))
    elif kind == "sign":
        img[:] = rng.uniform(0, 255, 3)
        d = font(rng, 60, bold=True)
        pil = Image.fromarray(img.astype(np.uint8))
        ImageDraw.Draw(pil).text((30, 100), sentence(rng, 1).upper(), font=d, fill=tuple(int(v) for v in rng.uniform(0, 255, 3)))
        img = np.array(pil).astype(np.float32)
    elif kind == "frame":
        img[:] = rng.uniform(20, 120, 3)
        img[25:h - 25, 25:w - 25] = texture_crop(rng, w - 50, h - 50)
    else:  # keyboard
        img[:] = rng.uniform(10, 60)
        for y in range(20, h - 40, 50):
            for x in range(15, w - 40, 42):
                img[y:y + 40, x:x + 36] = rng.uniform(30, 90)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(src, q)
    warped = cv2.warpPerspective(np.clip(img, 0, 255).astype(np.uint8), M, (W, H), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), M, (W, H)).astype(np.float32)[..., None] / 255
    scene[:] = scene * (1 - mask) + warped.astype(np.float32) * mask


# ------------------------------------------------------------------------------------------ the lens
def lighting(rng, scene):
    H, W = scene.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = ((xx - W / 2) * math.cos(a) + (yy - H / 2) * math.sin(a)) / max(W, H)
    light = 1 + rng.uniform(0, 0.5) * grad
    if rng.random() < 0.4:  # a cast shadow (a head, an arm, a phone)
        m = np.zeros((H, W), np.uint8)
        cv2.fillPoly(m, [random_polygon(rng, W, H, int(rng.integers(3, 7)), big=rng.random() < 0.5)], 255)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(2, 25)).astype(np.float32) / 255
        light *= 1 - rng.uniform(0.2, 0.6) * m
    scene *= light[..., None] * rng.uniform(0.55, 1.25)
    scene *= rng.uniform(0.85, 1.15, 3)[None, None, :]  # white balance
    if rng.random() < 0.2:  # glare
        c = (rng.uniform(0, W), rng.uniform(0, H))
        r = rng.uniform(0.03, 0.15) * W
        g = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * r * r))
        scene += (g * rng.uniform(60, 200))[..., None]


def degrade(rng, img):
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.6))
    if rng.random() < 0.2:  # motion blur
        k = int(rng.integers(3, 8))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2] = 1 / k
        M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        ker = cv2.warpAffine(ker, M, (k, k))
        img = cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6))
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def laid_on(rng, below):
    """Where a page laid on the quad below goes: that quad scaled by 0.75–1.0 and turned by up to
    15 degrees about its centre, then pushed 8–25 % of its size off towards a side."""
    centre = below.mean(0)
    size = math.sqrt(abs(cv2.contourArea(below)))
    turn, direction = math.radians(rng.uniform(-15, 15)), rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    q = (below - centre) @ np.array([[c, s], [-s, c]]) * rng.uniform(0.75, 1.0)
    return (q + centre + rng.uniform(0.08, 0.25) * size * np.array([math.cos(direction), math.sin(direction)])).astype(np.float32)


def standing_shadow(scene, polygon, strength):
    """Darkens scene under polygon, softly: the shadow an object standing on the desk casts."""
    H, W = scene.shape[:2]
    mask = np.zeros((H, W), np.float32)
    cv2.fillPoly(mask, [np.int32(np.round(polygon))], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(2.0, 0.012 * max(W, H)))
    scene[:] = scene * (1 - strength * mask[..., None])


def stand_on(rng, scene, q, sizes=(0.1, 0.22), both=0.5):
    """A cylinder or a box (or both, with probability `both`) standing on document q near a side or
    a corner, seen from above at an angle: it rises upwards in the frame and hides the page behind
    it. Each object's radius is `sizes` of the page's size. The page's targets stay whole (amodal),
    as under a hand. Returns where the objects were drawn (H×W, 255 on them), for --object-mask."""
    H, W = scene.shape[:2]
    drawn = np.zeros((H, W), np.uint8)
    q = np.float64(q)
    size_of_page = math.sqrt(abs(cv2.contourArea(np.float32(q))))
    spots = []
    for kind in (["cylinder", "box"] if rng.random() < both else [pick(rng, ["cylinder", "box"])]):
        k = int(rng.integers(4))
        spot = q[k] + (q[(k + 1) % 4] - q[k]) * rng.uniform(0.0, 0.8)
        spots.append((kind, spot + (q.mean(axis=0) - spot) * rng.uniform(0.05, 0.2)))
    for kind, base in sorted(spots, key=lambda s: s[1][1]):  # farther (higher in the frame) first
        size = rng.uniform(*sizes) * size_of_page
        height = rng.uniform(1.2, 2.5) * size
        colour = np.full(3, rng.uniform(120, 235)) if rng.random() < 0.6 else rng.uniform(40, 230, 3)
        if kind == "cylinder":
            squash = rng.uniform(0.35, 0.55)
            shadow = cv2.ellipse2Poly((int(base[0] + size), int(base[1])), (int(size * 1.6), int(size * squash * 1.3)), 0, 0, 360, 10)
            standing_shadow(scene, shadow, rng.uniform(0.2, 0.45))
            body = np.zeros((H, W), np.uint8)
            cv2.ellipse(body, (int(base[0]), int(base[1])), (int(size), int(size * squash)), 0, 0, 180, 255, -1)
            cv2.rectangle(body, (int(base[0] - size), int(base[1] - height)), (int(base[0] + size), int(base[1])), 255, -1)
            xs = np.arange(W, dtype=np.float32)
            shade = 0.55 + 0.45 * np.clip(np.cos((xs - base[0] + size * rng.uniform(-0.6, 0.6)) / size * 1.3), 0, 1)
            lit = shade[None, :, None] * colour[None, None, :]
            scene[:] = np.where(body[..., None] > 0, lit, scene)
            cv2.ellipse(scene, (int(base[0]), int(base[1] - height)), (int(size), int(size * squash)), 0, 0, 360,
                        tuple(float(v) for v in np.clip(colour * 1.05, 0, 255)), -1, cv2.LINE_AA)
            drawn |= body
            cv2.ellipse(drawn, (int(base[0]), int(base[1] - height)), (int(size), int(size * squash)), 0, 0, 360, 255, -1)
        else:
            a = rng.uniform(0, math.pi / 2)
            foot = np.array([[math.cos(a + j * math.pi / 2), 0.5 * math.sin(a + j * math.pi / 2)] for j in range(4)]) * size + base
            standing_shadow(scene, np.vstack([foot, foot + [size * 1.2, 0]]), rng.uniform(0.2, 0.45))
            roof = foot - [0, height]
            lowest = int(np.argmax(foot[:, 1]))  # the foot corner nearest the camera: its two faces show
            for neighbour, shade in (((lowest + 1) % 4, 0.75), ((lowest + 3) % 4, 0.6)):
                face = np.array([foot[lowest], foot[neighbour], roof[neighbour], roof[lowest]])
                cv2.fillPoly(scene, [np.int32(np.round(face))], tuple(float(v) for v in colour * shade), cv2.LINE_AA)
                cv2.fillPoly(drawn, [np.int32(np.round(face))], 255)
            cv2.fillPoly(scene, [np.int32(np.round(roof))], tuple(float(v) for v in colour * 0.95), cv2.LINE_AA)
            cv2.fillPoly(drawn, [np.int32(np.round(roof))], 255)
    return drawn


def lay_page_on(rng, scene, quads, masks):
    """Lays a rendered page on one of quads. The sheet below is no longer a document to find, only
    paper showing along the laid page's sides (a page on a stack of papers is the page on top): its
    mask and quad leave the targets, and the other masks lose what the laid page covers."""
    H, W = scene.shape[:2]
    index = int(rng.integers(len(quads)))
    doc, _ = render_document(rng)
    for _try in range(20):
        q = laid_on(rng, quads[index])
        if abs(cv2.contourArea(q)) >= 0.02 * W * H and inside_fraction(q, W, H) >= 0.6:
            break
    else:
        return masks
    full = place_document(rng, scene, quads, doc, q, curl=rng.random() < 0.3)
    del quads[index]
    return [np.where(full > 0, 0, m).astype(np.uint8) for i, m in enumerate(masks) if i != index] + [full]


def sample(seed, size=SIZE, extra=0.0, crossing=0.0, corners=False, stacking=0.0, standing=0.0, bleed=0.0, picture_book=0.0, dense=0.0, windows=0.0, stack_top=False, scan=0.0, white_sheet=0.0, photo_print=0.0, object_mask=False):
    rng = np.random.default_rng(seed)
    load_pools()
    # --scan: the image is one page's scan, filling it: a page's proportions, one document, nothing standing on it
    scanned = scan > 0 and rng.random() < scan
    # --white-sheet: one light sheet on a pale desk under tall objects, seen by a grey 4:3 camera
    white = white_sheet > 0 and not scanned and rng.random() < white_sheet
    # frames are landscape or portrait, squeezed to a square as the detector squeezes them
    W0, H0 = (16, 9) if rng.random() < 0.6 else (9, 16)
    if rng.random() < 0.15:
        W0, H0 = (4, 3) if rng.random() < 0.5 else (3, 4)
    if scanned:
        W0, H0 = (10, 14) if rng.random() < 0.8 else (14, 10)
    if white:
        W0, H0 = (4, 3) if rng.random() < 0.85 else (3, 4)
    scale = WORK * size / max(W0, H0)
    W, H = int(round(W0 * scale)), int(round(H0 * scale))
    scene = background(rng, W, H).astype(np.float32)
    # --standing: objects standing on a page, on a desk made pale in half of these scenes
    stands = white or (standing > 0 and rng.random() < standing and not scanned)
    if stands and (white or rng.random() < 0.5):
        grey = scene.mean(axis=2, keepdims=True)
        scene = np.clip(rng.uniform(175, 215) + (grey - grey.mean()) * (rng.uniform(5, 15) / max(float(grey.std()), 1)), 0, 255)
        scene = np.repeat(scene, 3, axis=2).astype(np.float32)
    for _ in range(int(rng.integers(0, 3))):
        if rng.random() < 0.6:
            distractor(rng, scene, windows)
    quads, masks = [], []
    r = rng.random()
    n_pages = 1 if scanned or white else 0 if r < 0.3 else (1 if r < 0.85 else int(rng.integers(2, 4)))
    stacked = n_pages > 1 and rng.random() < 0.4
    top_of_stack = 0  # with stack_top, where the last page laid (the stack's top) begins in quads and masks
    for i in range(n_pages):
        # --extra: ID cards (some held up by a hand) and open books, which the first stage lacks
        special = pick(rng, ["card", "card", "spread", "held"]) if extra > 0 and rng.random() < extra and not white else None
        alpha = None
        if white and rng.random() < 0.3:  # a blank sheet: paper-white, its fibres faint
            doc = np.clip(rng.uniform(225, 250) + rng.normal(0, 2, (297 * 2, 210 * 2, 1)), 0, 255).astype(np.uint8)
            doc = np.repeat(doc, 3, axis=2) if rng.random() < 0.5 else np.ascontiguousarray(np.rot90(np.repeat(doc, 3, axis=2)))
        elif special in ("card", "held"):
            doc, alpha = render_card(rng)
        elif special == "spread":
            doc, page_width = render_spread(rng)
        elif picture_book > 0 and rng.random() < picture_book:
            doc = render_picture_book(rng)
        elif dense > 0 and rng.random() < dense:
            doc, special = render_dense_sheet(rng), "dense"
        elif photo_print > 0 and rng.random() < photo_print:
            doc = render_photo_print(rng)
        else:
            doc, kind = render_document(rng)
            # --bleed: a photograph printed to the page's edges, which the network left out of the page
            if bleed > 0 and kind in ("page", "table", "form", "picture", "book") and rng.random() < bleed:
                doc = print_to_the_edge(rng, doc)
        h, w = doc.shape[:2]
        for _try in range(20):
            if scanned:
                q = scan_quad(rng, W, H)
                break
            if special == "dense" and not quads and rng.random() < 0.6:
                q = filling_quad(rng, w, h, W, H)
            elif stacked and quads:
                q = quads[-1] + rng.normal(0, 0.04 * W, 2).astype(np.float32) + rng.normal(0, 0.01 * W, (4, 2)).astype(np.float32)
            elif white:
                q = sheet_quad(rng, w, h, W, H)
            else:
                q = page_quad(rng, w, h, W, H, in_frame=rng.random() < 0.85)
            if abs(cv2.contourArea(q)) < 0.02 * W * H or inside_fraction(q, W, H) < 0.35:
                continue
            if not stacked and any(cv2.intersectConvexConvex(q, o)[0] > 0.02 * W * H for o in quads):
                continue
            break
        else:
            continue
        top_of_stack = len(quads)
        full = place_document(rng, scene, quads, doc, q, curl=rng.random() < 0.3, alpha=alpha)
        # a page laid on top hides what is below it: the lower masks lose that area
        masks = [np.where(full > 0, 0, m).astype(np.uint8) for m in masks]
        if special == "spread":  # each page of the book is a page: the gutter is an outline
            quads.pop()
            for half in split_spread(q, page_width, h):
                one = np.zeros_like(full)
                cv2.fillPoly(one, [np.int32(np.round(half * 8))], 255, lineType=cv2.LINE_8, shift=3)
                masks.append(one)
                quads.append(half)
        else:
            masks.append(full)
        if special == "held":
            hold(rng, scene, q)
    # --stack-top: the pages under a stack's top one are paper showing along its sides, as under
    # --stacking's laid page, not documents (without it each keeps its visible part as a target)
    if stack_top and stacked:
        quads, masks = quads[top_of_stack:], masks[top_of_stack:]
    # --stacking: a page on a stack of papers, turned and pushed off the sheet below it
    if stacking > 0 and quads and not scanned and rng.random() < stacking:
        masks = lay_page_on(rng, scene, quads, masks)
    for _ in range(int(rng.integers(0, 4)) if rng.random() < 0.6 else 0):
        occlude(rng, scene)
    # --crossing: a cable or a pen across a document, which the network took for a page's edge
    if crossing > 0 and quads and not scanned and rng.random() < crossing:
        lay_across(rng, scene, quads[int(rng.integers(len(quads)))])
    standing_objects = None
    if stands and quads:
        if white:  # taller and wider objects than on a desk's pages, most often two, hiding corners
            standing_objects = stand_on(rng, scene, quads[0], sizes=(0.12, 0.32), both=0.7)
        else:
            standing_objects = stand_on(rng, scene, quads[int(rng.integers(len(quads)))])
    lighting(rng, scene)
    img = degrade(rng, scene)
    if white:  # a grey camera's frame
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    sx, sy = size / W, size / H
    page = np.zeros((size, size), np.uint8)
    edge = np.zeros((size, size), np.uint8)
    for m, q in zip(masks, quads):
        small = cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)
        page = np.maximum(page, np.where(small >= 128, 255, 0).astype(np.uint8))
    for q in quads:
        qs = np.int32(np.round(q * np.array([sx, sy]) * 8))
        cv2.polylines(edge, [qs], True, 255, 2, cv2.LINE_8, shift=3)
    # only the visible part of an outline is a target: a lower page's outline under an upper page is not
    if len(quads) > 1:
        top = np.zeros((size, size), np.uint8)
        for i in range(len(quads) - 1, -1, -1):
            qs = np.int32(np.round(quads[i] * np.array([sx, sy]) * 8))
            one = np.zeros((size, size), np.uint8)
            cv2.polylines(one, [qs], True, 255, 2, cv2.LINE_8, shift=3)
            if i < len(quads) - 1:
                edge = np.where((one > 0) & (top > 0) & (cv2.erode(top, np.ones((3, 3), np.uint8)) > 0), 0, edge).astype(np.uint8)
            fill = np.zeros((size, size), np.uint8)
            cv2.fillPoly(fill, [qs], 255, shift=3)
            top = np.maximum(top, fill)
    if not corners:
        return img, np.stack([page, edge])
    maps = [page, edge, corner_spots(quads, size, sx, sy)]
    if object_mask:  # --object-mask: what stands on a page and rises beyond it, where the page map is not page
        objects = np.zeros((size, size), np.uint8)
        if standing_objects is not None:
            objects = cv2.resize(standing_objects, (size, size), interpolation=cv2.INTER_AREA)
            objects = np.where((objects >= 128) & (page == 0), 255, 0).astype(np.uint8)
        maps.append(objects)
    return img, np.stack(maps)


def corner_spots(quads, size, sx, sy):
    """--corners: a disc at each page's corners inside the frame, also where something lies over them
    (like the page map, amodal), for a head that places corners where the sides bow or fade."""
    spot = np.zeros((size, size), np.uint8)
    for q in quads:
        for x, y in q * np.array([sx, sy]):
            if 0 <= x < size and 0 <= y < size:
                cv2.circle(spot, (int(round(x * 8)), int(round(y * 8))), 3 * 8, 255, -1, cv2.LINE_8, shift=3)
    return spot


def _job(args):
    return sample(*args)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=24000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=SIZE)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--preview", type=int, default=0, help="also write a sheet of the first N samples")
    ap.add_argument("--extra", type=float, default=0.0,
                    help="chance that a document is an ID card (front or back, some held by a hand) or an open book, "
                         "for fine-tuning (0: the committed model's scenes, draw for draw)")
    ap.add_argument("--crossing", type=float, default=0.0,
                    help="chance that a scene with documents gets a cable or a pen lying across one of them "
                         "(0: no such draw, as before)")
    ap.add_argument("--stacking", type=float, default=0.0,
                    help="chance that a scene with documents gets another page laid on one of them, turned and "
                         "pushed off (0: no such draw, as before)")
    ap.add_argument("--standing", type=float, default=0.0,
                    help="chance that a scene with documents gets a cylinder or a box standing on one of them, "
                         "half on a pale desk (0: no such draw, as before)")
    ap.add_argument("--bleed", type=float, default=0.0,
                    help="chance that a rendered page gets a photograph printed over part of it up to its edges "
                         "(0: no such draw, as before)")
    ap.add_argument("--picture-book", type=float, default=0.0,
                    help="chance that a page is a picture book's or a textbook's: framed pictures in a grid with "
                         "captions, a heading band and a rule (0: no such draw, as before)")
    ap.add_argument("--dense", type=float, default=0.0,
                    help="chance that a page is a sheet printed edge to edge in tiny type in columns, most of them "
                         "filling the frame (0: no such draw, as before)")
    ap.add_argument("--windows", type=float, default=0.0,
                    help="chance that a distractor is a window in a thin white frame, with thin white mullions, onto "
                         "a dark or coloured view (0: no such draw, as before)")
    ap.add_argument("--stack-top", action="store_true",
                    help="in the scenes whose pages are drawn as a stack, only the top page is a document, the ones "
                         "under it paper (without it, every page of the stack is one, as before)")
    ap.add_argument("--scan", type=float, default=0.0,
                    help="chance that a scene is one page's scan filling the image, no side in view or its sides on "
                         "the image's border (0: no such draw, as before)")
    ap.add_argument("--white-sheet", type=float, default=0.0,
                    help="chance that a scene is one light sheet (blank in a third) on a pale desk with one or two tall "
                         "objects standing on it near its sides and corners, seen by a grey 4:3 camera")
    ap.add_argument("--photo-print", type=float, default=0.0,
                    help="chance that a page that is none of the other kinds is a photographic print, most with a "
                         "thin white border (0: no such draw, as before)")
    ap.add_argument("--corners", action="store_true",
                    help="a third target map, a disc at each page corner (without it, two maps, as before)")
    ap.add_argument("--object-mask", action="store_true",
                    help="with --corners, a fourth map: the objects standing on a page where they rise beyond it "
                         "(not page), which train.py weighs more (without it, three maps, as before)")
    a = ap.parse_args()
    if a.object_mask and not a.corners:
        ap.error("--object-mask needs --corners: it is the fourth map")
    os.makedirs(a.out, exist_ok=True)
    cv2.setNumThreads(1)
    jobs = [(a.seed * 1_000_003 + i, a.size, a.extra, a.crossing, a.corners, a.stacking, a.standing, a.bleed, a.picture_book, a.dense, a.windows, a.stack_top, a.scan, a.white_sheet, a.photo_print, a.object_mask) for i in range(a.count)]
    images = np.lib.format.open_memmap(os.path.join(a.out, "images.tmp.npy"), "w+", np.uint8, (a.count, a.size, a.size, 3))
    targets = np.lib.format.open_memmap(os.path.join(a.out, "targets.tmp.npy"), "w+", np.uint8, (a.count, (4 if a.object_mask else 3) if a.corners else 2, a.size, a.size))
    with Pool(a.workers, initializer=load_pools) as pool:
        for i, (img, tgt) in enumerate(pool.imap(_job, jobs, chunksize=16)):
            images[i], targets[i] = img, tgt
            if (i + 1) % 2000 == 0:
                print("%d / %d" % (i + 1, a.count), flush=True)
    images.flush(), targets.flush()
    del images, targets
    os.replace(os.path.join(a.out, "images.tmp.npy"), os.path.join(a.out, "images.npy"))
    os.replace(os.path.join(a.out, "targets.tmp.npy"), os.path.join(a.out, "targets.npy"))
    if a.preview:
        im = np.load(os.path.join(a.out, "images.npy"), mmap_mode="r")
        tg = np.load(os.path.join(a.out, "targets.npy"), mmap_mode="r")
        tiles = []
        for i in range(a.preview):
            v = im[i].copy()
            v[tg[i, 0] > 0] = (v[tg[i, 0] > 0] * 0.6 + np.array([0, 90, 0])).astype(np.uint8)
            v[tg[i, 1] > 0] = (0, 0, 255)
            tiles.append(np.hstack([im[i], v]))
        cols = 4
        while len(tiles) % cols:
            tiles.append(np.zeros_like(tiles[0]))
        cv2.imwrite(os.path.join(a.out, "preview.jpg"), np.vstack([np.hstack(tiles[r:r + cols]) for r in range(0, len(tiles), cols)]))


if __name__ == "__main__":
    main()
