// Variance of the 3×3 Laplacian [-1 -1 -1; -1 8 -1; -1 -1 -1] in one pass over the rows, without
// the float image that cv::Laplacian + cv::meanStdDev build. In C++ so the inner loop vectorises.
#include "internal.hpp"

using namespace cfocal;

extern "C" {

cfocal_status cfocal_laplacian_variance(const cfocal_image *image, double *mean, double *variance) {
    return guarded("laplacian variance", [&] {
        validate(image, "laplacian variance");
        cv::Mat gray = luma_of(*image, "laplacian variance");
        if (gray.rows < 3 || gray.cols < 3) fail(CFOCAL_ERR_EMPTY, "laplacian variance: image smaller than 3x3");
        const int w = gray.cols;
        int64_t sum = 0;
        uint64_t sum_sq = 0;
        std::vector<int32_t> row_sums(size_t(w) * 3);  // horizontal 3-sums of three consecutive rows
        auto horizontal = [&](int y, int32_t *out) {
            const uint8_t *r = gray.ptr<uint8_t>(y);
            for (int x = 1; x < w - 1; ++x) out[x] = int32_t(r[x - 1]) + r[x] + r[x + 1];
        };
        horizontal(0, &row_sums[0]);
        horizontal(1, &row_sums[size_t(w)]);
        for (int y = 1; y < gray.rows - 1; ++y) {
            int32_t *above = &row_sums[size_t((y - 1) % 3) * w];
            int32_t *middle = &row_sums[size_t(y % 3) * w];
            int32_t *below = &row_sums[size_t((y + 1) % 3) * w];
            horizontal(y + 1, below);
            const uint8_t *centre = gray.ptr<uint8_t>(y);
            int64_t row_sum = 0;
            int64_t row_sq = 0;
            for (int x = 1; x < w - 1; ++x) {
                int32_t value = 9 * int32_t(centre[x]) - (above[x] + middle[x] + below[x]);
                row_sum += value;
                row_sq += int64_t(value) * value;
            }
            sum += row_sum;
            sum_sq += uint64_t(row_sq);
        }
        double n = double(gray.rows - 2) * double(w - 2);
        double m = double(sum) / n;
        if (mean) *mean = m;
        if (variance) *variance = double(sum_sq) / n - m * m;
        return CFOCAL_OK;
    });
}
}
