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

from model_lite import network_for
from train import averaged, exported_lite_network


def folded_state(path):
    """The network's weights, batch norms folded, shaped as the file says (a network prune.py cut
    keeps its inner widths)."""
    if path.endswith(".onnx"):
        model = exported_lite_network(path)
    else:
        state = torch.load(path)
        model = network_for(state)
        model.load_state_dict(state)
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
