// Quads from hulls, lines and maps, and their shared geometry (quad_candidates.hpp says what each part does).
#include "quad_candidates.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cfocal::quad {

Corners order(const std::array<cv::Point2d, 4> &points) {
    cv::Point2d c = centre_of(points);
    Corners sorted = points;
    std::sort(sorted.begin(), sorted.end(), [&](const cv::Point2d &a, const cv::Point2d &b) {
        return std::atan2(a.y - c.y, a.x - c.x) < std::atan2(b.y - c.y, b.x - c.x);
    });
    int start = 0;
    for (int i = 1; i < 4; ++i)
        if (sorted[i].x + sorted[i].y < sorted[start].x + sorted[start].y) start = i;
    Corners out;
    for (int i = 0; i < 4; ++i) out[i] = sorted[(start + i) % 4];
    return out;
}

bool aspect_within(const Corners &q, const cfocal_quad_options &o) {
    const double w = (cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[3])) / 2;
    const double h = (cv::norm(q[3] - q[0]) + cv::norm(q[2] - q[1])) / 2;
    const double aspect = std::min(w, h) / std::max(std::max(w, h), 1e-9);
    return aspect >= o.min_aspect_ratio && aspect <= o.max_aspect_ratio + 1e-9;
}

bool acceptable_shape(const Corners &q, const cfocal_quad_options &o, double shorter_image_side, cv::Size size) {
    if (!convex(q)) return false;
    double top = cv::norm(q[1] - q[0]), bottom = cv::norm(q[2] - q[3]);
    double left = cv::norm(q[3] - q[0]), right = cv::norm(q[2] - q[1]);
    // Perspective shortens a far side, but not below 0.4 of its opposite at any usual viewing angle;
    // sides cut by the image border are exempt.
    bool cut = false;
    for (int i = 0; i < 4; ++i) cut = cut || on_border(q[i], q[(i + 1) % 4], size);
    if (!cut && (std::min(top, bottom) < 0.4 * std::max(top, bottom) || std::min(left, right) < 0.4 * std::max(left, right)))
        return false;
    if (std::min((top + bottom) / 2, (left + right) / 2) < o.min_size * shorter_image_side) return false;
    if (!aspect_within(q, o)) return false;
    for (int i = 0; i < 4; ++i) {
        cv::Point2d a = q[(i + 3) % 4] - q[i], b = q[(i + 1) % 4] - q[i];
        double angle = std::acos(std::max(-1.0, std::min(1.0, a.dot(b) / (cv::norm(a) * cv::norm(b))))) * 180 / CV_PI;
        if (std::abs(angle - 90) > o.quadrature_tolerance) return false;
    }
    return true;
}

void quads_from_hull(const std::vector<cv::Point> &hull, std::vector<Corners> &out) {
    double perimeter = cv::arcLength(hull, true);
    for (double eps : {0.02, 0.04, 0.07}) {
        std::vector<cv::Point> poly;
        cv::approxPolyDP(hull, poly, eps * perimeter, true);
        if (poly.size() == 4) {
            out.push_back(order({cv::Point2d(poly[0]), cv::Point2d(poly[1]), cv::Point2d(poly[2]), cv::Point2d(poly[3])}));
            break;
        }
    }
    std::vector<cv::Point> poly;
    cv::approxPolyDP(hull, poly, 0.01 * perimeter, true);
    int n = int(poly.size());
    if (n <= 4 || n > 16) return;
    std::vector<int> edges(n);
    for (int i = 0; i < n; ++i) edges[i] = i;
    std::partial_sort(edges.begin(), edges.begin() + 4, edges.end(), [&](int a, int b) {
        return cv::norm(poly[(a + 1) % n] - poly[a]) > cv::norm(poly[(b + 1) % n] - poly[b]);
    });
    std::sort(edges.begin(), edges.begin() + 4);
    std::array<cv::Point2d, 4> corners;
    for (int k = 0; k < 4; ++k) {
        int e1 = edges[k], e2 = edges[(k + 1) % 4];
        cv::Point2d p1 = poly[e1], d1 = cv::Point2d(poly[(e1 + 1) % n]) - p1;
        cv::Point2d p2 = poly[e2], d2 = cv::Point2d(poly[(e2 + 1) % n]) - p2;
        if (!intersect(p1, d1, p2, d2, corners[k])) return;
    }
    out.push_back(order(corners));
}

cv::Point2d canonical(const cv::Point2d &direction) {
    return direction.x < 0 || (direction.x == 0 && direction.y < 0) ? -direction : direction;
}

std::vector<Line> long_lines(const cv::Mat &edges, double min_length, int keep) {
    std::vector<cv::Vec4i> segments;
    cv::HoughLinesP(edges, segments, 1, CV_PI / 180, int(min_length * 0.6), min_length * 0.5, 6);
    std::vector<Line> lines;
    for (const auto &s : segments) {
        cv::Point2d a(s[0], s[1]), b(s[2], s[3]);
        double length = cv::norm(b - a);
        const cv::Point2d direction = canonical((b - a) / length);
        bool merged = false;
        for (auto &line : lines) {
            double angle = std::abs(direction.x * line.direction.y - direction.y * line.direction.x);
            cv::Point2d normal(-line.direction.y, line.direction.x);
            double offset = std::abs((a - line.point).dot(normal)) + std::abs((b - line.point).dot(normal));
            if (angle < 0.05 && offset < 6) {
                double total = line.length + length;
                line.point = (line.point * line.length + (a + b) * 0.5 * length) / total;
                line.length = total;
                merged = true;
                break;
            }
        }
        if (!merged) lines.push_back({(a + b) * 0.5, direction, length});
    }
    std::sort(lines.begin(), lines.end(), [](const Line &x, const Line &y) { return x.length > y.length; });
    if (int(lines.size()) > keep) lines.resize(keep);
    return lines;
}

void quads_from_lines(const std::vector<Line> &lines, double min_side, cv::Size size, std::vector<Corners> &out) {
    struct Pair { int a, b; cv::Point2d direction; };
    std::vector<Pair> pairs;
    for (int i = 0; i < int(lines.size()); ++i)
        for (int j = i + 1; j < int(lines.size()); ++j) {
            const Line &l1 = lines[i], &l2 = lines[j];
            double sine = std::abs(l1.direction.x * l2.direction.y - l1.direction.y * l2.direction.x);
            cv::Point2d normal(-l1.direction.y, l1.direction.x);
            if (sine < 0.5 && std::abs((l2.point - l1.point).dot(normal)) >= min_side) {
                cv::Point2d mean = l1.direction + (l1.direction.dot(l2.direction) < 0 ? -l2.direction : l2.direction);
                pairs.push_back({i, j, mean / cv::norm(mean)});
            }
        }
    double reach = 0.5 * std::max(size.width, size.height);
    for (size_t p = 0; p < pairs.size(); ++p)
        for (size_t q = p + 1; q < pairs.size(); ++q) {
            const Pair &u = pairs[p], &v = pairs[q];
            if (u.a == v.a || u.a == v.b || u.b == v.a || u.b == v.b) continue;
            if (std::abs(u.direction.x * v.direction.y - u.direction.y * v.direction.x) < 0.6) continue;
            std::array<cv::Point2d, 4> corners;
            const int order_of_lines[4][2] = {{u.a, v.a}, {v.a, u.b}, {u.b, v.b}, {v.b, u.a}};
            bool ok = true;
            for (int k = 0; k < 4 && ok; ++k) {
                const Line &l1 = lines[order_of_lines[k][0]], &l2 = lines[order_of_lines[k][1]];
                ok = intersect(l1.point, l1.direction, l2.point, l2.direction, corners[k]) && corners[k].x > -reach &&
                     corners[k].y > -reach && corners[k].x < size.width + reach && corners[k].y < size.height + reach;
            }
            if (ok) out.push_back(order(corners));
        }
}

void quads_from_mask(const cv::Mat &mask, double min_area, std::vector<Corners> &out) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(mask, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    for (const auto &contour : contours) {
        if (contour.size() < 4) continue;
        cv::Rect box = cv::boundingRect(contour);
        if (double(box.width) * box.height < min_area) continue;
        std::vector<cv::Point> hull;
        cv::convexHull(contour, hull);
        if (cv::contourArea(hull) < min_area) continue;
        quads_from_hull(hull, out);
    }
}

bool on_border(const cv::Point2d &a, const cv::Point2d &b, cv::Size size, double margin) {
    const double m = margin;
    return (a.x < m && b.x < m) || (a.y < m && b.y < m) || (a.x > size.width - 1 - m && b.x > size.width - 1 - m) ||
           (a.y > size.height - 1 - m && b.y > size.height - 1 - m);
}

double overlap_area(const Corners &a, const Corners &b) {
    std::vector<cv::Point2f> pa, pb, inter;
    for (int i = 0; i < 4; ++i) {
        pa.emplace_back(float(a[i].x), float(a[i].y));
        pb.emplace_back(float(b[i].x), float(b[i].y));
    }
    return cv::intersectConvexConvex(pa, pb, inter, true);
}

double iou(const Corners &a, const Corners &b) {
    const double overlap = overlap_area(a, b);
    const double uni = area(a) + area(b) - overlap;
    return uni > 0 ? overlap / uni : 0;
}

double distance_to_sides(const cv::Point2d &p, const Corners &q) {
    double nearest = std::numeric_limits<double>::max();
    for (int k = 0; k < 4; ++k) {
        const cv::Point2d along = q[(k + 1) % 4] - q[k];
        nearest = std::min(nearest, std::abs(along.cross(p - q[k])) / std::max(cv::norm(along), 1e-9));
    }
    return nearest;
}

std::array<bool, 4> sides_within(const Corners &inner, const Corners &outer, double reach) {
    std::array<bool, 4> within{};
    for (int k = 0; k < 4; ++k) {
        const cv::Point2d a = inner[k], b = inner[(k + 1) % 4];
        within[k] = distance_to_sides((a * 3 + b) / 4, outer) > reach && distance_to_sides((a + b * 3) / 4, outer) > reach;
    }
    return within;
}

std::optional<CutAlongASide> cut_along_a_side(const Corners &inner, const Corners &outer, double near) {
    // How far along a → b the point p lies (0 at a, 1 at b), if it lies within 2 × near of that line.
    auto along = [near](const cv::Point2d &a, const cv::Point2d &b, const cv::Point2d &p) -> std::optional<double> {
        const cv::Point2d d = b - a;
        const double length = std::max(cv::norm(d), 1e-9);
        if (std::abs(d.cross(p - a)) / length > 2 * near) return std::nullopt;
        return (p - a).dot(d) / (length * length);
    };
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 4; ++j) {
            if (cv::norm(inner[j] - outer[k]) >= near || cv::norm(inner[(j + 1) % 4] - outer[(k + 1) % 4]) >= near) continue;
            const cv::Point2d &a = outer[(k + 1) % 4], &b = outer[(k + 2) % 4], &c = outer[k], &d = outer[(k + 3) % 4];
            const cv::Point2d &ib = inner[(j + 2) % 4], &id = inner[(j + 3) % 4];
            const auto kept_b = along(a, b, ib), kept_d = along(c, d, id);
            if (!kept_b || !kept_d) continue;
            return CutAlongASide{{*kept_b, *kept_d}, {{{ib, b}, {id, d}}}, {id, ib, b, d}};
        }
    return std::nullopt;
}

Corners fitted_to_outline(const Corners &q, const std::vector<cv::Point> &outline, double tolerance) {
    std::array<std::vector<cv::Point2f>, 4> near;
    for (const auto &point : outline) {
        cv::Point2d p(point);
        int best = -1;
        double closest = tolerance;
        for (int i = 0; i < 4; ++i) {
            cv::Point2d a = q[i], d = q[(i + 1) % 4] - q[i];
            double length2 = d.dot(d);
            if (length2 < 1) continue;
            double t = (p - a).dot(d) / length2;
            if (t < 0.1 || t > 0.9) continue;
            double distance = std::abs(cross(a, q[(i + 1) % 4], p)) / std::sqrt(length2);
            if (distance < closest) {
                closest = distance;
                best = i;
            }
        }
        if (best >= 0) near[best].emplace_back(float(p.x), float(p.y));
    }
    std::array<cv::Vec4f, 4> lines;
    for (int i = 0; i < 4; ++i) {
        if (near[i].size() < 5) return q;
        lines[i] = robust_line(near[i]);
    }
    Corners out;
    return corners_of(lines, out) && convex(out) ? out : q;
}

cv::Point2d rescaled(const cv::Point2d &p, double from, double to) {
    return (p + cv::Point2d(0.5, 0.5)) * to / from - cv::Point2d(0.5, 0.5);
}

Corners rescaled(const Corners &q, double from, double to) {
    return {rescaled(q[0], from, to), rescaled(q[1], from, to), rescaled(q[2], from, to), rescaled(q[3], from, to)};
}

}  // namespace cfocal::quad
