// Internals shared by the shim's C++ files: error plumbing, views as cv::Mat headers, owned buffers.
#pragma once

#include "CFocal.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace cfocal {

// Thrown inside the shim to leave an entry point with a specific status and message.
struct Failure {
    cfocal_status status;
    std::string message;
};

[[noreturn]] inline void fail(cfocal_status status, std::string message) {
    throw Failure{status, std::move(message)};
}

void set_error(const std::string &message);
void clear_error();

// Runs body, turning every exception into a status and a thread-local message.
template <class Body>
cfocal_status guarded(const char *operation, Body &&body) noexcept {
    try {
        clear_error();
        return body();
    } catch (const Failure &f) {
        set_error(f.message);
        return f.status;
    } catch (const cv::Exception &e) {
        set_error(std::string(operation) + ": OpenCV " + e.func + ": " + e.err);
        return CFOCAL_ERR_OPENCV;
    } catch (const std::bad_alloc &) {
        set_error(std::string(operation) + ": out of memory");
        return CFOCAL_ERR_INTERNAL;
    } catch (const std::exception &e) {
        set_error(std::string(operation) + ": " + e.what());
        return CFOCAL_ERR_INTERNAL;
    } catch (...) {
        set_error(std::string(operation) + ": unknown C++ exception");
        return CFOCAL_ERR_INTERNAL;
    }
}

int plane_count(int32_t format);
int channels(int32_t format);  // of the first plane

// Checks a caller's view: known format, positive size, non-null planes, strides that fit the width.
void validate(const cfocal_image *image, const char *what);

// cv::Mat headers over a view's planes (no copy). Plane 0 is full size; YUV420P's 1 and 2 are half.
std::vector<cv::Mat> planes_of(const cfocal_image &image);
// The single interleaved plane of gray8/bgr8/bgra8 (fails on YUV420P).
cv::Mat packed_of(const cfocal_image &image, const char *operation);
// Plane 0 as gray: the gray8 image itself, or YUV420P's luma.
cv::Mat luma_of(const cfocal_image &image, const char *operation);
// A gray view of any format: the luma without a copy for gray8 and YUV420P, converted for BGR(A).
cv::Mat gray_of(const cfocal_image &image);

cfocal_image view_of_mat(const cv::Mat &mat, int32_t format);

// cv::resize by a factor, as cv::resize(src, dst, cv::Size(), scale, scale, mode) does, except that
// neither side goes below one pixel: a 1 x 5000 image scaled to a 320-pixel working size would
// otherwise ask OpenCV for an empty image, and fail.
void resize_by(const cv::Mat &src, cv::Mat &dst, double scale, int mode);
// plane at half its size, each pixel the mean of 2 × 2 (an odd last row or column dropped): OpenCV
// 4.6's fast path of an area reduction.
cv::Mat halved(const cv::Mat &plane);

// A plane's successive halvings (halved), each taken once and kept: a video frame's luma is halved
// for the quad search's working image and again for each page network input (at .low the same
// two halvings of a 720p luma, a third of a millisecond together).
class Halvings {
  public:
    Halvings() = default;
    explicit Halvings(const cv::Mat &plane) : levels_{plane} {}
    // Whether these are the halvings of plane (the same pixels, not a copy of them).
    bool of(const cv::Mat &plane) const {
        return !levels_.empty() && levels_.front().data == plane.data && levels_.front().size() == plane.size() &&
               levels_.front().step == plane.step;
    }
    // The plane halved `times` times.
    const cv::Mat &halved_times(int times);

  private:
    std::vector<cv::Mat> levels_;
};

// resize_by(halvings' plane, dst, scale, cv::INTER_AREA), taken from the kept halvings where the
// scale is a whole number of them.
void resize_by(Halvings &halvings, cv::Mat &dst, double scale);

// The gray level below which `fraction` of an 8-bit image's pixels lie.
double percentile(const cv::Mat &gray, double fraction);

// The value at quantile q (0…1) of a non-empty list, the lower one between ranks; reorders the
// list (std::nth_element, linear time).
template <typename T>
T quantile_of(std::vector<T> &values, double q) {
    const auto nth = values.begin() + static_cast<long>(q * double(values.size() - 1));
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

// The median of a non-empty list (the upper one of an even count); reorders the list.
template <typename T>
T median_of(std::vector<T> &values) {
    const auto middle = values.begin() + static_cast<long>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

// Lookup tables between video-range luma (16…235) and full-range gray (0…255).
const cv::Mat &video_to_full_range();
const cv::Mat &full_to_video_range();

// A text box's reading frame from its minimum-area rectangle: the unit vector along the longer
// side, pointing right (so boxes read left to right), with the rectangle's length and height.
struct ReadingFrame {
    cv::Point2d center, along;
    double length, height;
    cv::Point2d across() const { return {-along.y, along.x}; }
};
ReadingFrame reading_frame(const cv::Point2f corners[4]);

// The page network's maps (CV_32F): side × side for an image squeezed to a square.
struct PageMaps {
    cv::Mat page, outline;
};
// A YUV420P image's luma is reduced from `luma` where given and of it (Halvings).
PageMaps page_maps(cfocal_page_model *model, const cfocal_image &image, int side, Halvings *luma = nullptr);
// The maps at about the image's own proportions (side along its shorter side), in one pass.
PageMaps page_maps_proportional(cfocal_page_model *model, const cfocal_image &image, int side,
                                Halvings *luma = nullptr);
// The maps in a view (a cfocal_page_view), and their size for an image of width × height.
PageMaps page_maps_in(cfocal_page_model *model, const cfocal_image &image, int side, int32_t view,
                      Halvings *luma = nullptr);
cv::Size page_map_size(int width, int height, int side, int32_t view);

}  // namespace cfocal

// Pixels the shim allocated: a view plus whatever keeps those pixels alive.
struct cfocal_buffer {
    cfocal_image view;
    std::shared_ptr<void> owner;
};

struct cfocal_bytes {
    std::vector<uchar> data;
};

namespace cfocal {
cfocal_buffer *buffer_from_mat(const cv::Mat &mat, int32_t format);
}
