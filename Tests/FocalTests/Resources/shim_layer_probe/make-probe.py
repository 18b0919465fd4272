#!/usr/bin/env python3
"""Writes probe.onnx and expected-page-map.f32 for ShimLayerTests.

The probe is a page network in shape only (1 × 3 × H × W BGR in, two maps out, sigmoid inside) made
of the layers the shim runs itself (Sources/CFocal/depthwise_convolution.cpp,
pointwise_convolution.cpp, stem_convolution.cpp, nearest_upsampling.cpp): a 3 × 3 convolution of the
three colour planes at stride 2 with a ReLU (the stem: 3 outputs, not a whole number of its 8-channel
blocks), depthwise 5 × 5 and 3 × 3 kernels at stride 1 and 2, with and without a ReLU after them,
another stem-like 3 × 3 convolution at stride 1 without one, down to a 3 × 5 map (15 pixels: not a
whole number of the pointwise layer's 16-pixel runs), then two 1 × 1 convolutions (3 → 8 channels
with a ReLU: not a whole number of its 6-channel blocks; 8 → 2), and a nearest-neighbour resize by
32 back to the input's size, before OpenCV's own sigmoid. The expected page map is this script's own arithmetic in numpy, not OpenCV's, for the test image the
test draws (`probe_pixel`, the same formula there). Weights come from formulas: nothing is random.

Run with numpy and onnx (Models/page-detector/train.sh's venv has both):
    python3 make-probe.py            (writes the two files beside this script)
"""
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HEIGHT, WIDTH = 96, 160  # a 16:9 frame's input at .low: the shim gives it to the network unscaled


def probe_pixel(x, y, channel):
    """The test image's BGR value at (x, y): stripes, a ramp and a product term, so that no two
    neighbouring windows see the same pixels."""
    return (x * 7 + y * 13 + channel * 50 + (x * y) % 31) % 256


def image():
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    return np.stack([probe_pixel(xs, ys, c) for c in range(3)]).astype(np.float32)[None]


# (kind, kernel, stride, ReLU after it, weight scale, bias): each 3 channels; "depthwise" one kernel a
# channel, "dense" (the stem's kind) a 3 × 3 kernel over all three for each output.
LAYERS = [("dense", 3, 2, True, 1.0, 0.0), ("depthwise", 5, 1, True, 1 / 60, 0.0), ("depthwise", 3, 1, False, 1.0, 0.1),
          ("depthwise", 5, 2, True, 1 / 12, 0.0), ("depthwise", 3, 2, False, 1 / 3, 0.05), ("dense", 3, 1, False, 1 / 2, -5.0),
          ("depthwise", 3, 2, True, 1.0, 0.0), ("depthwise", 3, 2, False, 1.0, 0.0)]
# The two 1 × 1 convolutions: 3 → 8 channels (then a ReLU), 8 → 2; weights and biases from formulas.
WIDE = np.array([[math.cos(1 + o * 3 + c * 5) for c in range(3)] for o in range(8)], np.float32)
WIDE_BIAS = np.array([0.1 * (o - 4) for o in range(8)], np.float32)
NARROW = np.array([[math.sin(2 + o * 7 + c * 3) / 3 for c in range(8)] for o in range(2)], np.float32)


def layer_weights(index, kind, kernel, scale, bias):
    inputs = 3 if kind == "dense" else 1
    w = np.array([[[[math.sin(1 + index * 11 + c * 7 + k * 13 + i * 5 + j * 3) * scale for j in range(kernel)]
                    for i in range(kernel)] for k in range(inputs)] for c in range(3)], np.float32)
    b = np.array([bias + 0.1 * c for c in range(3)], np.float32)
    return w, b


def convolution(x, w, b, stride, dense):
    """The convolution written out: zero padding of kernel // 2 on every side; each output channel
    from its own input channel (depthwise) or from all of them (dense)."""
    kernel = w.shape[-1]
    pad = kernel // 2
    _, channels, rows, cols = x.shape
    padded = np.zeros((channels, rows + 2 * pad, cols + 2 * pad), np.float64)
    padded[:, pad:pad + rows, pad:pad + cols] = x[0]
    out_rows, out_cols = (rows + 2 * pad - kernel) // stride + 1, (cols + 2 * pad - kernel) // stride + 1
    out = np.zeros((channels, out_rows, out_cols), np.float64)
    for c in range(channels):
        for k in range(w.shape[1]):
            source = k if dense else c
            for i in range(kernel):
                for j in range(kernel):
                    out[c] += w[c, k, i, j] * padded[source, i:i + stride * out_rows:stride, j:j + stride * out_cols:stride]
        out[c] += b[c]
    return out[None]


def expected(x):
    for index, (kind, kernel, stride, relu, scale, bias) in enumerate(LAYERS):
        w, b = layer_weights(index, kind, kernel, scale, bias)
        x = convolution(x, w, b, stride, kind == "dense")
        if relu:
            x = np.maximum(x, 0)
    x = np.maximum(np.einsum("oc,bchw->bohw", WIDE.astype(np.float64), x) + WIDE_BIAS[None, :, None, None], 0)
    maps = np.einsum("oc,bchw->bohw", NARROW.astype(np.float64), x)
    factor = HEIGHT // maps.shape[2]
    maps = maps.repeat(factor, axis=2).repeat(factor, axis=3)
    return 1 / (1 + np.exp(-maps))


def graph():
    nodes, weights, previous = [], [], "image"
    for index, (kind, kernel, stride, relu, scale, bias) in enumerate(LAYERS):
        w, b = layer_weights(index, kind, kernel, scale, bias)
        weights += [numpy_helper.from_array(w, "w%d" % index), numpy_helper.from_array(b, "b%d" % index)]
        out = "conv%d" % index
        nodes.append(helper.make_node("Conv", [previous, "w%d" % index, "b%d" % index], [out], kernel_shape=[kernel, kernel],
                                      group=1 if kind == "dense" else 3, strides=[stride, stride], pads=[kernel // 2] * 4))
        if relu:
            nodes.append(helper.make_node("Relu", [out], [out + "_relu"]))
            out += "_relu"
        previous = out
    factor = 2 ** sum(1 for layer in LAYERS if layer[2] == 2)
    weights += [numpy_helper.from_array(WIDE[:, :, None, None], "wide"), numpy_helper.from_array(WIDE_BIAS, "wide_bias"),
                numpy_helper.from_array(NARROW[:, :, None, None], "narrow"),
                numpy_helper.from_array(np.zeros(2, np.float32), "narrow_bias"),
                numpy_helper.from_array(np.array([], np.float32), "roi"),
                numpy_helper.from_array(np.array([1, 1, factor, factor], np.float32), "scales")]
    nodes += [helper.make_node("Conv", [previous, "wide", "wide_bias"], ["wide_out"], kernel_shape=[1, 1]),
              helper.make_node("Relu", ["wide_out"], ["wide_relu"]),
              helper.make_node("Conv", ["wide_relu", "narrow", "narrow_bias"], ["maps"], kernel_shape=[1, 1]),
              helper.make_node("Resize", ["maps", "roi", "scales"], ["resized"], mode="nearest",
                               coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
              helper.make_node("Sigmoid", ["resized"], ["page"])]
    g = helper.make_graph(nodes, "depthwise-probe", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, HEIGHT, WIDTH])],
                          [helper.make_tensor_value_info("page", TensorProto.FLOAT, [1, 2, HEIGHT, WIDTH])], weights)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], producer_name="make-probe.py")
    model.ir_version = 6
    onnx.checker.check_model(model)
    return model


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    onnx.save(graph(), os.path.join(here, "probe.onnx"))
    page = expected(image())[0, 0].astype("<f4")
    page.tofile(os.path.join(here, "expected-page-map.f32"))
    print("page map: min %.3f max %.3f mean %.3f std %.3f" % (page.min(), page.max(), page.mean(), page.std()))


if __name__ == "__main__":
    main()
