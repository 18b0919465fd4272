// Overlay drawing with OpenCV's anti-aliased rasteriser and Hershey fonts. Draws straight into
// YUV 4:2:0 planes too (luma at full size, chroma at half), so a video overlay needs no round
// trip through BGR.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <cmath>

using namespace cfocal;

namespace {

constexpr int kShift = 4;  // fixed-point bits for sub-pixel coordinates
constexpr double kOne = 1 << kShift;

// The colour as each plane of format stores it (BT.601 video range for YUV, as libswscale uses).
std::vector<cv::Scalar> plane_colors(int32_t format, const cfocal_color &c) {
    switch (format) {
    case CFOCAL_GRAY8: return {cv::Scalar(0.114 * c.b + 0.587 * c.g + 0.299 * c.r)};
    case CFOCAL_BGR8: return {cv::Scalar(c.b, c.g, c.r)};
    case CFOCAL_BGRA8: return {cv::Scalar(c.b, c.g, c.r, 255)};
    default: {
        double y = 16 + 0.257 * c.r + 0.504 * c.g + 0.098 * c.b;
        double u = 128 - 0.148 * c.r - 0.291 * c.g + 0.439 * c.b;
        double v = 128 + 0.439 * c.r - 0.368 * c.g - 0.071 * c.b;
        return {cv::Scalar(y), cv::Scalar(u), cv::Scalar(v)};
    }
    }
}

// Where a plane is drawn: its pixels, the colour it stores, its scale against the full-size image,
// and the full-size position of its top-left pixel (non-zero when drawing into a cut-out region).
struct Target {
    cv::Mat plane;
    cv::Scalar color;
    double scale;
    cv::Point2d origin;

    cv::Point point(double x, double y) const {
        return cv::Point(int(std::lround((x * scale - origin.x) * kOne)),
                         int(std::lround((y * scale - origin.y) * kOne)));
    }
    int thickness(double t) const { return t < 0 ? cv::FILLED : std::max(1, int(std::lround(t * scale))); }
};

// Runs draw(target) on every plane. A translucent colour is drawn into a copy of the region that
// bounds (full-size pixels) covers, then blended back with opacity colour.a.
template <class Draw>
void draw_planes(const cfocal_image *image, const cfocal_color &color, cv::Rect2d bounds, Draw &&draw) {
    validate(image, "draw");
    auto planes = planes_of(*image);
    auto colors = plane_colors(image->format, color);
    double alpha = std::max(0.0, std::min(1.0, color.a / 255.0));
    if (alpha <= 0) return;
    for (size_t p = 0; p < planes.size(); ++p) {
        double scale = p == 0 ? 1.0 : 0.5;
        if (alpha >= 1) {
            draw(Target{planes[p], colors[p], scale, {0, 0}});
            continue;
        }
        cv::Rect box(int(std::floor(bounds.x * scale)) - 2, int(std::floor(bounds.y * scale)) - 2,
                     int(std::ceil(bounds.width * scale)) + 5, int(std::ceil(bounds.height * scale)) + 5);
        box &= cv::Rect(0, 0, planes[p].cols, planes[p].rows);
        if (box.empty()) continue;
        cv::Mat region = planes[p](box);
        cv::Mat painted = region.clone();
        draw(Target{painted, colors[p], scale, cv::Point2d(box.x, box.y)});
        cv::addWeighted(painted, alpha, region, 1 - alpha, 0, region);
    }
}

cv::Rect2d bounds_of(const double *xy, int count, double margin) {
    double x0 = xy[0], y0 = xy[1], x1 = xy[0], y1 = xy[1];
    for (int i = 1; i < count; ++i) {
        x0 = std::min(x0, xy[2 * i]);
        x1 = std::max(x1, xy[2 * i]);
        y0 = std::min(y0, xy[2 * i + 1]);
        y1 = std::max(y1, xy[2 * i + 1]);
    }
    return cv::Rect2d(x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin);
}

constexpr int kFont = cv::FONT_HERSHEY_SIMPLEX;
constexpr double kFontCapHeight = 22.0;  // cap height of kFont at scale 1, in pixels

}  // namespace

extern "C" {

cfocal_status cfocal_fill(const cfocal_image *image, cfocal_color color) {
    return guarded("fill", [&] {
        validate(image, "fill");
        auto planes = planes_of(*image);
        auto colors = plane_colors(image->format, color);
        for (size_t p = 0; p < planes.size(); ++p) planes[p].setTo(colors[p]);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_draw_polygon(const cfocal_image *image, const double *xy, int32_t point_count, int32_t closed,
                                  cfocal_color color, double thickness) {
    return guarded("draw polygon", [&] {
        if (xy == nullptr || point_count < 2) fail(CFOCAL_ERR_INVALID_ARGUMENT, "draw polygon: needs two or more points");
        for (int i = 0; i < 2 * point_count; ++i)
            if (!std::isfinite(xy[i])) fail(CFOCAL_ERR_INVALID_ARGUMENT, "draw polygon: a coordinate is not finite");
        draw_planes(image, color, bounds_of(xy, point_count, std::abs(thickness) + 2), [&](const Target &t) {
            std::vector<cv::Point> points;
            for (int i = 0; i < point_count; ++i) points.push_back(t.point(xy[2 * i], xy[2 * i + 1]));
            if (thickness < 0)
                cv::fillPoly(t.plane, std::vector<std::vector<cv::Point>>{points}, t.color, cv::LINE_AA, kShift);
            else
                cv::polylines(t.plane, points, closed != 0, t.color, t.thickness(thickness), cv::LINE_AA, kShift);
        });
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_draw_circle(const cfocal_image *image, double x, double y, double radius, cfocal_color color,
                                 double thickness) {
    return guarded("draw circle", [&] {
        if (!std::isfinite(x) || !std::isfinite(y) || !(radius >= 0))
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "draw circle: bad centre or radius");
        double reach = radius + std::abs(thickness) + 2;
        draw_planes(image, color, cv::Rect2d(x - reach, y - reach, 2 * reach, 2 * reach), [&](const Target &t) {
            cv::circle(t.plane, t.point(x, y), int(std::lround(radius * t.scale * kOne)), t.color,
                       t.thickness(thickness), cv::LINE_AA, kShift);
        });
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_measure_text(const char *text, double height_pixels, double thickness, double *width,
                                  double *height, double *baseline) {
    return guarded("measure text", [&] {
        if (text == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "measure text: no text");
        double scale = height_pixels / kFontCapHeight;
        int base = 0;
        cv::Size size = cv::getTextSize(text, kFont, scale, std::max(1, int(std::lround(thickness))), &base);
        if (width) *width = size.width;
        if (height) *height = size.height;
        if (baseline) *baseline = base;
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_draw_text(const cfocal_image *image, const char *text, double x, double y, double height_pixels,
                               cfocal_color color, double thickness) {
    return guarded("draw text", [&] {
        if (text == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "draw text: no text");
        double scale = height_pixels / kFontCapHeight;
        int base = 0;
        int weight = std::max(1, int(std::lround(thickness)));
        cv::Size size = cv::getTextSize(text, kFont, scale, weight, &base);
        cv::Rect2d bounds(x - weight, y - size.height - weight, size.width + 2 * weight, size.height + base + 2 * weight);
        draw_planes(image, color, bounds, [&](const Target &t) {
            // putText has no sub-pixel origin: round the origin in this plane's pixels.
            cv::Point origin(int(std::lround(x * t.scale - t.origin.x)), int(std::lround(y * t.scale - t.origin.y)));
            cv::putText(t.plane, text, origin, kFont, scale * t.scale, t.color, t.thickness(thickness), cv::LINE_AA);
        });
        return CFOCAL_OK;
    });
}
}
