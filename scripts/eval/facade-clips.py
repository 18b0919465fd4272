#!/usr/bin/env python3
# Clips of white pages against pale building facades, walls and concrete, for measuring the detector
# where the page is barely brighter than what it lies on (development only, not used by tests).
# The evaluation generator's own clips (../shared/eval/make_set.py: camera path, blur, lighting,
# noise, H.264, ground truth), with its backgrounds replaced by material textures from Debian's
# ufoai-textures (GPL-2+ / CC-BY(-SA) 3.0, installed by `scripts/install-deps.sh --train`): concrete,
# plaster, industrial walls and a facade with windows, lifted to a pale grey (mean 190) and tiled.
# The clips are named clip00 … clip07, so that score.py reads them as they are.
# Usage: facade-clips.py MAKE_SET_DIR OUT SEED    (e.g. ../shared/eval /tmp/facade 5; about 2 minutes)
import glob, os, shutil, sys, zipfile
import cv2
import numpy as np

make_set_dir, out, seed = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.abspath(make_set_dir))
import make_set  # noqa: E402

PACK = "/usr/share/games/ufoai/base/0textures.pk3"
TEXTURES = ["tex_buildings/concrete007.png", "tex_ctp1/concrete_g_10.jpg", "tex_ctp1/concrete_g_5.jpg",
            "tex_ctp1/concrete_r_1.jpg", "tex_trak/trak4_plaster3c-3.png", "tex_buildings/wall_ind01.png",
            "tex_buildings/wall_ind01_pil.png", "tex_mattn/window13.png"]
PAGES = ["a4_text0", "a4_scan", "a4_figures", "a4_text1", "receipt", "note_card", "a4_text0", "a4_scan"]

sources = os.path.join(out, "sources")
os.makedirs(sources, exist_ok=True)
# make_set draws its pages from its own sources folder too: the backgrounds join a copy of it.
for path in glob.glob(os.path.join(make_set.SRC, "*")):
    if not path.endswith(".md"):
        shutil.copyfile(path, os.path.join(sources, os.path.basename(path)))
names = []
with zipfile.ZipFile(PACK) as pack:
    for texture in TEXTURES:
        image = cv2.imdecode(np.frombuffer(pack.read("textures/" + texture), np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
        # Pale: mean 190, the texture's relief kept at a standard deviation of 45 levels.
        image = np.clip(190 + (image - image.mean()) * (45.0 / max(image.std(), 1)), 0, 255).astype(np.uint8)
        repeats = max(1, 2048 // image.shape[1])
        name = os.path.splitext(os.path.basename(texture))[0] + ".png"
        cv2.imwrite(os.path.join(sources, name), np.tile(image, (repeats, repeats, 1)))
        names.append(name)
make_set.SRC = os.path.abspath(sources)
make_set.CLIPS = [
    dict(name="clip%02d" % i, bg=name, bg_mm=1400, segments=[(0, 60, PAGES[i])], exposure=1.0 + 0.05 * (i % 3),
         shadow=i % 2 == 0, noise=1.2, tilt=14 + 3 * i, roll0=5 * (-1) ** i, tint=(1.0, 1.0, 1.0), exp_frac=0.5)
    for i, name in enumerate(names)]
sys.argv = [sys.argv[0], "--out", out, "--seed", seed]
make_set.main()
