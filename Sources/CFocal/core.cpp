// Error state, view validation, process-wide settings and the buffer/bytes handles every other
// file returns.
#include "internal.hpp"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgproc.hpp>

#include <climits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {
thread_local std::string last_error;

// OpenCV logs warnings about odd input to stderr; Focal reports them as errors instead.
const bool silenced = [] {
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_ERROR);
    return true;
}();
}  // namespace

namespace cfocal {

void set_error(const std::string &message) { last_error = message; }
void clear_error() { last_error.clear(); }

int plane_count(int32_t format) { return format == CFOCAL_YUV420P ? 3 : 1; }

int channels(int32_t format) {
    switch (format) {
    case CFOCAL_BGR8: return 3;
    case CFOCAL_BGRA8: return 4;
    default: return 1;
    }
}

void validate(const cfocal_image *image, const char *what) {
    if (image == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(what) + ": no image");
    if (image->format < CFOCAL_GRAY8 || image->format > CFOCAL_YUV420P)
        fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(what) + ": unknown pixel format");
    if (image->width <= 0 || image->height <= 0)
        fail(CFOCAL_ERR_EMPTY, std::string(what) + ": the image is " + std::to_string(image->width) + "x" +
                                   std::to_string(image->height) + " pixels");
    for (int p = 0; p < plane_count(image->format); ++p) {
        int w = p == 0 ? image->width : (image->width + 1) / 2;
        size_t minimum = size_t(w) * size_t(p == 0 ? channels(image->format) : 1);
        if (image->planes[p] == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(what) + ": missing plane");
        if (image->row_bytes[p] < minimum)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(what) + ": row bytes smaller than the row");
    }
}

std::vector<cv::Mat> planes_of(const cfocal_image &image) {
    std::vector<cv::Mat> planes;
    if (image.format == CFOCAL_YUV420P) {
        int cw = (image.width + 1) / 2, ch = (image.height + 1) / 2;
        planes.emplace_back(image.height, image.width, CV_8UC1, image.planes[0], image.row_bytes[0]);
        planes.emplace_back(ch, cw, CV_8UC1, image.planes[1], image.row_bytes[1]);
        planes.emplace_back(ch, cw, CV_8UC1, image.planes[2], image.row_bytes[2]);
    } else {
        planes.emplace_back(image.height, image.width, CV_8UC(channels(image.format)), image.planes[0],
                            image.row_bytes[0]);
    }
    return planes;
}

cv::Mat packed_of(const cfocal_image &image, const char *operation) {
    if (image.format == CFOCAL_YUV420P)
        fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(operation) + ": needs gray8, bgr8 or bgra8, not yuv420p");
    return planes_of(image)[0];
}

cv::Mat luma_of(const cfocal_image &image, const char *operation) {
    if (image.format != CFOCAL_GRAY8 && image.format != CFOCAL_YUV420P)
        fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(operation) + ": needs gray8 or yuv420p");
    return planes_of(image)[0];
}

cv::Mat gray_of(const cfocal_image &image) {
    if (image.format == CFOCAL_GRAY8 || image.format == CFOCAL_YUV420P) return planes_of(image)[0];
    cv::Mat gray;
    cv::cvtColor(planes_of(image)[0], gray, image.format == CFOCAL_BGR8 ? cv::COLOR_BGR2GRAY : cv::COLOR_BGRA2GRAY);
    return gray;
}

namespace {

// Whether an area reduction by scale is k ≥ 2 halvings of src (scale 1/4, 1/8, … and sides that
// 2^k divides).
int halvings_for(const cv::Mat &src, double scale) {
    for (int k = 2, factor = 4; factor <= 64; ++k, factor *= 2)
        if (std::abs(scale * factor - 1) < 1e-9) return src.cols % factor == 0 && src.rows % factor == 0 ? k : 0;
    return 0;
}

}  // namespace

cv::Mat halved(const cv::Mat &plane) {
    cv::Mat half;
    cv::resize(plane(cv::Rect(0, 0, plane.cols & ~1, plane.rows & ~1)), half, cv::Size(plane.cols / 2, plane.rows / 2),
               0, 0, cv::INTER_AREA);
    return half;
}

const cv::Mat &Halvings::halved_times(int times) {
    while (int(levels_.size()) <= times) levels_.push_back(halved(levels_.back()));
    return levels_[size_t(times)];
}

void resize_by(Halvings &halvings, cv::Mat &dst, double scale) {
    const cv::Mat &plane = halvings.halved_times(0);
    if (const int times = halvings_for(plane, scale)) dst = halvings.halved_times(times);
    else resize_by(plane, dst, scale, cv::INTER_AREA);
}

void resize_by(const cv::Mat &src, cv::Mat &dst, double scale, int mode) {
    // OpenCV 4.6 halves by area in a fast path (0.05 ms a 720p plane) but takes 0.7 ms to quarter
    // it in one step; successive halvings give the same means but for rounding between them.
    if (const int halvings = mode == cv::INTER_AREA ? halvings_for(src, scale) : 0) {
        cv::Mat plane = src;
        for (int k = 0; k < halvings; ++k) plane = halved(plane);
        dst = plane;
        return;
    }
    const cv::Size exact(cvRound(src.cols * scale), cvRound(src.rows * scale));
    if (exact.width >= 1 && exact.height >= 1) cv::resize(src, dst, cv::Size(), scale, scale, mode);
    else cv::resize(src, dst, cv::Size(std::max(1, exact.width), std::max(1, exact.height)), 0, 0, mode);
}

double percentile(const cv::Mat &gray, double fraction) {
    int channels[] = {0}, size[] = {256};
    float range[] = {0, 256};
    const float *ranges[] = {range};
    cv::Mat histogram;
    cv::calcHist(&gray, 1, channels, cv::Mat(), histogram, 1, size, ranges);
    double target = fraction * gray.total(), seen = 0;
    for (int i = 0; i < 256; ++i) {
        seen += histogram.at<float>(i);
        if (seen >= target) return i;
    }
    return 255;
}

ReadingFrame reading_frame(const cv::Point2f corners[4]) {
    const cv::Point2d a = corners[1] - corners[0], b = corners[2] - corners[1];
    cv::Point2d along = cv::norm(a) >= cv::norm(b) ? a : b;
    along *= 1.0 / std::max(1e-9, cv::norm(along));
    if (along.x < 0 || (along.x == 0 && along.y > 0)) along = -along;
    return {(cv::Point2d(corners[0]) + cv::Point2d(corners[2])) * 0.5, along, std::max(cv::norm(a), cv::norm(b)),
            std::min(cv::norm(a), cv::norm(b))};
}

cfocal_image view_of_mat(const cv::Mat &mat, int32_t format) {
    cfocal_image view{};
    view.width = mat.cols;
    view.height = mat.rows;
    view.format = format;
    view.planes[0] = mat.data;
    view.row_bytes[0] = mat.step[0];
    return view;
}

cfocal_buffer *buffer_from_mat(const cv::Mat &mat, int32_t format) {
    auto owner = std::make_shared<cv::Mat>(mat);
    auto *buffer = new cfocal_buffer{view_of_mat(*owner, format), owner};
    return buffer;
}

}  // namespace cfocal

extern "C" {

const char *cfocal_last_error(void) { return last_error.c_str(); }

void cfocal_set_threads(int32_t threads) {
    try {
        cv::setNumThreads(threads > 0 ? threads : -1);
    } catch (...) {
    }
}

int32_t cfocal_keep_freed_memory(int64_t heap_block_limit, int64_t trim_limit) {
#if defined(__GLIBC__)
    auto fits = [](int64_t value) { return value >= 0 && value <= INT32_MAX; };
    if (!fits(heap_block_limit) || !fits(trim_limit)) return 0;
    const int kept = mallopt(M_MMAP_THRESHOLD, int(heap_block_limit));
    return kept && mallopt(M_TRIM_THRESHOLD, int(trim_limit)) ? 1 : 0;
#else
    (void)heap_block_limit;
    (void)trim_limit;
    return 0;
#endif
}

void cfocal_buffer_free(cfocal_buffer *buffer) { delete buffer; }

cfocal_image cfocal_buffer_view(const cfocal_buffer *buffer) { return buffer->view; }

void cfocal_bytes_free(cfocal_bytes *bytes) { delete bytes; }
const uint8_t *cfocal_bytes_data(const cfocal_bytes *bytes) { return bytes->data.data(); }
size_t cfocal_bytes_count(const cfocal_bytes *bytes) { return bytes->data.size(); }
}
