// Blur, noise and perspective warps: what scenes with known blur and known corners are made of.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <cmath>

using namespace cfocal;

namespace {

void check_pair(const cfocal_image *src, const cfocal_image *dst, const char *operation) {
    validate(src, operation);
    validate(dst, operation);
    if (src->format != dst->format || src->width != dst->width || src->height != dst->height)
        fail(CFOCAL_ERR_INVALID_ARGUMENT, std::string(operation) + ": source and destination differ in size or format");
}

// A normalised line kernel of the given length and direction, anti-aliased at its ends.
cv::Mat motion_kernel(double length, double angle_degrees) {
    int half = int(std::ceil(length / 2)) + 1;
    int size = 2 * half + 1;
    cv::Mat kernel = cv::Mat::zeros(size, size, CV_32F);
    double a = angle_degrees * CV_PI / 180.0;
    int steps = std::max(32, int(length * 16));
    for (int i = 0; i < steps; ++i) {
        double s = -length / 2 + length * (i + 0.5) / steps;
        double x = half + s * std::cos(a), y = half + s * std::sin(a);
        int x0 = int(std::floor(x)), y0 = int(std::floor(y));
        double fx = x - x0, fy = y - y0;
        kernel.at<float>(y0, x0) += float((1 - fx) * (1 - fy));
        kernel.at<float>(y0, x0 + 1) += float(fx * (1 - fy));
        kernel.at<float>(y0 + 1, x0) += float((1 - fx) * fy);
        kernel.at<float>(y0 + 1, x0 + 1) += float(fx * fy);
    }
    return kernel / cv::sum(kernel)[0];
}

}  // namespace

extern "C" {

cfocal_status cfocal_gaussian_blur(const cfocal_image *src, const cfocal_image *dst, double sigma) {
    return guarded("gaussian blur", [&] {
        check_pair(src, dst, "gaussian blur");
        if (!(sigma >= 0)) fail(CFOCAL_ERR_INVALID_ARGUMENT, "gaussian blur: sigma must be 0 or more");
        auto from = planes_of(*src), to = planes_of(*dst);
        for (size_t p = 0; p < from.size(); ++p) {
            double s = p == 0 ? sigma : sigma / 2;
            if (s <= 0.05) from[p].copyTo(to[p]);
            else cv::GaussianBlur(from[p], to[p], cv::Size(0, 0), s, s, cv::BORDER_REFLECT);
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_motion_blur(const cfocal_image *src, const cfocal_image *dst, double length,
                                 double angle_degrees) {
    return guarded("motion blur", [&] {
        check_pair(src, dst, "motion blur");
        if (!(length >= 0) || !std::isfinite(angle_degrees))
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "motion blur: length must be 0 or more");
        auto from = planes_of(*src), to = planes_of(*dst);
        for (size_t p = 0; p < from.size(); ++p) {
            double l = p == 0 ? length : length / 2;
            if (l < 0.5) from[p].copyTo(to[p]);
            else cv::filter2D(from[p], to[p], -1, motion_kernel(l, angle_degrees), cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_add_noise(const cfocal_image *image, double sigma, uint64_t seed) {
    return guarded("add noise", [&] {
        validate(image, "add noise");
        if (!(sigma >= 0)) fail(CFOCAL_ERR_INVALID_ARGUMENT, "add noise: sigma must be 0 or more");
        cv::RNG rng(seed == 0 ? 0x9E3779B97F4A7C15ull : seed);
        for (cv::Mat &plane : planes_of(*image)) {
            cv::Mat noise(plane.size(), CV_32FC(plane.channels()));
            rng.fill(noise, cv::RNG::NORMAL, 0.0, sigma);
            cv::Mat sum;
            plane.convertTo(sum, CV_32F);
            sum += noise;
            sum.convertTo(plane, CV_8U);  // saturates
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_enhance_document(const cfocal_image *image) {
    return guarded("enhance document", [&] {
        validate(image, "enhance document");
        cv::Mat gray;
        cv::Mat target;
        if (image->format == CFOCAL_GRAY8 || image->format == CFOCAL_YUV420P) {
            target = planes_of(*image)[0];
            gray = target;
        } else {
            cv::Mat packed = packed_of(*image, "enhance document"), lab;
            cv::cvtColor(packed, lab, image->format == CFOCAL_BGR8 ? cv::COLOR_BGR2Lab : cv::COLOR_BGRA2BGR);
            if (image->format == CFOCAL_BGRA8) cv::cvtColor(lab, lab, cv::COLOR_BGR2Lab);
            std::vector<cv::Mat> channels;
            cv::split(lab, channels);
            thread_local cv::Ptr<cv::CLAHE> clahe = cv::createCLAHE(2.5, cv::Size(8, 8));
            clahe->apply(channels[0], channels[0]);
            cv::Mat blurred;
            cv::GaussianBlur(channels[0], blurred, cv::Size(0, 0), 1.5);
            cv::addWeighted(channels[0], 1.6, blurred, -0.6, 0, channels[0]);
            cv::merge(channels, lab);
            cv::Mat bgr;
            cv::cvtColor(lab, bgr, cv::COLOR_Lab2BGR);
            if (image->format == CFOCAL_BGRA8) cv::cvtColor(bgr, packed, cv::COLOR_BGR2BGRA);
            else bgr.copyTo(packed);
            return CFOCAL_OK;
        }
        thread_local cv::Ptr<cv::CLAHE> clahe = cv::createCLAHE(2.5, cv::Size(8, 8));
        cv::Mat equalised, blurred;
        clahe->apply(gray, equalised);
        cv::GaussianBlur(equalised, blurred, cv::Size(0, 0), 1.5);
        cv::addWeighted(equalised, 1.6, blurred, -0.6, 0, target);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_pixellate(const cfocal_image *image, int32_t block) {
    return guarded("pixellate", [&] {
        validate(image, "pixellate");
        if (block < 2) return CFOCAL_OK;
        auto planes = planes_of(*image);
        for (size_t p = 0; p < planes.size(); ++p) {
            int b = p == 0 ? block : std::max(1, block / 2);
            cv::Mat &plane = planes[p];
            cv::Mat small;
            cv::resize(plane, small, cv::Size(std::max(1, plane.cols / b), std::max(1, plane.rows / b)), 0, 0, cv::INTER_AREA);
            cv::resize(small, plane, plane.size(), 0, 0, cv::INTER_NEAREST);
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_warp_perspective(const cfocal_image *src, const double h[9], const cfocal_image *dst,
                                      int32_t interpolation) {
    return guarded("warp perspective", [&] {
        validate(src, "warp perspective (source)");
        validate(dst, "warp perspective (destination)");
        if (src->format != dst->format) fail(CFOCAL_ERR_INVALID_ARGUMENT, "warp perspective: formats differ");
        cv::Mat from = packed_of(*src, "warp perspective"), to = packed_of(*dst, "warp perspective");
        cv::Mat homography(3, 3, CV_64F, const_cast<double *>(h));
        int mode = interpolation == 0 ? cv::INTER_NEAREST : interpolation == 3 ? cv::INTER_CUBIC : cv::INTER_LINEAR;
        // Warp the pixels and a coverage mask, then blend: page edges come out anti-aliased.
        cv::Mat warped, coverage;
        cv::warpPerspective(from, warped, homography, to.size(), mode, cv::BORDER_CONSTANT);
        cv::Mat ones(from.size(), CV_32F, cv::Scalar(1));
        cv::warpPerspective(ones, coverage, homography, to.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
        cv::Mat warped_f, to_f;
        warped.convertTo(warped_f, CV_32F);
        to.convertTo(to_f, CV_32F);
        std::vector<cv::Mat> masks(to.channels(), coverage);
        cv::Mat mask;
        cv::merge(masks, mask);
        cv::Mat blended = warped_f.mul(mask) + to_f.mul(cv::Scalar::all(1) - mask);
        blended.convertTo(to, CV_8U);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_homography_from_quads(const double src[8], const double dst[8], double h_out[9]) {
    return guarded("homography", [&] {
        std::vector<cv::Point2f> a, b;
        for (int i = 0; i < 4; ++i) {
            a.emplace_back(float(src[2 * i]), float(src[2 * i + 1]));
            b.emplace_back(float(dst[2 * i]), float(dst[2 * i + 1]));
        }
        cv::Mat m = cv::getPerspectiveTransform(a, b, cv::DECOMP_LU);
        for (int i = 0; i < 9; ++i) h_out[i] = m.at<double>(i / 3, i % 3);
        return CFOCAL_OK;
    });
}
}
