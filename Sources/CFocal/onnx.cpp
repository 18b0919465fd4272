// Networks read from ONNX files, for the text and page models.
#include "dnn_layers.hpp"
#include "internal.hpp"
#include "onnx.hpp"

#include <fstream>
#include <mutex>

namespace cfocal {

namespace {

// The shim's layer for a convolution where it has one, OpenCV's own otherwise.
cv::Ptr<cv::dnn::Layer> create_convolution(cv::dnn::LayerParams &params) {
    if (cv::Ptr<cv::dnn::Layer> layer = depthwise_convolution_for(params)) return layer;
    if (cv::Ptr<cv::dnn::Layer> layer = pointwise_convolution_for(params)) return layer;
    if (cv::Ptr<cv::dnn::Layer> layer = stem_convolution_for(params)) return layer;
    return cv::dnn::ConvolutionLayer::create(params);
}

// The shim's layer for a resize where it has one, OpenCV's own otherwise.
cv::Ptr<cv::dnn::Layer> create_resize(cv::dnn::LayerParams &params) {
    if (cv::Ptr<cv::dnn::Layer> layer = nearest_upsampling_for(params)) return layer;
    return cv::dnn::ResizeLayer::create(params);
}

}  // namespace

void run_layers_here() {
    static std::once_flag registered;
    std::call_once(registered, [] {
        cv::dnn::LayerFactory::registerLayer("Convolution", create_convolution);
        cv::dnn::LayerFactory::registerLayer("Resize", create_resize);
    });
}

cv::dnn::Net read_onnx(const char *path, const char *what) {
    if (!std::ifstream(path, std::ios::binary).good())
        fail(CFOCAL_ERR_NOT_FOUND, std::string("the ") + what + " '" + path + "' is missing or unreadable");
    run_layers_here();
    cv::dnn::Net net;
    try {
        net = cv::dnn::readNetFromONNX(path);
    } catch (const cv::Exception &e) {
        fail(CFOCAL_ERR_DECODE, std::string("'") + path + "' is not an ONNX network OpenCV can load: " + e.err);
    }
    if (net.empty()) fail(CFOCAL_ERR_DECODE, std::string("'") + path + "' holds no network");
    return net;
}

}  // namespace cfocal
