#!/usr/bin/env python3
# White sheets on a pale desk with a cylinder and a box standing on them, seen by a grey 640 × 480
# camera looking down at an angle, for measuring the detector where objects stand on the page and
# hide parts of it (development only, not used by tests). The sheets are the real pages of the phone
# photos (Tests/FocalTests/Resources/phone_photos, group "page"), flattened by their annotated
# corners and laid in perspective; the desk is one of Debian's ufoai-textures (concrete, plaster,
# wood; GPL-2+ / CC-BY(-SA) 3.0, installed by `scripts/install-deps.sh --train`), lifted to a pale
# grey; the objects are drawn shaded, with soft shadows, standing on the sheet near its sides and
# corners, so that they hide a corner or part of a side. Writes OUT/standingNN.png and
# OUT/corners.json (the sheet's four corners, also where hidden), to score with
# ../shared/eval/score.py --gt OUT/corners.json --pred P after focal detect on each PNG.
# With DESK=noise the desk is smooth noise made here instead of a texture (the same scenes otherwise),
# so that scenes can be kept among the tests without a third party's texture (Tests/FocalTests/
# Resources/standing_objects).
# Usage: [BLANK=1] [DESK=noise] standing-objects.py OUT SEED COUNT
#        (needs numpy and opencv-python; BLANK=1: blank sheets)
import json, os, sys, zipfile
import cv2
import numpy as np

from photos import PHONE_PHOTOS, flattened

out, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
BLANK = os.environ.get("BLANK") == "1"  # BLANK=1: blank white sheets instead of the phone photos' pages
NOISE_DESK = os.environ.get("DESK") == "noise"  # DESK=noise: a desk of smooth noise, no texture read
rng = np.random.default_rng(seed)
PACK = "/usr/share/games/ufoai/base/0textures.pk3"
DESKS = ["tex_ctp1/concrete_g_5.jpg", "tex_ctp1/concrete_g_10.jpg", "tex_trak/trak4_plaster3c-3.png",
         "tex_buildings/concrete007.png"]
WIDTH, HEIGHT = 640, 480
if not NOISE_DESK and not os.path.exists(PACK):
    sys.exit('standing-objects.py: no ' + PACK + '; run scripts/install-deps.sh --train')
pages = [flattened(cv2.imread(os.path.join(PHONE_PHOTOS, s['file'])), s['quad'])
         for s in json.load(open(os.path.join(PHONE_PHOTOS, 'corners.json')))['stills'] if s['group'] == 'page']
if NOISE_DESK:
    desks = [None] * len(DESKS)
else:
    with zipfile.ZipFile(PACK) as pack:
        desks = [cv2.imdecode(np.frombuffer(pack.read("textures/" + d), np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
                 for d in DESKS]
os.makedirs(out, exist_ok=True)


def desk(n):
    """A pale desk (mean 185–215, its texture's relief kept faint) under light falling off across it."""
    texture = desks[rng.integers(len(desks))]
    if texture is None:  # DESK=noise, drawn apart from rng so that the scenes are the textured ones'
        texture = cv2.GaussianBlur(np.random.default_rng([seed, n]).normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 1.0)
    texture = np.tile(texture, (4, 4))[:HEIGHT, :WIDTH]
    level = rng.uniform(185, 215)
    image = level + (texture - texture.mean()) * (rng.uniform(6, 14) / max(texture.std(), 1))
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    light = 1 + rng.uniform(-0.08, 0.08) * (xs / WIDTH - 0.5) + rng.uniform(-0.08, 0.08) * (ys / HEIGHT - 0.5)
    return image * light


def sheet_corners():
    """A sheet seen from above at an angle: nearer (lower) side wider, turned a little, 40–65 % of the frame."""
    w = rng.uniform(0.40, 0.62) * WIDTH
    h = w * rng.uniform(0.75, 1.0)
    narrowing = rng.uniform(0.70, 0.90)
    cx, cy = WIDTH / 2 + rng.uniform(-0.1, 0.1) * WIDTH, HEIGHT / 2 + rng.uniform(-0.05, 0.1) * HEIGHT
    q = np.array([[-w * narrowing / 2, -h / 2], [w * narrowing / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = np.deg2rad(rng.uniform(-10, 10))
    return q @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]) + [cx, cy]


def soft_shadow(image, polygon, strength):
    mask = np.zeros(image.shape, np.float32)
    cv2.fillPoly(mask, [np.int32(np.round(polygon))], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), 9)
    return image * (1 - strength * mask)


def cylinder(image, base, radius, height, light):
    """A cylinder standing at base (the centre of its foot), seen from above at an angle."""
    squash = 0.45
    shadow = cv2.ellipse2Poly((int(base[0] + radius * 0.9), int(base[1])), (int(radius * 1.6), int(radius * squash * 1.3)), 0, 0, 360, 10)
    image = soft_shadow(image, shadow, 0.35)
    top = base - [0, height]
    body = np.zeros(image.shape, np.uint8)
    cv2.ellipse(body, (int(base[0]), int(base[1])), (int(radius), int(radius * squash)), 0, 0, 180, 255, -1)
    cv2.rectangle(body, (int(base[0] - radius), int(top[1])), (int(base[0] + radius), int(base[1])), 255, -1)
    xs = np.arange(image.shape[1], dtype=np.float32)
    shade = light * (0.55 + 0.45 * np.clip(np.cos((xs - base[0] + radius * 0.4) / radius * 1.3), 0, 1))
    image = np.where(body > 0, shade[None, :], image)
    cv2.ellipse(image, (int(top[0]), int(top[1])), (int(radius), int(radius * squash)), 0, 0, 360, light * 1.05, -1, cv2.LINE_AA)
    return image


def box(image, base, size, height, light):
    """A box standing at base (the centre of its foot), turned, seen from above at an angle."""
    a = rng.uniform(0, np.pi / 2)
    foot = np.array([[np.cos(a + k * np.pi / 2), 0.5 * np.sin(a + k * np.pi / 2)] for k in range(4)]) * size + base
    image = soft_shadow(image, np.vstack([foot, foot + [size * 1.2, 0]]), 0.35)
    roof = foot - [0, height]
    order = sorted(range(4), key=lambda k: foot[k, 1])
    lowest = order[-1]  # the foot corner nearest the camera: its two faces show
    for neighbour, shade in (((lowest + 1) % 4, 0.75), ((lowest + 3) % 4, 0.6)):
        face = np.array([foot[lowest], foot[neighbour], roof[neighbour], roof[lowest]])
        cv2.fillPoly(image, [np.int32(np.round(face))], light * shade, cv2.LINE_AA)
    cv2.fillPoly(image, [np.int32(np.round(roof))], light * 0.95, cv2.LINE_AA)
    return image


stills = []
for n in range(count):
    image = desk(n)
    q = sheet_corners()
    page = cv2.cvtColor(pages[rng.integers(len(pages))], cv2.COLOR_BGR2GRAY)
    if BLANK:  # a blank sheet: paper-white, its fibres faint, nothing printed on it
        page = np.clip(rng.uniform(225, 245) + rng.normal(0, 2, page.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        page = cv2.rotate(page, cv2.ROTATE_180)
    ph, pw = page.shape
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]]), np.float32(q))
    sheet = cv2.warpPerspective(page.astype(np.float32), h, (WIDTH, HEIGHT), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones((ph, pw), np.float32), h, (WIDTH, HEIGHT))
    # A white sheet on a pale desk: brighten the page to the desk's level and a little above.
    sheet = np.clip(sheet * rng.uniform(1.0, 1.12), 0, 255)
    image = image * (1 - mask) + sheet * mask
    # The objects, farther first: each stands on the sheet near a side or a corner.
    light = rng.uniform(150, 230)
    spots = []
    for kind in rng.permutation(['cylinder', 'box']):
        k = rng.integers(4)
        t = rng.uniform(0.0, 0.8)
        spot = q[k] + (q[(k + 1) % 4] - q[k]) * t
        spot = spot + (q.mean(0) - spot) * rng.uniform(0.05, 0.2)
        spots.append((spot[1], kind, spot))
    for _, kind, spot in sorted(spots, key=lambda s: s[0]):
        size = rng.uniform(0.06, 0.11) * WIDTH
        height = rng.uniform(1.2, 2.5) * size
        if kind == 'cylinder':
            image = cylinder(image, spot, size, height, light)
        else:
            image = box(image, spot, size, height, light)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.6, 1.2))
    image = np.clip(image + rng.normal(0, 2.5, image.shape), 0, 255).astype(np.uint8)
    name = 'standing%02d.png' % n
    cv2.imwrite(os.path.join(out, name), image)
    stills.append({'file': name, 'quad': q.tolist(), 'width': WIDTH, 'height': HEIGHT})
json.dump({'stills': stills}, open(os.path.join(out, 'corners.json'), 'w'))
print('%d scenes in %s' % (count, out))
