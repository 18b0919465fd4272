// Sharpness: the spread of the 3×3 Laplacian [-1 -1 -1; -1 8 -1; -1 -1 -1].
// In C++ so that the inner loop runs on OpenCV's universal intrinsics (SSE/AVX/NEON): 16-bit
// Laplacian values, squared and pair-summed in 32 bits, one pass over the rows with no float image.
#include "internal.hpp"

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>

using namespace cfocal;

namespace {

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
        for (int y = 1; y < gray.rows - 1; ++y)
            laplacian_row(gray.ptr<uint8_t>(y - 1), gray.ptr<uint8_t>(y), gray.ptr<uint8_t>(y + 1), gray.cols, sum, squares);
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
        std::vector<cv::Point2f> corners, target = {{-0.5f, -0.5f},
                                                    {float(to.cols) - 0.5f, -0.5f},
                                                    {float(to.cols) - 0.5f, float(to.rows) - 0.5f},
                                                    {-0.5f, float(to.rows) - 0.5f}};
        for (int i = 0; i < 4; ++i) corners.emplace_back(float(quad[2 * i]), float(quad[2 * i + 1]));
        cv::Mat h = cv::getPerspectiveTransform(corners, target);
        // Shrinking a large page: blur first so that the warp does not alias.
        double scale = std::min(to.cols / std::max(1.0, cv::norm(corners[1] - corners[0])),
                                to.rows / std::max(1.0, cv::norm(corners[3] - corners[0])));
        cv::Mat source = from;
        if (scale < 0.7) cv::GaussianBlur(from, source, cv::Size(0, 0), 0.45 / scale);
        cv::warpPerspective(source, to, h, to.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        return CFOCAL_OK;
    });
}
}
