#!/usr/bin/env python3
"""Exports a trained page detector to ONNX for OpenCV's dnn.

Usage: export.py page-detector.pt Sources/Focal/Models/page-detector.onnx [--size 192] [--lite]
       export.py --rewrite Sources/Focal/Models/page-detector.onnx   (the lite graph's rewrites only)

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


def widen_narrow_depthwise(path, probe=(96, 160), least_width=18, extra_columns=12):
    """Runs each 3 × 3 depthwise convolution that sees a narrow map on that map widened by
    `extra_columns` zero columns on the right, and keeps its first columns. The output is the same
    (zeros there are the convolution's own padding). OpenCV 4.6's dnn runs a 3 × 3 depthwise
    convolution on its fast path only on maps at least `least_width` columns wide (480 channels, 6
    rows: 0.39 ms at 17 columns, 0.05 ms at 18); at the 1/16 stride of `.low`'s 96 × 160 input they
    are 10 wide. Narrow means narrower than `least_width` at `probe`, the input of a 16:9 frame at
    `.low`; 12 columns more bring the 1/16 maps of every input Focal gives (6 to 18 wide) to the fast
    path. The network alone in Python's cv2.dnn, one thread: 3.4 → 2.9 ms at 96 × 160, 7.7 → 6.7 ms at
    160 × 224."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, shape_inference
    m = onnx.load(path)
    g = m.graph
    probed = onnx.load(path)
    dims = probed.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_value, dims[3].dim_value = probe
    probed = shape_inference.infer_shapes(probed)
    widths = {v.name: v.type.tensor_type.shape.dim[3].dim_value for v in probed.graph.value_info
              if len(v.type.tensor_type.shape.dim) == 4}
    produced_by = {o: n for n in g.node for o in n.output}
    constants = {"widen_pads": [0, 0, 0, 0, 0, 0, 0, extra_columns], "widen_starts": [0], "widen_ends": [-extra_columns],
                 "widen_axes": [3]}
    nodes = []
    for node in g.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        source = produced_by.get(node.input[0]) if node.input else None
        narrow = (node.op_type == "Conv" and list(attrs.get("kernel_shape", [])) == [3, 3] and attrs.get("group", 1) > 1 and
                  list(attrs.get("strides", [1, 1])) == [1, 1] and list(attrs.get("dilations", [1, 1])) == [1, 1] and
                  list(attrs.get("pads", [0] * 4)) == [1, 1, 1, 1] and 0 < widths.get(node.input[0], 0) < least_width and
                  not (source is not None and source.op_type == "Pad"))  # not widened already
        if not narrow:
            nodes.append(node)
            continue
        output = node.output[0]
        nodes.append(helper.make_node("Pad", [node.input[0], "widen_pads"], [output + "_widened_input"], mode="constant"))
        node.input[0] = output + "_widened_input"
        node.output[0] = output + "_widened"
        nodes.append(node)
        nodes.append(helper.make_node("Slice", [output + "_widened", "widen_starts", "widen_ends", "widen_axes"], [output]))
    if len(nodes) > len(g.node):
        known = {i.name for i in g.initializer}
        for name, values in constants.items():
            if name not in known:
                g.initializer.append(numpy_helper.from_array(np.array(values, np.int64), name))
    del g.node[:]
    g.node.extend(nodes)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def rewrite_for_opencv(path):
    """The graph rewrites that make OpenCV 4.6's dnn faster on the same output; each leaves a graph
    already rewritten as it is."""
    split_wide_depthwise(path)
    widen_narrow_depthwise(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights", nargs="?")
    ap.add_argument("onnx", nargs="?")
    ap.add_argument("--size", type=int, default=192)
    ap.add_argument("--lite", action="store_true", help="the weights are model_lite.py's network")
    ap.add_argument("--rewrite", metavar="ONNX", help="only apply the lite network's graph rewrites to an exported file, in place")
    a = ap.parse_args()
    if a.rewrite:
        rewrite_for_opencv(a.rewrite)
        print("%s sha256 %s" % (a.rewrite, hashlib.sha256(open(a.rewrite, "rb").read()).hexdigest()))
        return
    if not (a.weights and a.onnx):
        ap.error("give the weights and the ONNX file to write (or --rewrite ONNX)")
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
    if a.lite:
        rewrite_for_opencv(a.onnx)
    digest = hashlib.sha256(open(a.onnx, "rb").read()).hexdigest()
    print("%s sha256 %s" % (a.onnx, digest))


if __name__ == "__main__":
    main()
