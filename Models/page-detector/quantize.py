#!/usr/bin/env python3
"""Eight-bit page network for `.low`: a trial, not part of the recipe (MODEL_CARD.md, "Tried for
speed": tried and not kept).

Quantizes the committed network's weights and activations to int8 with ONNX Runtime's static
quantization (QOperator format, per tensor; the input's scaling, Mul and Sub, left in float, as
OpenCV 4.6 cannot quantize a constant), calibrated on the test resources' photos, then runs both
networks through OpenCV's dnn on one thread at `.low`'s input and prints their times and how far
the int8 network's page and outline maps are from the float one's on the phone photos.

    /usr/bin/python3 -m venv --system-site-packages /tmp/q8 && /tmp/q8/bin/pip install onnxruntime onnx "numpy<2"
    /tmp/q8/bin/python Models/page-detector/quantize.py /tmp/q8/page-detector-int8.onnx

`--system-site-packages` and no opencv-python wheel: cv2 is then Debian's python3-opencv, the
OpenCV 4.6 that Focal links.
"""
import argparse
import glob
import os
import time

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL = os.path.join(ROOT, "Sources", "Focal", "Models", "page-detector.onnx")
RESOURCES = os.path.join(ROOT, "Tests", "FocalTests", "Resources")


def photos(folder="*"):
    return sorted(p for ext in ("webp", "jpg", "png") for p in glob.glob(os.path.join(RESOURCES, folder, "*." + ext)))


def quantize(out):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Photos(CalibrationDataReader):
        def __init__(self):
            blobs = []
            for path in photos():
                image = cv2.imread(path)
                if image is not None:
                    image = cv2.resize(image, (192, 192), interpolation=cv2.INTER_AREA)
                    blobs.append({"image": image.transpose(2, 0, 1)[None].astype(np.float32)})
            self.blobs = iter(blobs)

        def get_next(self):
            return next(self.blobs, None)

    quantize_static(MODEL, out, Photos(), quant_format=QuantFormat.QOperator, activation_type=QuantType.QInt8,
                    weight_type=QuantType.QInt8, nodes_to_exclude=["/net/Mul", "/net/Sub"])


def compare(out, height, width, rounds):
    cv2.setNumThreads(1)
    nets = {"float": cv2.dnn.readNetFromONNX(MODEL), "int8": cv2.dnn.readNetFromONNX(out)}
    times = {name: [] for name in nets}
    maps = {name: [] for name in nets}
    for path in photos("phone_photos"):
        image = cv2.resize(cv2.imread(path), (width, height), interpolation=cv2.INTER_AREA)
        blob = cv2.dnn.blobFromImage(image, 1.0, (width, height))
        for name, net in nets.items():
            net.setInput(blob)
            maps[name].append(net.forward().copy())
        for _ in range(rounds):  # alternating, so that both see the same load
            for name, net in nets.items():
                start = time.perf_counter()
                net.setInput(blob)
                net.forward()
                times[name].append(time.perf_counter() - start)
    for name in nets:
        print("%-5s %dx%d: %.2f ms (least), %.2f ms (median)" % (name, width, height, 1000 * min(times[name]),
                                                                 1000 * np.median(times[name])))
    for channel, what in ((0, "page"), (1, "outline")):
        gaps = [np.abs(a[0, channel] - b[0, channel]) for a, b in zip(maps["float"], maps["int8"])]
        print("%-7s map, int8 against float: largest difference %.3f, mean %.3f" %
              (what, max(g.max() for g in gaps), np.mean([g.mean() for g in gaps])))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="where to write the int8 network")
    ap.add_argument("--input", default="96x160", help="the input, HEIGHTxWIDTH (.low's landscape input: 96x160)")
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    quantize(a.out)
    height, width = (int(v) for v in a.input.split("x"))
    compare(a.out, height, width, a.rounds)


if __name__ == "__main__":
    main()
