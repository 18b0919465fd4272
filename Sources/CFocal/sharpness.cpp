// Sharpness: the spread of the 3×3 Laplacian [-1 -1 -1; -1 8 -1; -1 -1 -1].
// In C++ so that the inner loop runs on OpenCV's universal intrinsics (SSE/AVX/NEON): 16-bit
// Laplacian values, squared and pair-summed in 32 bits, one pass over the rows with no float image.
#include "internal.hpp"

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace cfocal;

namespace {

#if defined(__x86_64__)
// AVX2 path, chosen at run time (Debian builds for a baseline without AVX2, and a library target
// cannot pass -mavx2). Each input row's horizontal 3-sums are computed once into a rolling
// three-row buffer; every output pixel then costs three 16-bit loads and adds, its centre, and
// two multiply-adds (sum and sum of squares) into 32-bit lanes widened to 64 bits every 64 steps.
// 32 pixels a step, widened with in-lane unpacks. The unpacks permute pixels within each vector,
// but every row and the centre use the same permutation, and sums do not care about order.
__attribute__((target("avx2"))) void horizontal_avx2(const uint8_t *r, int w, int16_t *out) {
    const __m256i zero = _mm256_setzero_si256();
    int x = 1;
    for (; x + 32 <= w - 1; x += 32) {
        __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(r + x - 1));
        __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(r + x));
        __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(r + x + 1));
        __m256i low = _mm256_add_epi16(_mm256_add_epi16(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero)),
                                       _mm256_unpacklo_epi8(c, zero));
        __m256i high = _mm256_add_epi16(_mm256_add_epi16(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero)),
                                        _mm256_unpackhi_epi8(c, zero));
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + x), low);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + x + 16), high);
    }
    for (; x < w - 1; ++x) out[x] = int16_t(r[x - 1] + r[x] + r[x + 1]);
}

// Widens the 32-bit lane sums into the 64-bit totals and clears them.
__attribute__((target("avx2"))) void flush_avx2(__m256i &acc_sum, __m256i &acc_squares, __m256i &sum64, __m256i &squares64) {
    sum64 = _mm256_add_epi64(sum64, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc_sum)));
    sum64 = _mm256_add_epi64(sum64, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(acc_sum, 1)));
    squares64 = _mm256_add_epi64(squares64, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc_squares)));
    squares64 = _mm256_add_epi64(squares64, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(acc_squares, 1)));
    acc_sum = _mm256_setzero_si256();
    acc_squares = _mm256_setzero_si256();
}

__attribute__((target("avx2"))) void laplacian_avx2(const cv::Mat &gray, int64_t &sum, int64_t &squares) {
    const int w = gray.cols, h = gray.rows;
    const int stride = ((w + 15) & ~15) + 16;
    std::vector<int16_t> rows(size_t(3 * stride));
    horizontal_avx2(gray.ptr<uint8_t>(0), w, &rows[0]);
    horizontal_avx2(gray.ptr<uint8_t>(1), w, &rows[size_t(stride)]);
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i sum64 = _mm256_setzero_si256(), squares64 = _mm256_setzero_si256();
    int64_t tail_sum = 0, tail_squares = 0;
    for (int y = 1; y < h - 1; ++y) {
        const int16_t *above = &rows[size_t(((y - 1) % 3) * stride)], *middle = &rows[size_t((y % 3) * stride)];
        int16_t *below = &rows[size_t(((y + 1) % 3) * stride)];
        horizontal_avx2(gray.ptr<uint8_t>(y + 1), w, below);
        const uint8_t *centre = gray.ptr<uint8_t>(y);
        __m256i acc_sum = _mm256_setzero_si256(), acc_squares = _mm256_setzero_si256();
        int steps = 0, x = 1;
        const __m256i zero = _mm256_setzero_si256();
        for (; x + 32 <= w - 1; x += 32) {
            __m256i centre_bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(centre + x));
            for (int half = 0; half < 2; ++half) {
                const int at = x + 16 * half;
                __m256i box = _mm256_add_epi16(
                    _mm256_add_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(above + at)),
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i *>(middle + at))),
                    _mm256_loadu_si256(reinterpret_cast<const __m256i *>(below + at)));
                __m256i c = half == 0 ? _mm256_unpacklo_epi8(centre_bytes, zero) : _mm256_unpackhi_epi8(centre_bytes, zero);
                __m256i value = _mm256_sub_epi16(_mm256_add_epi16(_mm256_slli_epi16(c, 3), c), box);
                acc_sum = _mm256_add_epi32(acc_sum, _mm256_madd_epi16(value, ones));
                acc_squares = _mm256_add_epi32(acc_squares, _mm256_madd_epi16(value, value));  // lanes ≤ 2·2040² a half-step
            }
            if (++steps == 32) {
                flush_avx2(acc_sum, acc_squares, sum64, squares64);
                steps = 0;
            }
        }
        flush_avx2(acc_sum, acc_squares, sum64, squares64);
        for (; x < w - 1; ++x) {
            int value = 9 * centre[x] - (above[x] + middle[x] + below[x]);
            tail_sum += value;
            tail_squares += int64_t(value) * value;
        }
    }
    alignas(32) int64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), sum64);
    sum += lanes[0] + lanes[1] + lanes[2] + lanes[3] + tail_sum;
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), squares64);
    squares += lanes[0] + lanes[1] + lanes[2] + lanes[3] + tail_squares;
}

bool has_avx2() {
    static const bool available = __builtin_cpu_supports("avx2");
    return available;
}
#endif

// Sum and sum of squares of 9·c − (3×3 box sum) over row y's interior pixels.
inline void laplacian_row(const uint8_t *above, const uint8_t *centre, const uint8_t *below, int width,
                          int64_t &sum, int64_t &squares) {
    int x = 1;
    int64_t row_sum = 0, row_squares = 0;
#if CV_SIMD
    const int lanes = cv::v_int16::nlanes;
    cv::v_int32 acc_sum = cv::vx_setzero_s32(), acc_sq = cv::vx_setzero_s32();
    int chunk = 0;
    for (; x + lanes <= width - 1; x += lanes) {
        cv::v_uint16 a0, a1, a2, b0, b1, b2, c0, c1, c2;
        a0 = cv::vx_load_expand(above + x - 1);
        a1 = cv::vx_load_expand(above + x);
        a2 = cv::vx_load_expand(above + x + 1);
        b0 = cv::vx_load_expand(centre + x - 1);
        b1 = cv::vx_load_expand(centre + x);
        b2 = cv::vx_load_expand(centre + x + 1);
        c0 = cv::vx_load_expand(below + x - 1);
        c1 = cv::vx_load_expand(below + x);
        c2 = cv::vx_load_expand(below + x + 1);
        cv::v_uint16 box = a0 + a1 + a2 + b0 + b1 + b2 + c0 + c1 + c2;  // ≤ 2295: fits in 16 bits
        cv::v_int16 value = cv::v_reinterpret_as_s16(b1 * cv::vx_setall_u16(9)) - cv::v_reinterpret_as_s16(box);
        acc_sum += cv::v_dotprod(value, cv::vx_setall_s16(1));
        acc_sq += cv::v_dotprod(value, value);  // each lane ≤ 2 · 2040² per step
        // v_reduce_sum adds the lanes in 32 bits: 16 steps × 2 · 2040² × up to 16 lanes < 2^31.
        if (++chunk == 16) {
            row_sum += cv::v_reduce_sum(acc_sum);
            row_squares += cv::v_reduce_sum(acc_sq);
            acc_sum = cv::vx_setzero_s32();
            acc_sq = cv::vx_setzero_s32();
            chunk = 0;
        }
    }
    row_sum += cv::v_reduce_sum(acc_sum);
    row_squares += cv::v_reduce_sum(acc_sq);
#endif
    for (; x < width - 1; ++x) {
        int box = above[x - 1] + above[x] + above[x + 1] + centre[x - 1] + centre[x] + centre[x + 1] + below[x - 1] +
                  below[x] + below[x + 1];
        int value = 9 * centre[x] - box;
        row_sum += value;
        row_squares += int64_t(value) * value;
    }
    sum += row_sum;
    squares += row_squares;
}

}  // namespace

extern "C" {

cfocal_status cfocal_laplacian_variance(const cfocal_image *image, double *mean, double *variance) {
    return guarded("laplacian variance", [&] {
        validate(image, "laplacian variance");
        cv::Mat gray = luma_of(*image, "laplacian variance");
        if (gray.rows < 3 || gray.cols < 3) fail(CFOCAL_ERR_EMPTY, "laplacian variance: image smaller than 3x3");
        int64_t sum = 0, squares = 0;
#if defined(__x86_64__)
        if (has_avx2() && gray.cols >= 18) {
            laplacian_avx2(gray, sum, squares);
        } else
#endif
        {
            for (int y = 1; y < gray.rows - 1; ++y)
                laplacian_row(gray.ptr<uint8_t>(y - 1), gray.ptr<uint8_t>(y), gray.ptr<uint8_t>(y + 1), gray.cols, sum, squares);
        }
        double n = double(gray.rows - 2) * double(gray.cols - 2);
        double m = double(sum) / n;
        if (mean) *mean = m;
        if (variance) *variance = double(squares) / n - m * m;
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_laplacian_variance_reference(const cfocal_image *image, double *mean, double *variance) {
    return guarded("laplacian variance (OpenCV)", [&] {
        validate(image, "laplacian variance");
        cv::Mat gray = luma_of(*image, "laplacian variance");
        if (gray.rows < 3 || gray.cols < 3) fail(CFOCAL_ERR_EMPTY, "laplacian variance: image smaller than 3x3");
        cv::Mat kernel = (cv::Mat_<double>(3, 3) << -1, -1, -1, -1, 8, -1, -1, -1, -1);
        cv::Mat laplacian;
        cv::filter2D(gray, laplacian, CV_64F, kernel);
        cv::Scalar m, s;
        cv::meanStdDev(laplacian(cv::Rect(1, 1, gray.cols - 2, gray.rows - 2)), m, s);
        if (mean) *mean = m[0];
        if (variance) *variance = s[0] * s[0];
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_laplacian_image(const cfocal_image *image, const cfocal_image *dst, double gamma) {
    return guarded("laplacian image", [&] {
        validate(image, "laplacian image");
        validate(dst, "laplacian image");
        cv::Mat gray = luma_of(*image, "laplacian image"), out = luma_of(*dst, "laplacian image");
        if (out.size() != gray.size()) fail(CFOCAL_ERR_INVALID_ARGUMENT, "laplacian image: sizes differ");
        cv::Mat kernel = (cv::Mat_<float>(3, 3) << -1, -1, -1, -1, 8, -1, -1, -1, -1);
        cv::Mat laplacian;
        cv::filter2D(gray, laplacian, CV_16S, kernel);
        cv::Mat magnitude = cv::abs(laplacian);
        cv::Mat clipped;
        magnitude.convertTo(clipped, CV_8U);  // saturates at 255
        cv::Mat table(1, 256, CV_8U);
        double g = gamma > 0 ? gamma : 1;
        for (int i = 0; i < 256; ++i) table.at<uint8_t>(i) = cv::saturate_cast<uint8_t>(255.0 * std::pow(i / 255.0, g));
        cv::LUT(clipped, table, out);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_rectify_quad(const cfocal_image *src, const double quad[8], const cfocal_image *dst) {
    return guarded("rectify quad", [&] {
        validate(src, "rectify quad");
        validate(dst, "rectify quad");
        if (src->format != dst->format) fail(CFOCAL_ERR_INVALID_ARGUMENT, "rectify quad: formats differ");
        cv::Mat from = packed_of(*src, "rectify quad"), to = packed_of(*dst, "rectify quad");
        std::vector<cv::Point2f> corners;
        for (int i = 0; i < 4; ++i) corners.emplace_back(float(quad[2 * i]), float(quad[2 * i + 1]));
        // Work on the quad's bounding box only (with a margin for the blur and interpolation).
        cv::Rect box = cv::boundingRect(corners);
        box = cv::Rect(box.x - 4, box.y - 4, box.width + 9, box.height + 9) & cv::Rect(0, 0, from.cols, from.rows);
        if (box.empty()) fail(CFOCAL_ERR_INVALID_ARGUMENT, "rectify quad: the quad lies outside the image");
        for (auto &c : corners) c -= cv::Point2f(float(box.x), float(box.y));
        std::vector<cv::Point2f> target = {{-0.5f, -0.5f},
                                           {float(to.cols) - 0.5f, -0.5f},
                                           {float(to.cols) - 0.5f, float(to.rows) - 0.5f},
                                           {-0.5f, float(to.rows) - 0.5f}};
        cv::Mat h = cv::getPerspectiveTransform(corners, target);
        // Shrinking a large page: blur first so that the warp does not alias.
        double scale = std::min(to.cols / std::max(1.0, double(cv::norm(corners[1] - corners[0]))),
                                to.rows / std::max(1.0, double(cv::norm(corners[3] - corners[0]))));
        cv::Mat source = from(box);
        if (scale < 0.7) {
            cv::Mat blurred;
            cv::GaussianBlur(source, blurred, cv::Size(0, 0), 0.45 / scale);
            source = blurred;
        }
        cv::warpPerspective(source, to, h, to.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        return CFOCAL_OK;
    });
}
}
