// Pixel-format conversion, resizing and EXIF orientation.
// YUV 4:2:0 goes through libswscale, which takes any stride and odd sizes; OpenCV's I420 paths need
// one contiguous buffer. Packed formats go through cv::cvtColor.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

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

void swscale_convert(const cfocal_image &src, const cfocal_image &dst) {
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
            from[0].copyTo(to[0]);  // luma is the gray image
        } else if (src->format == CFOCAL_GRAY8 && dst->format == CFOCAL_YUV420P) {
            from[0].copyTo(to[0]);
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
