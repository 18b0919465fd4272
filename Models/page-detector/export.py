#!/usr/bin/env python3
"""Exports a trained page detector to ONNX for OpenCV's dnn.

Usage: export.py page-detector.pt Sources/Focal/Models/page-detector.onnx [--size 192] [--lite]
       export.py --plain Sources/Focal/Models/page-detector.onnx   (a file exported before 0.7.49 made plain)

The graph takes 1×3×S×S BGR pixels (0…255) and returns 1×2×S×S probabilities (sigmoid inside);
with --lite (model_lite.py's network), 1×3×S/2×S/2.
Batch norms are folded into the convolutions before export. Opset 11, as OpenCV 4.6 reads it.
"""
import argparse
import hashlib

import torch
import torch.nn as nn

from model import PageNet
from model_lite import network_for


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


def joined_depthwise(node, produced, weights):
    """For a Sum of the four 3 × 3 parts export.py wrote for a 5 × 5 depthwise convolution before
    0.7.49 (each part padded to reach its quarter of the window; the first carries the bias), the one
    5 × 5 convolution they sum to, on the original weights the graph still holds; None otherwise."""
    from onnx import helper, numpy_helper
    import numpy as np
    parts = [produced.get(name) for name in node.input]
    if node.op_type != "Sum" or len(parts) != 4 or any(p is None or p.op_type != "Conv" or "_part" not in p.output[0] for p in parts):
        return None
    biased = [p for p in parts if len(p.input) > 2]
    name = biased[0].input[2][:-len(".bias")] + ".weight"
    original = numpy_helper.to_array(weights[name])
    summed = np.zeros_like(original)
    for part in parts:
        oy, ox = int(part.output[0][-6]), int(part.output[0][-5])  # …_partYX_out: the part's offset in the window
        summed[:, :, oy:oy + 3, ox:ox + 3] += numpy_helper.to_array(weights[part.input[1]])
    assert np.abs(summed - original).max() < 1e-6, "the parts of %s do not sum to its weights" % name
    attrs = {a.name: helper.get_attribute_value(a) for a in parts[0].attribute}
    return helper.make_node("Conv", [parts[0].input[0], name, biased[0].input[2]], [node.output[0]], kernel_shape=[5, 5],
                            group=original.shape[0], strides=list(attrs.get("strides", [1, 1])), pads=[2, 2, 2, 2])


def plain_graph(path):
    """Undoes, in place, the two graph rewrites export.py made before 0.7.49 for OpenCV 4.6's slow
    depthwise paths, which the shim's own depthwise layer (Sources/CFocal/depthwise_convolution.cpp)
    made unnecessary: each 5 × 5 depthwise convolution split into four 3 × 3 parts is joined again,
    and each 3 × 3 one run on its map widened by zero columns (Pad, Conv, Slice) runs on the map
    itself. The output is the same to float rounding; a plain graph is left as it is."""
    import onnx
    m = onnx.load(path)
    g = m.graph
    weights = {i.name: i for i in g.initializer}
    produced = {o: n for n in g.node for o in n.output}
    consumers = {}
    for n in g.node:
        for name in n.input:
            consumers.setdefault(name, []).append(n)
    dropped, nodes = set(), []
    for node in g.node:
        if node.op_type == "Pad" and len(node.input) > 1 and node.input[1] == "widen_pads":
            conv = consumers[node.output[0]][0]
            cut = consumers[conv.output[0]][0]
            conv.input[0], conv.output[0] = node.input[0], cut.output[0]
            dropped.update({id(node), id(cut)})
    for node in g.node:
        joined = joined_depthwise(node, produced, weights)
        if joined is not None:
            dropped.update(id(produced[name]) for name in node.input)
            nodes.append(joined)
        elif id(node) not in dropped:
            nodes.append(node)
    nodes = [n for n in nodes if id(n) not in dropped]
    del g.node[:]
    g.node.extend(nodes)
    used = {name for n in g.node for name in n.input}
    kept = [i for i in g.initializer if i.name in used or i.name.startswith("net.")]
    del g.initializer[:]
    g.initializer.extend(kept)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights", nargs="?")
    ap.add_argument("onnx", nargs="?")
    ap.add_argument("--size", type=int, default=192)
    ap.add_argument("--lite", action="store_true", help="the weights are model_lite.py's network")
    ap.add_argument("--plain", metavar="ONNX", help="only undo, in place, the graph rewrites of a file exported before 0.7.49")
    a = ap.parse_args()
    if a.plain:
        plain_graph(a.plain)
        print("%s sha256 %s" % (a.plain, hashlib.sha256(open(a.plain, "rb").read()).hexdigest()))
        return
    if not (a.weights and a.onnx):
        ap.error("give the weights and the ONNX file to write (or --plain ONNX)")
    state = torch.load(a.weights, map_location="cpu")
    model = network_for(state) if a.lite else PageNet()
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
    digest = hashlib.sha256(open(a.onnx, "rb").read()).hexdigest()
    print("%s sha256 %s" % (a.onnx, digest))


if __name__ == "__main__":
    main()
