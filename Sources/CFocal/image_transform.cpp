// Pixel-format conversion, resizing and EXIF orientation.
// YUV 4:2:0 goes through libswscale, which takes any stride and odd sizes; OpenCV's I420 paths need
// one contiguous buffer. Packed formats go through cv::cvtColor.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <cmath>

extern "C" {
#include <libswscale/swscale.h>
}

using namespace cfocal;

namespace {

AVPixelFormat av_format(int32_t format) {
    switch (format) {
    case CFOCAL_GRAY8: return AV_PIX_FMT_GRAY8;
    case CFOCAL_BGR8: return AV_PIX_FMT_BGR24;
    case CFOCAL_BGRA8: return AV_PIX_FMT_BGRA;
    default: return AV_PIX_FMT_YUV420P;
    }
}

// BT.601 video range in integers, for images too narrow for libswscale's vector paths (which
// are visibly wrong below about 16 pixels).
inline uint8_t clamp8(int v) { return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }

void exact_convert(const cfocal_image &src, const cfocal_image &dst) {
    auto from = planes_of(src), to = planes_of(dst);
    int w = src.width, h = src.height;
    if (src.format == CFOCAL_YUV420P) {
        int channels_out = channels(dst.format);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                int c = from[0].at<uint8_t>(y, x) - 16, d = from[1].at<uint8_t>(y / 2, x / 2) - 128,
                    e = from[2].at<uint8_t>(y / 2, x / 2) - 128;
                uint8_t *out = to[0].ptr<uint8_t>(y) + x * channels_out;
                out[0] = clamp8((298 * c + 516 * d + 128) >> 8);
                out[1] = clamp8((298 * c - 100 * d - 208 * e + 128) >> 8);
                out[2] = clamp8((298 * c + 409 * e + 128) >> 8);
                if (channels_out == 4) out[3] = 255;
            }
        return;
    }
    int channels_in = channels(src.format);
    for (int cy = 0; cy < (h + 1) / 2; ++cy)
        for (int cx = 0; cx < (w + 1) / 2; ++cx) {
            int su = 0, sv = 0, n = 0;
            for (int y = 2 * cy; y < std::min(h, 2 * cy + 2); ++y)
                for (int x = 2 * cx; x < std::min(w, 2 * cx + 2); ++x) {
                    const uint8_t *in = from[0].ptr<uint8_t>(y) + x * channels_in;
                    int b = in[0], g = in[1], r = in[2];
                    to[0].at<uint8_t>(y, x) = clamp8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
                    su += ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
                    sv += ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
                    ++n;
                }
            to[1].at<uint8_t>(cy, cx) = clamp8((su + n / 2) / n);
            to[2].at<uint8_t>(cy, cx) = clamp8((sv + n / 2) / n);
        }
}

void swscale_convert(const cfocal_image &src, const cfocal_image &dst) {
    if (src.width < 16 || src.height < 2) return exact_convert(src, dst);
    SwsContext *context = sws_getContext(src.width, src.height, av_format(src.format), dst.width, dst.height,
                                         av_format(dst.format), SWS_BILINEAR, nullptr, nullptr, nullptr);
    if (context == nullptr) fail(CFOCAL_ERR_UNSUPPORTED, "convert image: libswscale has no such conversion");
    const uint8_t *src_planes[4] = {src.planes[0], src.planes[1], src.planes[2], nullptr};
    int src_strides[4] = {int(src.row_bytes[0]), int(src.row_bytes[1]), int(src.row_bytes[2]), 0};
    uint8_t *dst_planes[4] = {dst.planes[0], dst.planes[1], dst.planes[2], nullptr};
    int dst_strides[4] = {int(dst.row_bytes[0]), int(dst.row_bytes[1]), int(dst.row_bytes[2]), 0};
    sws_scale(context, src_planes, src_strides, 0, src.height, dst_planes, dst_strides);
    sws_freeContext(context);
}

int cvt_code(int32_t from, int32_t to) {
    if (from == CFOCAL_GRAY8 && to == CFOCAL_BGR8) return cv::COLOR_GRAY2BGR;
    if (from == CFOCAL_GRAY8 && to == CFOCAL_BGRA8) return cv::COLOR_GRAY2BGRA;
    if (from == CFOCAL_BGR8 && to == CFOCAL_GRAY8) return cv::COLOR_BGR2GRAY;
    if (from == CFOCAL_BGR8 && to == CFOCAL_BGRA8) return cv::COLOR_BGR2BGRA;
    if (from == CFOCAL_BGRA8 && to == CFOCAL_GRAY8) return cv::COLOR_BGRA2GRAY;
    return cv::COLOR_BGRA2BGR;
}

}  // namespace

namespace cfocal {

// Luma 16…235 (video range, as H.264 stores it) to gray 0…255, and back.
const cv::Mat &video_to_full_range() {
    static const cv::Mat table = [] {
        cv::Mat t(1, 256, CV_8U);
        for (int i = 0; i < 256; ++i) t.at<uint8_t>(i) = clamp8(int(std::lround((i - 16) * 255.0 / 219.0)));
        return t;
    }();
    return table;
}

const cv::Mat &full_to_video_range() {
    static const cv::Mat table = [] {
        cv::Mat t(1, 256, CV_8U);
        for (int i = 0; i < 256; ++i) t.at<uint8_t>(i) = uint8_t(16 + std::lround(i * 219.0 / 255.0));
        return t;
    }();
    return table;
}

}  // namespace cfocal

extern "C" {

cfocal_status cfocal_image_convert(const cfocal_image *src, const cfocal_image *dst) {
    return guarded("convert image", [&] {
        validate(src, "convert image (source)");
        validate(dst, "convert image (destination)");
        if (src->width != dst->width || src->height != dst->height)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "convert image: source and destination sizes differ");
        auto from = planes_of(*src);
        auto to = planes_of(*dst);
        if (src->format == dst->format) {
            for (size_t p = 0; p < from.size(); ++p) from[p].copyTo(to[p]);
        } else if (src->format == CFOCAL_YUV420P && dst->format == CFOCAL_GRAY8) {
            cv::LUT(from[0], video_to_full_range(), to[0]);
        } else if (src->format == CFOCAL_GRAY8 && dst->format == CFOCAL_YUV420P) {
            cv::LUT(from[0], full_to_video_range(), to[0]);
            to[1].setTo(128);
            to[2].setTo(128);
        } else if (src->format == CFOCAL_YUV420P || dst->format == CFOCAL_YUV420P) {
            swscale_convert(*src, *dst);
        } else {
            cv::cvtColor(from[0], to[0], cvt_code(src->format, dst->format));
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_image_resize(const cfocal_image *src, const cfocal_image *dst, int32_t interpolation) {
    return guarded("resize image", [&] {
        validate(src, "resize image (source)");
        validate(dst, "resize image (destination)");
        if (src->format != dst->format) fail(CFOCAL_ERR_INVALID_ARGUMENT, "resize image: formats differ");
        static const int modes[] = {cv::INTER_NEAREST, cv::INTER_LINEAR, cv::INTER_AREA, cv::INTER_CUBIC};
        int mode = modes[std::max(0, std::min(3, int(interpolation)))];
        auto from = planes_of(*src);
        auto to = planes_of(*dst);
        for (size_t p = 0; p < from.size(); ++p) cv::resize(from[p], to[p], to[p].size(), 0, 0, mode);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_image_orient(const cfocal_image *src, int32_t exif_orientation, const cfocal_image *dst) {
    return guarded("orient image", [&] {
        validate(src, "orient image (source)");
        validate(dst, "orient image (destination)");
        if (exif_orientation < 1 || exif_orientation > 8)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "orient image: EXIF orientation must be 1…8");
        bool swaps = exif_orientation >= 5;
        int w = swaps ? src->height : src->width, h = swaps ? src->width : src->height;
        if (dst->format != src->format || dst->width != w || dst->height != h)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "orient image: destination has the wrong size or format");
        auto from = planes_of(*src);
        auto to = planes_of(*dst);
        for (size_t p = 0; p < from.size(); ++p) {
            cv::Mat &s = from[p], &d = to[p];
            switch (exif_orientation) {
            case 1: s.copyTo(d); break;
            case 2: cv::flip(s, d, 1); break;
            case 3: cv::flip(s, d, -1); break;
            case 4: cv::flip(s, d, 0); break;
            case 5: cv::transpose(s, d); break;
            case 6: cv::rotate(s, d, cv::ROTATE_90_CLOCKWISE); break;
            case 7: {
                cv::Mat t;
                cv::transpose(s, t);
                cv::flip(t, d, -1);
                break;
            }
            case 8: cv::rotate(s, d, cv::ROTATE_90_COUNTERCLOCKWISE); break;
            }
        }
        return CFOCAL_OK;
    });
}
}
