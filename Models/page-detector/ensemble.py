#!/usr/bin/env python3
"""Joins page networks into one ONNX graph whose maps are the mean of theirs (an ensemble of their
outputs, where average.py averages weights), for trying through FOCAL_MODELS.

Usage: ensemble.py OUT.onnx A.onnx B.onnx [C.onnx ...]

Each network reads the same `image` input and gives its `page` maps (sigmoid inside); OUT gives the
mean of them as `page`. Every other name takes a prefix per network, so any exported networks join,
cut or uncut, with or without export.py's pre-0.7.49 rewrites. Needs only onnx and numpy.
"""
import argparse

import numpy as np
import onnx
from onnx import helper, numpy_helper


def prefixed(model, prefix):
    """The model's graph with every node, value and weight name but the input's prefixed."""
    graph = model.graph

    def renamed(name):
        return name if name in ("", "image") else prefix + name

    for index, node in enumerate(graph.node):
        node.name = "%s%s" % (prefix, node.name or "node%d" % index)
        node.input[:] = [renamed(n) for n in node.input]
        node.output[:] = [renamed(n) for n in node.output]
    for weight in graph.initializer:
        weight.name = renamed(weight.name)
    return graph


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("networks", nargs="+")
    a = ap.parse_args()
    if len(a.networks) < 2:
        ap.error("give two networks or more")
    models = [onnx.load(path) for path in a.networks]
    graphs = [prefixed(model, "net%d_" % k) for k, model in enumerate(models)]
    nodes = [node for graph in graphs for node in graph.node]
    weights = [weight for graph in graphs for weight in graph.initializer]
    weights.append(numpy_helper.from_array(np.array(1.0 / len(graphs), np.float32), "ensemble_share"))
    nodes.append(helper.make_node("Sum", ["net%d_page" % k for k in range(len(graphs))], ["ensemble_sum"]))
    nodes.append(helper.make_node("Mul", ["ensemble_sum", "ensemble_share"], ["page"]))
    first = models[0]
    graph = helper.make_graph(nodes, "ensemble", list(first.graph.input), list(first.graph.output), weights)
    joined = helper.make_model(graph, opset_imports=first.opset_import)
    joined.ir_version = first.ir_version
    onnx.checker.check_model(joined)
    onnx.save(joined, a.out)
    print("%s: the mean of %d networks' maps" % (a.out, len(models)))


if __name__ == "__main__":
    main()
