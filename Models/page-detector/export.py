#!/usr/bin/env python3
"""Exports a trained page detector to ONNX for OpenCV's dnn.

Usage: export.py page-detector.pt Sources/Focal/Models/page-detector.onnx [--size 192]

The graph takes 1×3×S×S BGR pixels (0…255) and returns 1×2×S×S probabilities (sigmoid inside).
Batch norms are folded into the convolutions before export. Opset 11, as OpenCV 4.6 reads it.
"""
import argparse
import hashlib

import torch
import torch.nn as nn

from model import PageNet


def fold_batch_norms(module):
    """Folds each BatchNorm2d that follows a Conv2d into the convolution (same output in eval mode)."""
    names = list(module._modules.keys())
    for name in names:
        child = module._modules[name]
        if child is not None:
            fold_batch_norms(child)
    # pairs inside Sequentials
    if isinstance(module, nn.Sequential):
        items = list(module._modules.items())
        for (n1, a), (n2, b) in zip(items, items[1:]):
            if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                fuse(a, b)
                module._modules[n2] = nn.Identity()
    # named pairs in SeparableBlock
    for conv_name, bn_name in (("depthwise", "bn1"), ("pointwise", "bn2")):
        if isinstance(getattr(module, conv_name, None), nn.Conv2d) and isinstance(getattr(module, bn_name, None), nn.BatchNorm2d):
            fuse(getattr(module, conv_name), getattr(module, bn_name))
            setattr(module, bn_name, nn.Identity())


def fuse(conv, bn):
    w = conv.weight.data
    scale = bn.weight.data / torch.sqrt(bn.running_var + bn.eps)
    conv.weight.data = w * scale.reshape(-1, 1, 1, 1)
    bias = conv.bias.data if conv.bias is not None else torch.zeros_like(bn.running_mean)
    conv.bias = nn.Parameter((bias - bn.running_mean) * scale + bn.bias.data)


class WithSigmoid(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.sigmoid(self.net(x))


def strip_identities(path):
    """Removes Identity nodes (the exporter leaves some on constants; OpenCV 4.6 cannot read them)."""
    import onnx
    m = onnx.load(path)
    g = m.graph
    alias = {n.output[0]: n.input[0] for n in g.node if n.op_type == "Identity"}
    outputs = {o.name for o in g.output}
    keep = []
    for n in g.node:
        if n.op_type == "Identity" and n.output[0] not in outputs:
            continue
        for i, name in enumerate(n.input):
            while name in alias:
                name = alias[name]
            n.input[i] = name
        keep.append(n)
    del g.node[:]
    g.node.extend(keep)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights")
    ap.add_argument("onnx")
    ap.add_argument("--size", type=int, default=192)
    a = ap.parse_args()
    model = PageNet()
    model.load_state_dict(torch.load(a.weights, map_location="cpu"))
    model.eval()
    x = torch.rand(1, 3, a.size, a.size) * 255
    with torch.no_grad():
        before = torch.sigmoid(model(x))
        fold_batch_norms(model)
        after = torch.sigmoid(model(x))
    assert (before - after).abs().max() < 1e-4, "folding the batch norms changed the output"
    net = WithSigmoid(model).eval()
    torch.onnx.export(net, x, a.onnx, input_names=["image"], output_names=["page"], opset_version=11, dynamo=False,
                      do_constant_folding=True)
    strip_identities(a.onnx)
    digest = hashlib.sha256(open(a.onnx, "rb").read()).hexdigest()
    print("%s sha256 %s" % (a.onnx, digest))


if __name__ == "__main__":
    main()
