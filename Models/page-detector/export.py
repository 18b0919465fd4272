#!/usr/bin/env python3
"""Exports a trained page detector to ONNX for OpenCV's dnn.

Usage: export.py page-detector.pt Sources/Focal/Models/page-detector.onnx [--size 192] [--lite]

The graph takes 1×3×S×S BGR pixels (0…255) and returns 1×2×S×S probabilities (sigmoid inside);
with --lite (model_lite.py's network), 1×3×S/2×S/2.
Batch norms are folded into the convolutions before export. Opset 11, as OpenCV 4.6 reads it.
"""
import argparse
import hashlib

import torch
import torch.nn as nn

from model import PageNet
from model_lite import LitePageNet, largest_kernel_in


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
    # named pairs: SeparableBlock's, and EfficientNet-Lite's stem and MBConv's
    for conv_name, bn_name in (("depthwise", "bn1"), ("pointwise", "bn2"), ("_conv_stem", "_bn0"), ("_expand_conv", "_bn0"),
                               ("_depthwise_conv", "_bn1"), ("_project_conv", "_bn2")):
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


def split_wide_depthwise(path):
    """Rewrites each 5 × 5 depthwise convolution (EfficientNet-Lite's, in model_lite.py's encoder) as
    the sum of four 3 × 3 depthwise convolutions over the kernel's quarters, each padded to reach its
    part of the window. The output is the same (to 2e-7); OpenCV 4.6's dnn runs 3 × 3 depthwise
    convolutions on a fast path and 5 × 5 on a slow one (13.2 → 11.3 ms at 288 × 160, one thread)."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper
    m = onnx.load(path)
    g = m.graph
    weights = {i.name: i for i in g.initializer}
    nodes = []
    for node in g.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type != "Conv" or list(attrs.get("kernel_shape", [])) != [5, 5]:
            nodes.append(node)
            continue
        w = numpy_helper.to_array(weights[node.input[1]])
        channels = w.shape[0]
        assert attrs.get("group", 1) == channels and w.shape[1] == 1 and list(attrs["pads"]) == [2, 2, 2, 2]
        parts = []
        # rows (and columns) 0–2 of the window at offset 0, rows 3–4 at offset 2 (its first row zero)
        for oy in (0, 2):
            for ox in (0, 2):
                k = np.zeros((channels, 1, 3, 3), np.float32)
                k[:, :, (1 if oy else 0):, (1 if ox else 0):] = w[:, :, oy + (1 if oy else 0):oy + 3, ox + (1 if ox else 0):ox + 3]
                name = "%s_part%d%d" % (node.output[0], oy, ox)
                g.initializer.append(numpy_helper.from_array(k, name))
                inputs = [node.input[0], name] + (node.input[2:3] if (oy, ox) == (0, 0) else [])
                nodes.append(helper.make_node("Conv", inputs, [name + "_out"], kernel_shape=[3, 3], group=channels,
                                              strides=list(attrs.get("strides", [1, 1])), pads=[2 - oy, 2 - ox, oy, ox]))
                parts.append(name + "_out")
        nodes.append(helper.make_node("Sum", parts, [node.output[0]]))
    del g.node[:]
    g.node.extend(nodes)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights")
    ap.add_argument("onnx")
    ap.add_argument("--size", type=int, default=192)
    ap.add_argument("--lite", action="store_true", help="the weights are model_lite.py's network")
    a = ap.parse_args()
    state = torch.load(a.weights, map_location="cpu")
    model = LitePageNet(largest_kernel=largest_kernel_in(state)) if a.lite else PageNet()
    model.load_state_dict(state)
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
    if a.lite:
        split_wide_depthwise(a.onnx)
    digest = hashlib.sha256(open(a.onnx, "rb").read()).hexdigest()
    print("%s sha256 %s" % (a.onnx, digest))


if __name__ == "__main__":
    main()
