// Networks read from ONNX files (onnx.cpp), for the files that run one.
#pragma once

#include <opencv2/dnn.hpp>

namespace cfocal {

// A network from an ONNX file; a missing file is CFOCAL_ERR_NOT_FOUND, one OpenCV cannot read
// CFOCAL_ERR_DECODE, each message naming the file and `what` ("text model").
cv::dnn::Net read_onnx(const char *path, const char *what);

// Registers, once per process, the shim's own layers (dnn_layers.hpp) over dnn's "Convolution" and
// "Resize" types; read_onnx calls it before reading a network. The registry is the
// process's: a network the host reads through OpenCV itself afterwards gets them too, with the
// same outputs to float rounding.
void run_layers_here();

}  // namespace cfocal
