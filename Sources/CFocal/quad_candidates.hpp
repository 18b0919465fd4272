// Quads from what the search traces: a region's hull, straight lines, a binary map; the shape tests
// every candidate passes; and the geometry they share (order, overlap, scaling between grids).
// quads.cpp's search makes its candidates with these. Private to the shim.
#pragma once

#include "internal.hpp"
#include "quad_sides.hpp"

#include <opencv2/core.hpp>
#include <array>
#include <optional>
#include <vector>

namespace cfocal::quad {

// Orders four points clockwise on screen (y down), starting at the one with the smallest x + y.
Corners order(const std::array<cv::Point2d, 4> &points);

// Whether q's shorter side over its longer (each the mean of two opposite sides) is within the
// options' aspect ratios.
bool aspect_within(const Corners &q, const cfocal_quad_options &o);

// Shape tests from the options: size, aspect ratio, interior angles.
bool acceptable_shape(const Corners &q, const cfocal_quad_options &o, double shorter_image_side, cv::Size size);

// Reduces a convex hull to quads: by polygon approximation, and by extending its four longest edges
// (which recovers corners that are clipped, occluded or rounded).
void quads_from_hull(const std::vector<cv::Point> &hull, std::vector<Corners> &out);

// A straight edge: a point on it, its unit direction, and how many edge pixels support it.
struct Line {
    cv::Point2d point, direction;
    double length;
};

// A line's direction, of the two, that points right (or down, when vertical): lines compare by it.
cv::Point2d canonical(const cv::Point2d &direction);

// Long straight edges, with collinear pieces merged (a page side broken by an overlapping object
// is one line).
std::vector<Line> long_lines(const cv::Mat &edges, double min_length, int keep);

// Quads whose sides lie on four of the lines: two roughly opposite pairs crossing each other.
void quads_from_lines(const std::vector<Line> &lines, double min_side, cv::Size size, std::vector<Corners> &out);

// Quads from each contour of a binary map whose hull covers at least min_area (quads_from_hull's).
void quads_from_mask(const cv::Mat &mask, double min_area, std::vector<Corners> &out);

// Both ends of a → b within `margin` of the same image border.
bool on_border(const cv::Point2d &a, const cv::Point2d &b, cv::Size size, double margin = 3);

// The area two convex quads have in common.
double overlap_area(const Corners &a, const Corners &b);

// The intersection of two convex quads over their union.
double iou(const Corners &a, const Corners &b);

// How far p lies from the nearest of the lines through q's sides.
double distance_to_sides(const cv::Point2d &p, const Corners &q);

// Which of inner's sides run inside outer, off every line of outer's sides: both points a quarter
// of the way in from the side's ends lie further than `reach` from each of them (distance_to_sides).
std::array<bool, 4> sides_within(const Corners &inner, const Corners &outer, double reach);

// outer cut short along one side: inner shares outer's side k (corners k and k + 1, each within
// `near`), and inner's other two corners lie on outer's neighbouring sides (within 2 × near of them),
// at `kept[0]` of the way from corner k + 1 towards k + 2 and `kept[1]` from corner k towards k + 3.
struct CutAlongASide {
    std::array<double, 2> kept{};
    // The two pieces of outer's neighbouring sides beyond inner, each from inner's corner to outer's.
    std::array<std::array<cv::Point2d, 2>, 2> beyond{};
    Corners strip;  // outer's part beyond inner
};
std::optional<CutAlongASide> cut_along_a_side(const Corners &inner, const Corners &outer, double near);

// Each side fitted again to the region's outline points near it (away from the corners), so the
// quad follows the region's straight boundary rather than its hull's vertices.
Corners fitted_to_outline(const Corners &q, const std::vector<cv::Point> &outline, double tolerance);

// A point on a pixel grid of size `from` taken onto one of size `to`, the grids' outer edges
// together (pixel centres at +0.5): between the full image, the working image and the maps.
cv::Point2d rescaled(const cv::Point2d &p, double from, double to);

// Each corner so.
Corners rescaled(const Corners &q, double from, double to);

}  // namespace cfocal::quad
