// What the page network says about a quad (page_map_view.hpp says what each part does).
#include "page_map_view.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace cfocal::quad {

cv::Mat row_sums(const cv::Mat &map) {
    cv::Mat sums(map.rows, map.cols + 1, CV_64F);
    for (int y = 0; y < map.rows; ++y) {
        const float *in = map.ptr<float>(y);
        double *out = sums.ptr<double>(y), total = 0;
        out[0] = 0;
        for (int x = 0; x < map.cols; ++x) out[x + 1] = total += in[x];
    }
    return sums;
}

std::pair<double, int> sum_in(const Corners &q, const cv::Mat &rows) {
    double top = q[0].y, bottom = q[0].y;
    for (const auto &p : q) top = std::min(top, p.y), bottom = std::max(bottom, p.y);
    const int first = std::max(0, int(std::ceil(top))), last = std::min(rows.rows - 1, int(std::floor(bottom)));
    double sum = 0;
    int count = 0;
    for (int y = first; y <= last; ++y) {
        double left = 1e9, right = -1e9;
        for (int i = 0; i < 4; ++i) {
            const cv::Point2d a = q[i], b = q[(i + 1) % 4];
            if ((a.y - y) * (b.y - y) > 0 || a.y == b.y) continue;  // the side does not cross this row
            const double x = a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y);
            left = std::min(left, x), right = std::max(right, x);
        }
        const int from = std::max(0, int(std::ceil(left))), to = std::min(rows.cols - 2, int(std::floor(right)));
        if (to < from) continue;
        sum += rows.at<double>(y, to + 1) - rows.at<double>(y, from);
        count += to - from + 1;
    }
    return {sum, count};
}

double mean_page(const Corners &working, const NetworkView &view) {
    const auto [sum, pixels] = sum_in(rescaled(working, 1, view.sums_scale), view.page_rows);
    return pixels > 0 ? sum / pixels : 0.0;
}

NetworkView network_view(const PageMaps &maps, cv::Size working) {
    NetworkView view;
    const double cell = std::max(double(working.width) / maps.page.cols, double(working.height) / maps.page.rows);
    const cv::Size half((working.width + 1) / 2, (working.height + 1) / 2);
    auto resized = [&](const cv::Mat &map, cv::Size size) {
        cv::Mat out;
        cv::resize(map, out, size, 0, 0, cv::INTER_LINEAR);
        return out;
    };
    // Agreement sums the maps over every candidate's inside and the bands along its sides, dozens
    // of quads a frame: at .high (640 px, a cell of 2.2 to 5 working pixels) and .low (2 to 4) half
    // the size has a quarter of the pixels and still a pixel or more to a cell.
    const cv::Size sums = cell >= 2 ? half : working;
    view.sums_scale = double(sums.width) / working.width;
    // Regions are traced and dilated, and the outline's lines found, at half the size too where a
    // cell spans more than a pixel there (.high: 1.1; its search 19 → 16 ms a 720p frame; on the
    // occluded phone photos a box over a corner 0.982 → 0.992, and RealPhotoTests' cable over one
    // photo 0.928 → 0.895, its region leaking along the cable). At .low's exactly one, the phone
    // photos lost 0.015 and the pen over a side 0.035.
    const cv::Size traced = cell > 2 ? half : working;
    view.scale = double(traced.width) / working.width;
    view.cell = cell * view.scale;
    view.page = resized(maps.page, traced);
    view.outline = resized(maps.outline, traced);
    view.page_rows = row_sums(sums == traced ? view.page : resized(maps.page, sums));
    view.outline_rows = row_sums(sums == traced ? view.outline : resized(maps.outline, sums));
    return view;
}

double network_agreement(const Corners &working, const NetworkView &view) {
    const Corners q = rescaled(working, 1, view.sums_scale);
    const double cell = view.cell / view.scale * view.sums_scale;
    cv::Point2d center = centre_of(q);
    double size = std::sqrt(area(q));
    if (size < 1) return 0;
    // Scaling about the centre by 1 + 2d / size moves the sides out by about d.
    auto grown = [&](double cells) {
        Corners g;
        for (int i = 0; i < 4; ++i) g[i] = center + (q[i] - center) * (1 + 2 * cells * cell / size);
        return g;
    };
    const Corners outer = grown(3), near = grown(-1), band_inner = grown(1);
    const auto [inside, inside_pixels] = sum_in(near, view.page_rows);
    if (inside_pixels == 0) return 0;
    double leak = 0, weight = 0;
    for (int i = 0; i < 4; ++i) {
        const int j = (i + 1) % 4;
        const auto [beyond, pixels] = sum_in({band_inner[i], band_inner[j], outer[j], outer[i]}, view.page_rows);
        if (pixels == 0) continue;  // beyond the image
        // The outline band is about a cell wide; the strip two: a clear outline fills 40 % of it.
        // The discount scales with the doubt there (1 - p): a certain page beyond is never excused.
        const auto [strip, strip_pixels] = sum_in({near[i], near[j], band_inner[j], band_inner[i]}, view.outline_rows);
        const double drawn = strip_pixels > 0 ? strip / strip_pixels : 0;
        const double there = beyond / pixels;
        leak += pixels * there * (1 - std::min(1.0, drawn / 0.4) * (1 - there));
        weight += pixels;
    }
    const double outside = weight > 0 ? leak / weight : 0;
    return inside / inside_pixels * (1 - outside);
}

std::vector<Line> outline_lines(const NetworkView &view, double min_length, int keep) {
    const cv::Mat band = view.outline > 0.5;
    std::vector<cv::Point> pixels;
    cv::findNonZero(band, pixels);
    std::vector<Line> out;
    auto known = [&](const cv::Point2d &point, const cv::Point2d &direction) {
        for (const auto &other : out) {
            double sine = std::abs(direction.x * other.direction.y - direction.y * other.direction.x);
            double offset = std::abs((point - other.point).dot(cv::Point2d(-other.direction.y, other.direction.x)));
            if (sine < 0.03 && offset < 2 * view.cell) return true;
        }
        return false;
    };
    for (auto line : long_lines(band, min_length * view.scale, 4 * keep)) {
        if (int(out.size()) >= keep) break;
        if (known(line.point, line.direction)) continue;  // a piece of a band already fitted
        cv::Point2d point = line.point, direction = line.direction;
        bool fitted = true;
        for (double reach : {1.5, 1.0}) {
            const cv::Point2d normal(-direction.y, direction.x);
            std::vector<cv::Point2f> near;
            for (const auto &p : pixels)
                if (std::abs((cv::Point2d(p) - point).dot(normal)) <= reach * view.cell) near.emplace_back(float(p.x), float(p.y));
            if (near.size() < 5) { fitted = false; break; }
            const cv::Vec4f f = robust_line(near);
            point = cv::Point2d(f[2], f[3]);
            direction = cv::Point2d(f[0], f[1]);
        }
        if (!fitted) continue;
        direction = canonical(direction);
        if (!known(point, direction)) out.push_back({point, direction, line.length});
    }
    for (auto &line : out) line.point = view.to_working(line.point);
    return out;
}

std::array<double, 4> drawn_sides(const Corners &working, const NetworkView &view) {
    const Corners q = view.to_map(working);
    std::array<double, 4> drawn{};
    for (int i = 0; i < 4; ++i) {
        const cv::Point2d a = q[i], d = q[(i + 1) % 4] - q[i];
        const double length = cv::norm(d);
        if (length < 1) return {};
        const cv::Point2d across(-d.y / length, d.x / length);
        const int samples = std::max(4, int(0.8 * length / view.cell));
        int marked = 0, inside = 0;
        for (int k = 0; k < samples; ++k) {
            const cv::Point2d p = a + d * (0.1 + 0.8 * (k + 0.5) / samples);
            if (p.x < 0 || p.y < 0 || p.x >= view.outline.cols || p.y >= view.outline.rows) continue;
            ++inside;
            float best = 0;
            for (int step = -2; step <= 2; ++step) {  // a cell either way, half a cell apart
                const cv::Point c = p + across * (0.5 * step * view.cell);
                if (c.x >= 0 && c.y >= 0 && c.x < view.outline.cols && c.y < view.outline.rows)
                    best = std::max(best, view.outline.at<float>(c));
            }
            if (best > 0.5) ++marked;
        }
        drawn[i] = inside > 0 ? double(marked) / inside : 1.0;
    }
    return drawn;
}

double drawn_outline(const Corners &working, const NetworkView &view) {
    std::array<double, 4> drawn = drawn_sides(working, view);
    std::sort(drawn.begin(), drawn.end());
    return drawn[1];
}

double outline_at(const cv::Point2d &full, const NetworkView &view, double scale) {
    const cv::Point2d p = rescaled(rescaled(full, 1, scale), 1, view.scale);
    return bilinear<float>(view.outline, p.x, p.y);
}

double outline_between(const cv::Point2d &a, const cv::Point2d &b, const NetworkView &view, double scale) {
    return mean_outline([&](double t) { return a + (b - a) * t; }, view, scale);
}

std::vector<Corners> network_quads(const NetworkView &view, double min_area) {
    std::vector<Corners> out;
    const double least = min_area * view.scale * view.scale;
    int grow = int(std::ceil(2.5 * view.cell));
    cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(2 * grow + 1, 2 * grow + 1));
    for (double level : {0.5, 0.75}) {
        cv::Mat whole = view.page > level;
        cv::Mat cores = whole & (view.outline < 0.5);
        // Each core's outer boundary, traced (cv::connectedComponentsWithStats took half a
        // millisecond on a 320 × 180 mask in OpenCV 4.6, tracing a twentieth of that). A core
        // filled within its outer boundary holds any core inside one of its holes too, which
        // leaves the dilated region's outer contour as it was; such a core is traced on its own.
        // Tracing joins cores that touch only at a corner, which 4-connected labelling kept apart
        // (3 frames of 560 moved on the evaluation clips, none on the rest).
        std::vector<std::vector<cv::Point>> boundaries;
        std::vector<cv::Vec4i> hierarchy;
        cv::findContours(cores, boundaries, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_NONE);
        // In raster order of their first pixel, as labelling numbered them: an outer boundary's
        // tracing starts at that pixel, so it is the boundary's first point.
        std::vector<int> outer;
        for (int i = 0; i < int(boundaries.size()); ++i)
            if (hierarchy[i][3] < 0) outer.push_back(i);  // not a hole's boundary
        std::sort(outer.begin(), outer.end(), [&](int a, int b) {
            const cv::Point &p = boundaries[a][0], &q = boundaries[b][0];
            return p.y != q.y ? p.y < q.y : p.x < q.x;
        });
        for (int index : outer) {
            // Only the core's box, grown by the dilation and a pixel more, can hold its region:
            // working there gives the same contour as the whole image at a fraction of the cost.
            cv::Rect box = cv::boundingRect(boundaries[index]);
            box = cv::Rect(box.tl() - cv::Point(grow + 1, grow + 1), box.br() + cv::Point(grow + 1, grow + 1)) &
                  cv::Rect(0, 0, cores.cols, cores.rows);
            cv::Mat region = cv::Mat::zeros(box.size(), CV_8U);
            cv::drawContours(region, boundaries, index, 255, cv::FILLED, cv::LINE_8, cv::noArray(), 0, -box.tl());
            region &= cores(box);
            if (cv::countNonZero(region) < 0.3 * least) continue;
            cv::dilate(region, region, kernel);
            region &= whole(box);
            std::vector<std::vector<cv::Point>> contours;
            cv::findContours(region, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE, box.tl());
            if (contours.empty()) continue;
            auto largest = std::max_element(contours.begin(), contours.end(), [](const auto &a, const auto &b) {
                return cv::contourArea(a) < cv::contourArea(b);
            });
            if (cv::contourArea(*largest) < least) continue;
            std::vector<cv::Point> hull;
            cv::convexHull(*largest, hull);
            std::vector<Corners> quads;
            quads_from_hull(hull, quads);
            for (const auto &q : quads) {
                Corners fitted = fitted_to_outline(q, *largest, 2 * view.scale + view.cell);
                if (convex(fitted)) out.push_back(view.to_working(fitted));
            }
        }
    }
    return out;
}

}  // namespace cfocal::quad
