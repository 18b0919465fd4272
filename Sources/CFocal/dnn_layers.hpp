// The shim's own layers for what OpenCV 4.6's dnn runs slowly in the page networks: depthwise and
// pointwise convolutions (depthwise_convolution.cpp, pointwise_convolution.cpp), the 3 × 3
// convolution of the colour planes that starts them (stem_convolution.cpp) and nearest-neighbour
// upsampling (nearest_upsampling.cpp); onnx.cpp registers them over dnn's "Convolution" and
// "Resize" types.
#pragma once

#include <opencv2/dnn.hpp>
#include <opencv2/dnn/all_layers.hpp>

#include <algorithm>

namespace cfocal {

// A layer for the convolution params describe, or null where the file does not take it (OpenCV's
// own layer runs it then).
cv::Ptr<cv::dnn::Layer> depthwise_convolution_for(const cv::dnn::LayerParams &params);
cv::Ptr<cv::dnn::Layer> pointwise_convolution_for(const cv::dnn::LayerParams &params);
cv::Ptr<cv::dnn::Layer> stem_convolution_for(const cv::dnn::LayerParams &params);
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

// A zero-padded plane split into stride × stride phase planes: phase (a, b) holds the padded
// plane's pixels at rows a, a + stride, … and columns b, b + stride, …, so that every tap of a
// strided kernel reads one phase plane contiguously. A zero row more than the taps reach is kept
// below each phase, for the run past the last row (a convolution computes each output row over a
// phase plane's whole width and throws the columns past its output's away: crop_rows).
struct Phases {
    int rows, cols;
    size_t plane;

    Phases(int stride, int rows_in, int cols_in, int pad)
        : rows((rows_in + 2 * pad + stride - 1) / stride + 1), cols((cols_in + 2 * pad + stride - 1) / stride),
          plane(size_t(rows) * cols) {}

    // Where tap (i, j) of a kernel at output 0 reads, from the first phase plane's start.
    size_t tap_offset(int stride, int i, int j) const {
        return size_t((i % stride) * stride + j % stride) * plane + size_t(i / stride) * cols + j / stride;
    }
};

// plane (rows × cols), padded by `pad` zeros on every side, into its stride × stride phase planes
// at `to` (stride² × phases.plane floats). Only the plane's own pixels are written: `to` holds zeros
// everywhere else already (a zeroed buffer, or one a plane of the same shape was split into), so
// that a layer splitting hundreds of channels zeroes its buffer once, not for each.
inline void split_into_phases(const float *plane, int rows, int cols, int pad, int stride, const Phases &phases,
                              float *to) {
    for (int y = 0; y < rows; ++y) {
        const float *from = plane + size_t(y) * cols;
        const int r = y + pad;
        float *row = to + size_t((r % stride) * stride) * phases.plane + size_t(r / stride) * phases.cols;
        if (stride == 1) {
            std::copy(from, from + cols, row + pad);
            continue;
        }
        for (int b = 0; b < stride; ++b) {  // the columns of phase b: padded columns b, b + stride, …
            float *phase = row + size_t(b) * phases.plane;
            const int first = ((b - pad) % stride + stride) % stride;  // the first x with (x + pad) % stride == b
            float *into = phase + (first + pad) / stride;
            const float *source = from + first;
            // Eight at a time: a row's phase is a few dozen floats, fewer than the compiler's own
            // choice of 64 a pass, which left the whole row to its scalar remainder.
#pragma clang loop vectorize_width(8) interleave_count(1)
            for (int i = 0, count = (cols - first + stride - 1) / stride; i < count; ++i) into[i] = source[i * stride];
        }
    }
}

// The first out_cols of each of out_rows rows `width` apart, into out (out_rows × out_cols),
// ReLU applied where asked.
inline void crop_rows(const float *sums, int width, bool relu, float *out, int out_rows, int out_cols) {
    for (int y = 0; y < out_rows; ++y) {
        const float *row = sums + size_t(y) * width;
        float *to = out + size_t(y) * out_cols;
        if (relu)
            for (int x = 0; x < out_cols; ++x) to[x] = std::max(row[x], 0.f);
        else
            std::copy(row, row + out_cols, to);
    }
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
