// Depthwise 3 × 3 and 5 × 5 convolutions, run here rather than by OpenCV 4.6's dnn.
// 4.6 runs a 3 × 3 depthwise convolution on a fast path only on maps 18 or more columns wide, and a
// 5 × 5 one always on a general path several times slower. The page networks (EfficientNet-Lite's
// blocks) have both, and maps 6 to 18 columns wide at 1/16. Their exports used to work around it:
// each 5 × 5 kernel split into four 3 × 3 parts padded asymmetrically, and narrow maps widened by
// zero columns and cut back. The Padding and Slice layers those need cost more than the
// convolutions (at .low's 96 × 160: the network 3.8 ms with them, 2.8 ms plain through this file).
// This file's layer takes the depthwise convolutions of these two sizes with symmetric padding and
// no dilation (onnx.cpp registers it over dnn's "Convolution" type); the networks stay plain ONNX
// that any reader runs, with the same outputs to float rounding.
#include "dnn_layers.hpp"
#include "internal.hpp"

#include <type_traits>

namespace {

#if defined(__x86_64__)
using cfocal::has_avx2_and_fma;
#endif
using cfocal::Phases;
using cfocal::same_on_both_axes;

// The geometry this file runs: one input channel per output channel, a square kernel of `kernel`
// taps, the same padding on every side, stride 1 or 2, no dilation.
struct DepthwiseGeometry {
    int kernel = 0, stride = 1, pad = 0, channels = 0;
};

// The geometry of the convolution params describe when this file runs it, or kernel 0.
DepthwiseGeometry depthwise_geometry(const cv::dnn::LayerParams &params) {
    DepthwiseGeometry none, g;
    if (params.blobs.empty() || params.blobs[0].dims != 4 || params.blobs[0].type() != CV_32F) return none;
    const cv::Mat &weights = params.blobs[0];
    g.channels = weights.size[0];
    g.kernel = weights.size[2];
    if ((g.kernel != 3 && g.kernel != 5) || weights.size[3] != g.kernel || weights.size[1] != 1) return none;
    if (params.get<int>("group", 1) != g.channels || params.get<int>("num_output", g.channels) != g.channels) return none;
    g.stride = same_on_both_axes(params, "stride", 1);
    g.pad = same_on_both_axes(params, "pad", 0);
    if ((g.stride != 1 && g.stride != 2) || g.pad != g.kernel / 2 || same_on_both_axes(params, "dilation", 1) != 1)
        return none;
    if (params.has("pad_mode") && !params.get<cv::String>("pad_mode").empty()) return none;
    if (params.blobs.size() > 1 && params.blobs[1].total() != size_t(g.channels)) return none;
    return g;
}

// The least output width summed row by row (convolve_plane): two AVX-512 registers.
constexpr int kRowWideEnough = 32;

// One channel: bias + the Kernel × Kernel kernel over the zero-padded plane at every `Stride`th
// position, then ReLU where asked. A narrow map (the 6 to 18 columns at 1/16) has each output row
// computed over a phase plane's whole width, the columns past out_cols thrown away, so that each
// tap runs as one long loop the compiler vectorises instead of one short loop a row; a wide one row
// by row. scratch holds zeros where the padding goes (split_into_phases).
template <int Kernel, int Stride>
__attribute__((always_inline)) inline void convolve_plane(const float *plane, int rows, int cols, const float *taps,
                                                          float bias, bool relu, float *out, int out_rows, int out_cols,
                                                          float *scratch) {
    constexpr int kKernel = Kernel, kPad = Kernel / 2;
    const Phases phases(Stride, rows, cols, kPad);
    float *planes = scratch, *sums = scratch + size_t(Stride * Stride) * phases.plane;
    cfocal::split_into_phases(plane, rows, cols, kPad, Stride, phases, planes);
    const float *tap_at[kKernel * kKernel];
    for (int i = 0; i < kKernel; ++i)
        for (int j = 0; j < kKernel; ++j) tap_at[i * kKernel + j] = planes + phases.tap_offset(Stride, i, j);
    auto sum_at = [&](size_t n) {
        float sum = bias;
#pragma clang loop unroll(full)
        for (int t = 0; t < kKernel * kKernel; ++t) sum += taps[t] * tap_at[t][n];
        return sum;
    };
    // A row wide enough for whole registers is summed straight into the output, ReLU taken on the
    // way: the pass over a row of sums and the copy cost a quarter of the layer at 1/2.
    if (out_cols >= kRowWideEnough) {
        for (int y = 0; y < out_rows; ++y) {
            const size_t first = size_t(y) * phases.cols;
            float *to = out + size_t(y) * out_cols;
            if (relu)
                for (int x = 0; x < out_cols; ++x) to[x] = std::max(sum_at(first + x), 0.f);
            else
                for (int x = 0; x < out_cols; ++x) to[x] = sum_at(first + x);
        }
        return;
    }
    const int count = out_rows * phases.cols;
    for (int n = 0; n < count; ++n) sums[n] = sum_at(size_t(n));
    cfocal::crop_rows(sums, phases.cols, relu, out, out_rows, out_cols);
}

#if defined(__x86_64__)
template <int Kernel, int Stride>
__attribute__((target("avx2,fma"))) void convolve_plane_avx2(const float *plane, int rows, int cols, const float *taps,
                                                             float bias, bool relu, float *out, int out_rows,
                                                             int out_cols, float *scratch) {
    convolve_plane<Kernel, Stride>(plane, rows, cols, taps, bias, relu, out, out_rows, out_cols, scratch);
}

// The same loops compiled for AVX-512: each output's sum is taken in the same order, so the result
// is AVX2's to the bit, sixteen pixels a register instead of eight.
template <int Kernel, int Stride>
__attribute__((target("avx512f,avx2,fma"))) void convolve_plane_avx512(const float *plane, int rows, int cols,
                                                                      const float *taps, float bias, bool relu,
                                                                      float *out, int out_rows, int out_cols,
                                                                      float *scratch) {
    convolve_plane<Kernel, Stride>(plane, rows, cols, taps, bias, relu, out, out_rows, out_cols, scratch);
}
#endif

template <int Kernel, int Stride>
void convolve_plane_here(const float *plane, int rows, int cols, const float *taps, float bias, bool relu, float *out,
                         int out_rows, int out_cols, float *scratch) {
#if defined(__x86_64__)
    if (cfocal::has_avx512())
        return convolve_plane_avx512<Kernel, Stride>(plane, rows, cols, taps, bias, relu, out, out_rows, out_cols, scratch);
    if (has_avx2_and_fma())
        return convolve_plane_avx2<Kernel, Stride>(plane, rows, cols, taps, bias, relu, out, out_rows, out_cols, scratch);
#endif
    convolve_plane<Kernel, Stride>(plane, rows, cols, taps, bias, relu, out, out_rows, out_cols, scratch);
}

class DepthwiseConvolution final : public cfocal::ShimConvolution {
  public:
    DepthwiseConvolution(const cv::dnn::LayerParams &params, DepthwiseGeometry geometry)
        : ShimConvolution(params), geometry_(geometry) {}

    bool getMemoryShapes(const std::vector<cv::dnn::MatShape> &inputs, const int, std::vector<cv::dnn::MatShape> &outputs,
                         std::vector<cv::dnn::MatShape> &) const override {
        CV_Assert(inputs.size() == 1 && inputs[0].size() == 4 && inputs[0][1] == geometry_.channels);
        const cv::dnn::MatShape &in = inputs[0];
        outputs.assign(1, cv::dnn::MatShape{in[0], in[1], output_length(in[2]), output_length(in[3])});
        return false;
    }

  private:
    void run(const cv::Mat &in, cv::Mat &out) override {
        const cv::Mat &weights = blobs[0];  // read on each pass: the shim may turn the kernels after loading
        CV_Assert(weights.isContinuous() && weights.total() == size_t(geometry_.channels) * geometry_.kernel * geometry_.kernel);
        const int rows = in.size[2], cols = in.size[3], out_rows = out.size[2], out_cols = out.size[3];
        const int planes = in.size[0] * in.size[1];
        cv::parallel_for_(cv::Range(0, planes), [&](const cv::Range &range) {
            const int stride = geometry_.stride;
            const Phases phases(stride, rows, cols, geometry_.pad);
            // Zeroed once: each channel's split writes the same places (split_into_phases).
            std::vector<float> scratch(size_t(stride * stride + 1) * phases.plane);
            for (int p = range.start; p < range.end; ++p) {
                const int channel = p % geometry_.channels;
                const float *taps = weights.ptr<float>() + size_t(channel) * geometry_.kernel * geometry_.kernel;
                const float bias = blobs.size() > 1 ? blobs[1].ptr<float>()[channel] : 0.f;
                const float *plane = in.ptr<float>() + size_t(p) * rows * cols;
                float *to = out.ptr<float>() + size_t(p) * out_rows * out_cols;
                auto convolve = [&](auto kernel, auto stride_of) {
                    convolve_plane_here<decltype(kernel)::value, decltype(stride_of)::value>(
                        plane, rows, cols, taps, bias, relu_, to, out_rows, out_cols, scratch.data());
                };
                using K3 = std::integral_constant<int, 3>;
                using K5 = std::integral_constant<int, 5>;
                using S1 = std::integral_constant<int, 1>;
                using S2 = std::integral_constant<int, 2>;
                if (geometry_.kernel == 3) stride == 1 ? convolve(K3(), S1()) : convolve(K3(), S2());
                else stride == 1 ? convolve(K5(), S1()) : convolve(K5(), S2());
            }
        });
    }

    // A length of 0 is one the importer does not know yet (a network with dynamic input shapes,
    // like the text model's): it stays unknown, as OpenCV's own layer leaves it.
    int output_length(int length) const {
        if (length <= 0) return length;
        return (length + 2 * geometry_.pad - geometry_.kernel) / geometry_.stride + 1;
    }

    DepthwiseGeometry geometry_;
};

}  // namespace

namespace cfocal {

cv::Ptr<cv::dnn::Layer> depthwise_convolution_for(const cv::dnn::LayerParams &params) {
    const DepthwiseGeometry geometry = depthwise_geometry(params);
    if (geometry.kernel == 0) return nullptr;
    return cv::makePtr<DepthwiseConvolution>(params, geometry);
}

}  // namespace cfocal
