// Pointwise (1 × 1) convolutions, run here rather than by OpenCV 4.6's dnn, which reaches about 40 %
// of a core's AVX2 multiply-adds on the page networks' small maps (16 to 480 channels, 60 to 3840
// pixels). Each output is a sum over the input channels at one pixel, so the layer is a matrix
// product: blocks of six output channels by sixteen pixels are summed in twelve AVX2 registers
// while the input channels stream past, the weights packed once per block (6 × 16 did better than
// 4 × 24, 8 × 8 and 12 × 8 on every layer). About twice OpenCV's speed on each such layer of the page
// networks (16 → 96 channels on 3840 pixels: 0.27 → 0.13 ms); machines without AVX2 and FMA get
// OpenCV's own layer. Machines with AVX-512 sum blocks of six by thirty-two pixels in its registers,
// twice as wide (with the depthwise layers' AVX-512 code, the page network at .low's 96 × 160 1.84 →
// 1.43 ms, at .high's 160 × 288 3.9 → 3.0 ms; the same maps to the bit).
#include "dnn_layers.hpp"
#include "internal.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

#if defined(__x86_64__)
using cfocal::has_avx2_and_fma;

constexpr int kRows = 6;     // output channels a block sums at once
constexpr int kColumns = 16; // pixels a block sums at once: two AVX2 registers

// The lanes of a 16-pixel run that exist: all where count is 16, the first count otherwise.
__attribute__((target("avx2,fma"))) inline __m256i lanes_below(int count) {
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), index);
}

// out[r][p] = bias[r] + Σ_c weights[c][r] · in[c][p] for Rows channels r and `count` (≤ 16) pixels
// p, then ReLU where asked. in and out step by `plane` floats from one channel to the next;
// weights are packed channel by channel, Rows (of kRows) values each.
template <int Rows>
__attribute__((target("avx2,fma"))) void sum_block(const float *in, int channels, size_t plane, const float *weights,
                                                   const float *bias, bool relu, float *out, int count) {
    __m256 sums[Rows][2];
    for (int r = 0; r < Rows; ++r) sums[r][0] = sums[r][1] = _mm256_set1_ps(bias[r]);
    const bool whole = count == kColumns;
    const __m256i first = lanes_below(count), second = lanes_below(count - 8);
    for (int c = 0; c < channels; ++c, in += plane, weights += kRows) {
        const __m256 a = whole ? _mm256_loadu_ps(in) : _mm256_maskload_ps(in, first);
        const __m256 b = whole ? _mm256_loadu_ps(in + 8) : _mm256_maskload_ps(in + 8, second);
        for (int r = 0; r < Rows; ++r) {
            const __m256 w = _mm256_broadcast_ss(weights + r);
            sums[r][0] = _mm256_fmadd_ps(w, a, sums[r][0]);
            sums[r][1] = _mm256_fmadd_ps(w, b, sums[r][1]);
        }
    }
    for (int r = 0; r < Rows; ++r, out += plane) {
        __m256 a = sums[r][0], b = sums[r][1];
        if (relu) {
            a = _mm256_max_ps(a, _mm256_setzero_ps());
            b = _mm256_max_ps(b, _mm256_setzero_ps());
        }
        if (whole) {
            _mm256_storeu_ps(out, a);
            _mm256_storeu_ps(out + 8, b);
        } else {
            _mm256_maskstore_ps(out, first, a);
            _mm256_maskstore_ps(out + 8, second, b);
        }
    }
}

constexpr int kWideColumns = 32;  // pixels a block sums at once with AVX-512: two of its registers

// sum_block's sums for up to 32 pixels in AVX-512 registers: each pixel's sum is taken in the same
// order of the same fused multiply-adds, so the maps are the same to the bit as AVX2's.
template <int Rows>
__attribute__((target("avx512f,avx2,fma"))) void sum_wide_block(const float *in, int channels, size_t plane,
                                                                 const float *weights, const float *bias, bool relu,
                                                                 float *out, int count) {
    __m512 sums[Rows][2];
    for (int r = 0; r < Rows; ++r) sums[r][0] = sums[r][1] = _mm512_set1_ps(bias[r]);
    const bool whole = count == kWideColumns;
    const __mmask16 first = count >= 16 ? __mmask16(0xffff) : __mmask16((1u << count) - 1);
    const __mmask16 second = count <= 16 ? __mmask16(0) : count >= 32 ? __mmask16(0xffff) : __mmask16((1u << (count - 16)) - 1);
    for (int c = 0; c < channels; ++c, in += plane, weights += kRows) {
        const __m512 a = whole ? _mm512_loadu_ps(in) : _mm512_maskz_loadu_ps(first, in);
        const __m512 b = whole ? _mm512_loadu_ps(in + 16) : _mm512_maskz_loadu_ps(second, in + 16);
        for (int r = 0; r < Rows; ++r) {
            const __m512 w = _mm512_set1_ps(weights[r]);
            sums[r][0] = _mm512_fmadd_ps(w, a, sums[r][0]);
            sums[r][1] = _mm512_fmadd_ps(w, b, sums[r][1]);
        }
    }
    for (int r = 0; r < Rows; ++r, out += plane) {
        __m512 a = sums[r][0], b = sums[r][1];
        if (relu) {
            a = _mm512_max_ps(a, _mm512_setzero_ps());
            b = _mm512_max_ps(b, _mm512_setzero_ps());
        }
        _mm512_mask_storeu_ps(out, first, a);
        _mm512_mask_storeu_ps(out + 16, second, b);
    }
}

using SumBlock = void (*)(const float *, int, size_t, const float *, const float *, bool, float *, int);
constexpr SumBlock kSumBlocks[kRows + 1] = {nullptr,          sum_block<1>, sum_block<2>, sum_block<3>,
                                            sum_block<4>, sum_block<5>, sum_block<6>};
constexpr SumBlock kSumWideBlocks[kRows + 1] = {nullptr,           sum_wide_block<1>, sum_wide_block<2>,
                                                sum_wide_block<3>, sum_wide_block<4>, sum_wide_block<5>,
                                                sum_wide_block<6>};

class PointwiseConvolution final : public cfocal::ShimConvolution {
  public:
    explicit PointwiseConvolution(const cv::dnn::LayerParams &params) : ShimConvolution(params) {}

    bool getMemoryShapes(const std::vector<cv::dnn::MatShape> &inputs, const int, std::vector<cv::dnn::MatShape> &outputs,
                         std::vector<cv::dnn::MatShape> &) const override {
        CV_Assert(inputs.size() == 1 && inputs[0].size() == 4 && inputs[0][1] == blobs[0].size[1]);
        outputs.assign(1, cv::dnn::MatShape{inputs[0][0], blobs[0].size[0], inputs[0][2], inputs[0][3]});
        return false;
    }

    // Packs the weights (after the shim may have turned the kernels, which leaves 1 × 1 ones as they
    // are): block by block of kRows output channels, input channel by input channel.
    void finalize(cv::InputArrayOfArrays, cv::OutputArrayOfArrays) override {
        const cv::Mat weights = blobs[0].reshape(1, blobs[0].size[0]);  // outputs × inputs
        const int outputs = weights.rows, inputs = weights.cols;
        packed_.assign(size_t((outputs + kRows - 1) / kRows) * inputs * kRows, 0.f);
        for (int o = 0; o < outputs; ++o)
            for (int c = 0; c < inputs; ++c)
                packed_[(size_t(o / kRows) * inputs + c) * kRows + o % kRows] = weights.at<float>(o, c);
        bias_.assign(size_t(outputs), 0.f);
        if (blobs.size() > 1) std::copy(blobs[1].ptr<float>(), blobs[1].ptr<float>() + outputs, bias_.begin());
    }

  private:
    void run(const cv::Mat &in, cv::Mat &out) override {
        const int batch = in.size[0], channels = in.size[1], outputs_count = out.size[1];
        const size_t plane = size_t(in.size[2]) * in.size[3];
        const bool wide = cfocal::has_avx512();
        const int columns = wide ? kWideColumns : kColumns;
        const SumBlock *blocks = wide ? kSumWideBlocks : kSumBlocks;
        const int runs = int((plane + columns - 1) / columns);
        cv::parallel_for_(cv::Range(0, batch * runs), [&](const cv::Range &range) {
            for (int job = range.start; job < range.end; ++job) {
                const int image = job / runs;
                const size_t first = size_t(job % runs) * columns;
                const int count = int(std::min<size_t>(columns, plane - first));
                const float *from = in.ptr<float>(image) + first;
                for (int o = 0; o < outputs_count; o += kRows) {
                    const int rows = std::min(kRows, outputs_count - o);
                    blocks[rows](from, channels, plane, packed_.data() + size_t(o) * channels, bias_.data() + o, relu_,
                                 out.ptr<float>(image, o) + first, count);
                }
            }
        });
    }

    std::vector<float> packed_, bias_;
};
#endif

}  // namespace

namespace cfocal {

cv::Ptr<cv::dnn::Layer> pointwise_convolution_for(const cv::dnn::LayerParams &params) {
#if defined(__x86_64__)
    if (!has_avx2_and_fma() || params.blobs.empty()) return nullptr;
    const cv::Mat &weights = params.blobs[0];
    if (weights.dims != 4 || weights.type() != CV_32F || weights.size[2] != 1 || weights.size[3] != 1) return nullptr;
    if (params.get<int>("group", 1) != 1 || params.get<int>("num_output", weights.size[0]) != weights.size[0]) return nullptr;
    if (!all_equal_to(params, "stride", 1) || !all_equal_to(params, "pad", 0) || !all_equal_to(params, "dilation", 1))
        return nullptr;
    if (params.has("pad_mode") && !params.get<cv::String>("pad_mode").empty()) return nullptr;
    if (params.blobs.size() > 1 && params.blobs[1].total() != size_t(weights.size[0])) return nullptr;
    return cv::makePtr<PointwiseConvolution>(params);
#else
    (void)params;
    return nullptr;
#endif
}

}  // namespace cfocal
