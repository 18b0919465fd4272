// Fitting a quad's sides to the image's edges at full resolution: straight (refine), and as
// curves where a page bows (side_curves, joined_where_sides_meet). quads.cpp finds the quads;
// this places their sides. Private to the shim.
#pragma once

#include <opencv2/core.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace cfocal::quad {

// A quad's corners, clockwise on screen from the top left.
using Corners = std::array<cv::Point2d, 4>;

// The mean of a quad's corners.
inline cv::Point2d centre_of(const Corners &q) { return (q[0] + q[1] + q[2] + q[3]) * 0.25; }

inline double cross(const cv::Point2d &o, const cv::Point2d &a, const cv::Point2d &b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

inline bool convex(const Corners &q) {
    for (int i = 0; i < 4; ++i)
        if (cross(q[i], q[(i + 1) % 4], q[(i + 2) % 4]) <= 0) return false;
    return true;
}

inline double area(const Corners &q) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y;
    return std::abs(s) / 2;
}

inline bool intersect(const cv::Point2d &p1, const cv::Point2d &d1, const cv::Point2d &p2, const cv::Point2d &d2,
               cv::Point2d &out) {
    double det = d1.x * d2.y - d1.y * d2.x;
    if (std::abs(det) < 1e-9) return false;
    double t = ((p2.x - p1.x) * d2.y - (p2.y - p1.y) * d2.x) / det;
    out = p1 + d1 * t;
    return true;
}

// The image's value at (x, y), between its pixels' centres, on the image's border beyond it: 8-bit
// grey by default, or a network map's floats.
template <typename Pixel = uint8_t>
inline double bilinear(const cv::Mat &gray, double x, double y) {
    x = std::max(0.0, std::min(double(gray.cols - 1.001), x));
    y = std::max(0.0, std::min(double(gray.rows - 1.001), y));
    int x0 = int(x), y0 = int(y);
    double fx = x - x0, fy = y - y0;
    const Pixel *r0 = gray.ptr<Pixel>(y0), *r1 = gray.ptr<Pixel>(y0 + 1);
    return (r0[x0] * (1 - fx) + r0[x0 + 1] * fx) * (1 - fy) + (r1[x0] * (1 - fx) + r1[x0 + 1] * fx) * fy;
}

// A line through points, robust to the few that lie elsewhere, as cv::fitLine gives one (vx, vy,
// x0, y0); redescending, it settles on the edge with most of the points where two meet at an angle.
cv::Vec4f robust_line(const std::vector<cv::Point2f> &points, bool redescending = false);

// Side a → b as a line in robust_line's form.
cv::Vec4f line_along(const cv::Point2d &a, const cv::Point2d &b);

// The corners where consecutive lines meet; false when two are parallel.
bool corners_of(const std::array<cv::Vec4f, 4> &lines, Corners &out);

// How likely a point of the full-resolution image is to lie on a page's outline (the page
// network's outline map), to tell a page's side from a stronger edge near it.
using OutlineAt = std::function<double(const cv::Point2d &)>;

// Sub-pixel points where side a → b meets the strongest step across it, at `samples` places from
// `from` to `to` of the way along, searched `radius` pixels to either side. Given `outline`, a step
// counts in proportion to it there: the edge most likely the page's side, not the strongest.
// outline_most bounds outline's values, where known, so that it is asked less.
std::vector<cv::Point2f> side_edges(const cv::Point2d &a, const cv::Point2d &b, const cv::Mat &gray, double radius,
                                    int samples, double from = 0.1, double to = 0.9, const OutlineAt &outline = {},
                                    double outline_most = std::numeric_limits<double>::infinity());

// q with each side moved onto the strongest edge near it (within `radius`), its corners where the
// fitted lines meet; q itself where that fails (keep_edgeless: a side without edge stays put).
Corners refine(const Corners &q, const cv::Mat &gray, double radius, bool keep_edgeless = false, bool redescending = false);

// q refined twice (refine): searched `first_radius` wide, then narrowly around the edges found.
Corners fitted(const Corners &q, const cv::Mat &gray, double first_radius, bool keep_edgeless = false,
               bool redescending = false);

// How far from p along the unit `direction`, from `from` to `to` pixels, the image steps most; -1
// where it steps by 6 grey levels or less.
int strongest_step_along(const cv::Mat &gray, const cv::Point2d &p, const cv::Point2d &direction, int from, int to);

// What makes a side bowed, as a sheet held in one hand bends, and how its corners are found then.
struct BowSearch {
    // How far to either side of the straight side its edge is looked for, in side lengths. Raising
    // it finds deeper bows, and lets stronger edges beside a side (text, a shadow) pass for it.
    double reach = 0.06;
    // The reach where the page network's outline map says which edge is the page's side (text or
    // a band printed near a side is a stronger edge than a white page on a pale desk). Raising it
    // finds deeper bows: a page held in one hand sags by a tenth of its width and more.
    double outlined_reach = 0.16;
    // What a step off the network's outline still counts for, against 1 on it. Raising it trusts
    // the image's strongest edge more than the network's outline.
    double off_outline = 0.05;
    // The least bow that counts: the curve's greatest distance from its chord, in side lengths.
    // Lowering it moves the corners of sides that are straight but for the lens or a slight curl.
    double least_bow = 0.02;
    // Of the places sampled along a side, the share whose edge must lie within `tolerance` pixels
    // of the curve. Lowering it fits curves to sides that a hand or clutter partly hides.
    double least_on_curve = 0.6;
    double tolerance = 1.5;
    // Of the places sampled along a curved side, the share at which another edge running along
    // beyond it (edge_runs_beyond) stops the fit. Lowering it keeps more pages' sides straight
    // where what lies beyond them shows lines (a shadow, papers underneath, a desk's edge).
    double most_beyond = 0.4;

    // How many places along a side of `length` pixels its edge is sampled at.
    static int samples(double length) { return std::max(24, std::min(48, int(length / 10))); }
};

// A side's edge in the side's own frame: u pixels along it from `origin`, the edge lies
// a + b u + c u² pixels along `normal`. A straight side has a = b = c = 0.
struct SideCurve {
    cv::Point2d origin, along, normal;
    double length = 0, a = 0, b = 0, c = 0;
    // How far from its chord the edge was looked for, in side lengths (BowSearch's reach).
    double reach = 0;
    bool bowed = false;

    cv::Point2d at(double u) const { return origin + along * u + normal * (a + (b + c * u) * u); }
    cv::Point2d tangent(double u) const { return along + normal * (b + 2 * c * u); }
    double along_of(const cv::Point2d &p) const { return (p - origin).dot(along); }
};

// Whether another edge runs along beyond a curved side, away from `inside`: the curve is then an
// edge printed inside the page, and the page's own side lies beyond it.
bool edge_runs_beyond(const SideCurve &curve, const cv::Point2d &inside, const cv::Mat &gray, const BowSearch &bow = {});

// Each side of q fitted as a curve to its edge; `bowed` where it strays far enough from its chord.
std::array<SideCurve, 4> side_curves(const Corners &q, const cv::Mat &gray, const BowSearch &bow = {},
                                     const OutlineAt &outline = {});

// q with each corner that has a bowed side moved to where the curves of its two sides meet.
Corners joined_where_sides_meet(const Corners &q, const std::array<SideCurve, 4> &sides);

}  // namespace cfocal::quad
