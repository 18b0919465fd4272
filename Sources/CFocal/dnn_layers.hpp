// The shim's own layers for what OpenCV 4.6's dnn runs slowly in the page networks: depthwise and
// pointwise convolutions (depthwise_convolution.cpp, pointwise_convolution.cpp) and nearest-neighbour
// upsampling (nearest_upsampling.cpp); onnx.cpp registers them over dnn's "Convolution" and
// "Resize" types.
#pragma once

#include <opencv2/dnn.hpp>
#include <opencv2/dnn/all_layers.hpp>

namespace cfocal {

// A layer for the convolution params describe, or null where the file does not take it (OpenCV's
// own layer runs it then).
cv::Ptr<cv::dnn::Layer> depthwise_convolution_for(const cv::dnn::LayerParams &params);
cv::Ptr<cv::dnn::Layer> pointwise_convolution_for(const cv::dnn::LayerParams &params);
// The same for a resize.
cv::Ptr<cv::dnn::Layer> nearest_upsampling_for(const cv::dnn::LayerParams &params);

// A parameter given once for both axes or as its per-axis values (the ONNX importer's "pad" holds
// four), or `absent` where it is not given; -1 where the values differ.
inline int same_on_both_axes(const cv::dnn::LayerParams &params, const char *name, int absent) {
    if (!params.has(name)) return absent;
    const cv::dnn::DictValue &value = params.get(name);
    const int first = value.get<int>(0);
    for (int i = 1; i < value.size(); ++i)
        if (value.get<int>(i) != first) return -1;
    return first;
}

// Whether every value of the parameter is `value` (an absent one counting as it).
inline bool all_equal_to(const cv::dnn::LayerParams &params, const char *name, int value) {
    return same_on_both_axes(params, name, value) == value;
}

// The one input and one output of a shim layer's forward(), each continuous float (the Mats share
// the blobs' memory, so writing into the output writes the layer's output).
inline void single_float_blobs(cv::InputArrayOfArrays inputs_arr, cv::OutputArrayOfArrays outputs_arr, cv::Mat &in,
                               cv::Mat &out) {
    std::vector<cv::Mat> inputs, outputs;
    inputs_arr.getMatVector(inputs);
    outputs_arr.getMatVector(outputs);
    CV_Assert(inputs.size() == 1 && outputs.size() == 1);
    in = inputs[0];
    out = outputs[0];
    CV_Assert(in.type() == CV_32F && out.type() == CV_32F && in.isContinuous() && out.isContinuous());
}

// What the shim's convolution layers share: OpenCV's CPU backend only, a following ReLU taken in
// as OpenCV's own layer takes it, one float input and one float output, each continuous.
class ShimConvolution : public cv::dnn::Layer {
  public:
    explicit ShimConvolution(const cv::dnn::LayerParams &params) : cv::dnn::Layer(params) {}

    bool supportBackend(int backend) override { return backend == cv::dnn::DNN_BACKEND_OPENCV; }

    bool setActivation(const cv::Ptr<cv::dnn::ActivationLayer> &layer) override {
        const cv::Ptr<cv::dnn::ReLULayer> relu = layer.dynamicCast<cv::dnn::ReLULayer>();
        if (relu.empty() || relu->negativeSlope != 0.f) return false;
        relu_ = true;
        return true;
    }

    void forward(cv::InputArrayOfArrays inputs_arr, cv::OutputArrayOfArrays outputs_arr, cv::OutputArrayOfArrays) override {
        cv::Mat in, out;
        single_float_blobs(inputs_arr, outputs_arr, in, out);
        run(in, out);
    }

  protected:
    // The convolution of in (N × C × H × W) into out, shaped by getMemoryShapes; ReLU where relu_.
    virtual void run(const cv::Mat &in, cv::Mat &out) = 0;

    bool relu_ = false;
};

#if defined(__x86_64__)
// Whether the machine runs the layers' AVX2 code (Debian builds for a baseline without it, and a
// library target cannot pass -mavx2, so it is chosen at run time). Asked of OpenCV, so that
// OPENCV_CPU_DISABLE=AVX2,FMA3 runs the baseline code here as it does in OpenCV's own layers: a
// machine without them, simulated (DetectCLITests.machinesWithoutAVX512OrAVX2FindTheSamePages).
inline bool has_avx2_and_fma() {
    static const bool available = cv::checkHardwareSupport(CV_CPU_AVX2) && cv::checkHardwareSupport(CV_CPU_FMA3);
    return available;
}

// Whether the machine also runs the layers' AVX-512 code (AVX-512 F with AVX2 and FMA), asked of
// OpenCV for the same reason: OPENCV_CPU_DISABLE=AVX512F runs their AVX2 code.
inline bool has_avx512() {
    static const bool available = has_avx2_and_fma() && cv::checkHardwareSupport(CV_CPU_AVX_512F);
    return available;
}
#endif

}  // namespace cfocal
