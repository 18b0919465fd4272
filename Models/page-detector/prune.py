#!/usr/bin/env python3
"""Cuts the page network's encoder to fewer inner channels, keeping those that carry most, as the
start of a fine-tune that learns from the uncut network (train.py --init PRUNED.pt --teacher ONNX).

Usage: prune.py NETWORK.onnx --data DIR [--data DIR ...] --out PRUNED.pt [--share 0.5] [--stem 16] [--blocks N]

Each of EfficientNet-Lite0's blocks (model_lite.py) widens its input six times inside (expand, then a
depthwise convolution), and most of the network's time at 1/2 and 1/4 of the input goes there
(MODEL_CARD.md, "Speed"). A block's inner channel counts by how much it passes on: its mean
activation after the depthwise convolution, over scenes of --data, times the summed magnitude of
the projection's weights that read it. The first block does not widen: its inner channels are the
stem's output (--stem keeps that many). The kept channels' weights are copied as they are, so the
cut network starts near the uncut one and a short fine-tune brings it back. With --blocks N only the
stem and the first N blocks are cut (those at 1/2 and 1/4 of the input, where the time goes, are the
first four); the deeper ones, cheap at their small maps and where a page is told from what only
looks like one, keep every channel.
"""
import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

from model_lite import LitePageNet, network_for
from train import load_onnx_weights


def inner_activity(model, images, count=256, batch=32, side=(160, 288)):
    """Per block, each inner channel's mean activation after the depthwise convolution."""
    sums = [None] * len(model._blocks)
    hooks = []
    for i, block in enumerate(model._blocks):
        def hook(module, args, out, i=i):
            a = F.relu(out).sum((0, 2, 3)).detach() / (out.shape[2] * out.shape[3])
            sums[i] = a if sums[i] is None else sums[i] + a
        hooks.append(block._bn1.register_forward_hook(hook))
    model.eval()
    with torch.no_grad():
        for start in range(0, count, batch):
            x = torch.from_numpy(np.ascontiguousarray(images[start:start + batch])).permute(0, 3, 1, 2).float()
            model(F.interpolate(x, size=side, mode="area"))
    for h in hooks:
        h.remove()
    return [s / count for s in sums]


def kept_channels(model, activity, share, stem, blocks=None):
    """Per block, the inner channels kept, in their order: all of them from block `blocks` on."""
    kept = []
    for i, block in enumerate(model._blocks):
        weight = block._project_conv.weight.detach().abs().sum((0, 2, 3))
        score = activity[i] * weight
        if blocks is not None and i >= blocks:
            width = len(score)
        else:
            width = stem if i == 0 else max(8, int(round(len(score) * share / 8)) * 8)
        kept.append(torch.sort(torch.argsort(score, descending=True)[:width]).values)
    return kept


def cut(model, kept, activity):
    """A network with only the kept inner channels, their weights copied; each projection's bias
    takes the mean of what its cut channels gave it (their mean activation through its weights), so
    that the blocks' outputs keep their level."""
    state = model.state_dict()
    out = dict(state)

    def take(prefix, index):  # the output channels of a convolution or a batch norm
        for name in [n for n in state if n.startswith(prefix + ".") and state[n].dim() > 0]:
            out[name] = state[name].index_select(0, index)
    take("_conv_stem", kept[0])
    take("_bn0", kept[0])
    for i, index in enumerate(kept):
        b = "_blocks.%d" % i
        if i > 0:
            take(b + "._expand_conv", index)
            take(b + "._bn0", index)
        take(b + "._depthwise_conv", index)
        take(b + "._bn1", index)
        out[b + "._project_conv.weight"] = state[b + "._project_conv.weight"].index_select(1, index)
        cut_off = torch.ones(len(activity[i]), dtype=torch.bool)
        cut_off[index] = False
        lost = state[b + "._project_conv.weight"][:, cut_off, 0, 0] @ activity[i][cut_off]
        out[b + "._bn2.bias"] = state[b + "._bn2.bias"] + lost * state[b + "._bn2.weight"] / torch.sqrt(
            state[b + "._bn2.running_var"] + model._blocks[i]._bn2.eps)
    pruned = network_for(out)
    pruned.load_state_dict(out)
    return pruned


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("network", help="the exported network to cut (an .onnx of export.py --lite)")
    ap.add_argument("--data", action="append", required=True, help="scenes of generate.py, whose first ones measure the channels")
    ap.add_argument("--out", required=True)
    ap.add_argument("--share", type=float, default=0.5, help="the share of each expanding block's inner channels kept")
    ap.add_argument("--stem", type=int, default=16, help="the stem's output channels kept (EfficientNet-Lite0's: 32)")
    ap.add_argument("--blocks", type=int, help="cut only the stem and this many first blocks (default: every block)")
    a = ap.parse_args()
    torch.set_num_threads(os.cpu_count() or 1)
    model = LitePageNet()
    load_onnx_weights(model, a.network)
    per_folder = max(32, 256 // len(a.data))
    images = np.concatenate([np.load(os.path.join(d, "images.npy"), mmap_mode="r")[:per_folder] for d in a.data])
    activity = inner_activity(model, images, len(images))
    kept = kept_channels(model, activity, a.share, a.stem, a.blocks)
    pruned = cut(model, kept, activity)
    torch.save(pruned.state_dict(), a.out)
    print("%s: inner widths %s (EfficientNet-Lite0's %s)" % (a.out, [len(k) for k in kept],
                                                              [b._depthwise_conv.out_channels for b in model._blocks]))


if __name__ == "__main__":
    main()
