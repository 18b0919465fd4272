#!/usr/bin/env python3
"""Averages lite page networks' weights (a "soup"), for export.py --lite.

Usage: average.py A B [C ...] --out MEAN.pt

Each of A, B, … is an exported network (.onnx, its batch norms folded: read as train.py --init reads
it) or a .pt that train.py wrote when fine-tuning from such a file (--init NETWORK.onnx, whose batch
norms stay folded). A .pt trained from ImageNet keeps batch norms of its own: export it and pass the
.onnx, so that every network is averaged in the same folded form. Averaging helps only networks from
one start (README.md, "Only a stack's top page").
"""
import argparse

import torch

from model_lite import LitePageNet
from train import averaged, load_onnx_weights


def folded_state(path):
    model = LitePageNet()
    if path.endswith(".onnx"):
        load_onnx_weights(model, path)
    else:
        model.load_state_dict(torch.load(path))
    return {k: v.clone() for k, v in model.state_dict().items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("networks", nargs="+")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if len(a.networks) < 2:
        ap.error("give two networks or more")
    torch.save(averaged([folded_state(p) for p in a.networks]), a.out)
    print("%s: the mean of %d networks" % (a.out, len(a.networks)))


if __name__ == "__main__":
    main()
