// Image decoding and encoding through OpenCV's imgcodecs (libjpeg, libpng, libtiff, libwebp).
#include "internal.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

using namespace cfocal;

extern "C" {

cfocal_status cfocal_image_decode(const uint8_t *bytes, size_t count, int32_t apply_orientation,
                                  cfocal_buffer **out) {
    return guarded("decode image", [&] {
        if (out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "no output");
        if (bytes == nullptr || count == 0) fail(CFOCAL_ERR_EMPTY, "the data is empty (0 bytes)");
        cv::Mat encoded(1, int(count), CV_8UC1, const_cast<uint8_t *>(bytes));
        int flags = cv::IMREAD_ANYCOLOR;
        if (!apply_orientation) flags |= cv::IMREAD_IGNORE_ORIENTATION;
        cv::Mat image = cv::imdecode(encoded, flags);
        if (image.empty())
            fail(CFOCAL_ERR_DECODE, "not a readable JPEG, PNG, TIFF, WebP or BMP image, or the data is truncated");
        if (image.depth() != CV_8U) image.convertTo(image, CV_8U);
        int32_t format = CFOCAL_BGR8;
        if (image.channels() == 1) format = CFOCAL_GRAY8;
        else if (image.channels() == 4) format = CFOCAL_BGRA8;
        else if (image.channels() != 3) fail(CFOCAL_ERR_UNSUPPORTED, "images with " + std::to_string(image.channels()) + " channels");
        *out = buffer_from_mat(image, format);
        return CFOCAL_OK;
    });
}

int32_t cfocal_image_can_encode(const char *extension) {
    try {
        return extension != nullptr && cv::haveImageWriter(extension) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

cfocal_status cfocal_image_encode(const cfocal_image *image, const char *extension, int32_t quality,
                                  cfocal_bytes **out) {
    return guarded("encode image", [&] {
        validate(image, "encode image");
        if (out == nullptr || extension == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "no output");
        std::string ext(extension);
        for (auto &c : ext) c = char(std::tolower(c));
        if (!cv::haveImageWriter(ext)) fail(CFOCAL_ERR_UNSUPPORTED, "no encoder for '" + ext + "' images");
        cv::Mat pixels;
        if (image->format == CFOCAL_YUV420P) {
            cv::Mat bgr(image->height, image->width, CV_8UC3);
            cfocal_image dst = view_of_mat(bgr, CFOCAL_BGR8);
            cfocal_status status = cfocal_image_convert(image, &dst);
            if (status != CFOCAL_OK) fail(status, cfocal_last_error());
            pixels = bgr;
        } else {
            pixels = packed_of(*image, "encode image");
        }
        std::vector<int> params;
        int q = std::max(0, std::min(100, int(quality)));
        if (ext == ".jpg" || ext == ".jpeg") params = {cv::IMWRITE_JPEG_QUALITY, q};
        else if (ext == ".webp") params = {cv::IMWRITE_WEBP_QUALITY, std::max(1, q)};
        auto bytes = std::make_unique<cfocal_bytes>();
        if (!cv::imencode(ext, pixels, bytes->data, params))
            fail(CFOCAL_ERR_UNSUPPORTED, "OpenCV could not encode this image as '" + ext + "'");
        *out = bytes.release();
        return CFOCAL_OK;
    });
}
}
