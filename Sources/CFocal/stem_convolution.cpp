// The page networks' first layer, a 3 × 3 convolution of the three colour planes (EfficientNet-Lite's
// stem: 32 outputs at stride 2), run here rather than by OpenCV 4.6's dnn. 4.6 runs it on its
// general path, which packs the input into columns first: the network's largest layer (at .low's
// 96 × 160 0.23 ms of the network's 2.3; at .high's 160 × 288 0.64 of 5.7; here 0.12 and 0.23).
// Each input plane is split once into phase planes (dnn_layers.hpp), and every output is a run of
// 27 multiply-adds over them, eight output channels at once (eight chains of sums in flight, each
// input loaded once for them), which the compiler vectorises as depthwise_convolution.cpp's loops
// are. onnx.cpp registers it over dnn's "Convolution" type; the outputs are OpenCV's to float
// rounding (the sums are taken in another order; ShimLayerTests). PP-OCR's text detector starts
// with such a layer too, and runs it here.
#include "dnn_layers.hpp"
#include "internal.hpp"

namespace {

#if defined(__x86_64__)
using cfocal::has_avx2_and_fma;
#endif
using cfocal::Phases;

// What this file runs: kChannels input planes, a 3 × 3 kernel padded by one on every side, stride
// 1 or 2, no dilation, no groups.
constexpr int kChannels = 3, kKernel = 3, kTaps = kChannels * kKernel * kKernel;
// Output channels summed together, sharing each input load.
constexpr int kBlock = 8;

// Block of kBlock output channels: bias + the taps over every position of the phase planes' rows
// (tap_at: each tap's first input), into sums (kBlock runs of `count`).
__attribute__((always_inline)) inline void sum_block(const float *const *tap_at, int count, const float *weights,
                                                     const float *bias, float *__restrict sums) {
    // Copied in, so that the compiler knows no store into sums moves a tap or a weight.
    const float *taps[kTaps];
    float w[kBlock * kTaps], b0[kBlock];
    std::copy(tap_at, tap_at + kTaps, taps);
    std::copy(weights, weights + kBlock * kTaps, w);
    std::copy(bias, bias + kBlock, b0);
    for (int n = 0; n < count; ++n) {
        float sum[kBlock];
#pragma clang loop unroll(full)
        for (int b = 0; b < kBlock; ++b) sum[b] = b0[b];
#pragma clang loop unroll(full)
        for (int t = 0; t < kTaps; ++t) {
            const float x = taps[t][n];
#pragma clang loop unroll(full)
            for (int b = 0; b < kBlock; ++b) sum[b] += w[b * kTaps + t] * x;
        }
#pragma clang loop unroll(full)
        for (int b = 0; b < kBlock; ++b) sums[size_t(b) * count + n] = sum[b];
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void sum_block_avx2(const float *const *tap_at, int count, const float *weights,
                                                         const float *bias, float *sums) {
    sum_block(tap_at, count, weights, bias, sums);
}

// The same loop for AVX-512: each sum in the same order, so AVX2's result to the bit.
__attribute__((target("avx512f,avx2,fma"))) void sum_block_avx512(const float *const *tap_at, int count,
                                                                   const float *weights, const float *bias, float *sums) {
    sum_block(tap_at, count, weights, bias, sums);
}
#endif

void sum_block_here(const float *const *tap_at, int count, const float *weights, const float *bias, float *sums) {
#if defined(__x86_64__)
    if (cfocal::has_avx512()) return sum_block_avx512(tap_at, count, weights, bias, sums);
    if (has_avx2_and_fma()) return sum_block_avx2(tap_at, count, weights, bias, sums);
#endif
    sum_block(tap_at, count, weights, bias, sums);
}

class StemConvolution final : public cfocal::ShimConvolution {
  public:
    StemConvolution(const cv::dnn::LayerParams &params, int stride) : ShimConvolution(params), stride_(stride) {}

    bool getMemoryShapes(const std::vector<cv::dnn::MatShape> &inputs, const int, std::vector<cv::dnn::MatShape> &outputs,
                         std::vector<cv::dnn::MatShape> &) const override {
        CV_Assert(inputs.size() == 1 && inputs[0].size() == 4 && inputs[0][1] == kChannels);
        const cv::dnn::MatShape &in = inputs[0];
        outputs.assign(1, cv::dnn::MatShape{in[0], blobs[0].size[0], output_length(in[2]), output_length(in[3])});
        return false;
    }

    // Packs the weights kBlock output channels at a time (a last block short of outputs gets zero
    // kernels, its sums thrown away), with their biases.
    void finalize(cv::InputArrayOfArrays, cv::OutputArrayOfArrays) override {
        const cv::Mat &weights = blobs[0];
        const int outputs = weights.size[0], blocks = (outputs + kBlock - 1) / kBlock;
        packed_.assign(size_t(blocks) * kBlock * kTaps, 0.f);
        bias_.assign(size_t(blocks) * kBlock, 0.f);
        std::copy(weights.ptr<float>(), weights.ptr<float>() + size_t(outputs) * kTaps, packed_.begin());
        if (blobs.size() > 1) std::copy(blobs[1].ptr<float>(), blobs[1].ptr<float>() + outputs, bias_.begin());
    }

  private:
    void run(const cv::Mat &in, cv::Mat &out) override {
        const int rows = in.size[2], cols = in.size[3], out_rows = out.size[2], out_cols = out.size[3];
        const int outputs = out.size[1], blocks = (outputs + kBlock - 1) / kBlock;
        const Phases phases(stride_, rows, cols, kKernel / 2);
        const size_t per_channel = size_t(stride_ * stride_) * phases.plane;
        std::vector<float> planes(kChannels * per_channel);
        for (int image = 0; image < in.size[0]; ++image) {
            for (int c = 0; c < kChannels; ++c)
                cfocal::split_into_phases(in.ptr<float>(image, c), rows, cols, kKernel / 2, stride_, phases,
                                          planes.data() + c * per_channel);
            const float *tap_at[kTaps];
            for (int c = 0; c < kChannels; ++c)
                for (int i = 0; i < kKernel; ++i)
                    for (int j = 0; j < kKernel; ++j)
                        tap_at[(c * kKernel + i) * kKernel + j] = planes.data() + c * per_channel +
                                                                  phases.tap_offset(stride_, i, j);
            const int count = out_rows * phases.cols;
            cv::parallel_for_(cv::Range(0, blocks), [&](const cv::Range &range) {
                std::vector<float> sums(size_t(kBlock) * count);
                for (int block = range.start; block < range.end; ++block) {
                    sum_block_here(tap_at, count, packed_.data() + size_t(block) * kBlock * kTaps,
                                   bias_.data() + size_t(block) * kBlock, sums.data());
                    for (int b = 0; b < kBlock && block * kBlock + b < outputs; ++b)
                        cfocal::crop_rows(sums.data() + size_t(b) * count, phases.cols, relu_,
                                          out.ptr<float>(image, block * kBlock + b), out_rows, out_cols);
                }
            });
        }
    }

    int output_length(int length) const {
        if (length <= 0) return length;
        return (length + 2 * (kKernel / 2) - kKernel) / stride_ + 1;
    }

    int stride_;
    std::vector<float> packed_, bias_;
};

}  // namespace

namespace cfocal {

cv::Ptr<cv::dnn::Layer> stem_convolution_for(const cv::dnn::LayerParams &params) {
    if (params.blobs.empty()) return nullptr;
    const cv::Mat &weights = params.blobs[0];
    if (weights.dims != 4 || weights.type() != CV_32F || !weights.isContinuous() || weights.size[1] != kChannels ||
        weights.size[2] != kKernel || weights.size[3] != kKernel)
        return nullptr;
    if (params.get<int>("group", 1) != 1 || params.get<int>("num_output", weights.size[0]) != weights.size[0]) return nullptr;
    const int stride = same_on_both_axes(params, "stride", 1);
    if ((stride != 1 && stride != 2) || same_on_both_axes(params, "pad", 0) != kKernel / 2 ||
        !all_equal_to(params, "dilation", 1))
        return nullptr;
    if (params.has("pad_mode") && !params.get<cv::String>("pad_mode").empty()) return nullptr;
    if (params.blobs.size() > 1 && params.blobs[1].total() != size_t(weights.size[0])) return nullptr;
    return cv::makePtr<StemConvolution>(params, stride);
}

}  // namespace cfocal
