#!/usr/bin/env python3
"""Make PP-OCRv4's text-detection ONNX loadable by OpenCV 4.6's dnn module.

Input:  ch_PP-OCRv4_det_infer.onnx from the PyPI wheel rapidocr-onnxruntime 1.4.4
Output: the same network with two mechanical changes, no weight touched:

1. Clip nodes (opset 12) take their bounds as inputs; OpenCV 4.6's importer only
   reads them as attributes. Each bound is a constant, so it is moved into a
   `min`/`max` attribute and the inputs are dropped.
2. OpenCV 4.6's DB post-processing (TextDetectionModel_DB) expects the
   probability map as a plain [H, W] blob and returns nothing for [1, 1, H, W].
   The batch dimension is fixed to 1 and a Squeeze of axes 0 and 1 is appended.

Usage: python3 convert_ppocr_det.py ORIGINAL.onnx OUTPUT.onnx   (needs `pip install onnx`)
"""
import sys

import onnx
from onnx import helper, numpy_helper


def constant_values(graph):
    values = {}
    for node in graph.node:
        if node.op_type == "Constant":
            for attribute in node.attribute:
                if attribute.name == "value":
                    values[node.output[0]] = numpy_helper.to_array(attribute.t)
    for initializer in graph.initializer:
        values[initializer.name] = numpy_helper.to_array(initializer)
    return values


def move_clip_bounds_to_attributes(graph):
    values = constant_values(graph)
    changed = 0
    for node in graph.node:
        if node.op_type != "Clip" or len(node.input) == 1:
            continue
        bounds = list(node.input[1:])
        for name, attribute in zip(bounds, ("min", "max")):
            if name:
                if name not in values:
                    sys.exit(f"Clip node {node.name}: bound {name} is not a constant")
                node.attribute.append(helper.make_attribute(attribute, float(values[name])))
        del node.input[1:]
        changed += 1
    return changed


def squeeze_output_to_plane(model):
    graph = model.graph
    graph.input[0].type.tensor_type.shape.dim[0].dim_value = 1
    output = graph.output[0]
    plane = output.name + "_plane"
    graph.node.append(helper.make_node("Squeeze", [output.name], [plane], axes=[0, 1], name="focal_squeeze"))
    del graph.output[:]
    graph.output.append(helper.make_tensor_value_info(plane, onnx.TensorProto.FLOAT, ["height", "width"]))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    model = onnx.load(sys.argv[1])
    changed = move_clip_bounds_to_attributes(model.graph)
    squeeze_output_to_plane(model)
    onnx.save(model, sys.argv[2])
    print(f"{sys.argv[2]}: {changed} Clip nodes rewritten, output squeezed to [H, W]")


if __name__ == "__main__":
    main()
