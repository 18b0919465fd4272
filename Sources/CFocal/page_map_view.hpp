// What the page network says about a quad: its maps at the search's sizes (NetworkView), how much
// it agrees that a quad is a page, how much of the quad's outline it draws, and the quads and
// straight lines it proposes. quads.cpp's search reads the network through these. Private to the shim.
#pragma once

#include "internal.hpp"
#include "quad_candidates.hpp"

#include <opencv2/core.hpp>
#include <array>
#include <utility>
#include <vector>

namespace cfocal::quad {

// The page network's maps where the search reads them. Its regions and outline lines are traced in
// `page` and `outline`, at `scale` of the working image's size, and taken to the working image's
// with to_working. Agreement is judged on sums along each row of the maps at `sums_scale` of the
// working size (CV_64F, one column more than the map: column x holds the sum of the row's first x
// values).
struct NetworkView {
    cv::Mat page, outline;  // CV_32F
    double scale = 1;       // the maps' pixels per working pixel
    double cell = 1;        // one pixel of the network's input, in the maps' pixels
    cv::Mat page_rows, outline_rows;
    double sums_scale = 1;

    Corners to_map(const Corners &working) const { return rescaled(working, 1, scale); }
    cv::Point2d to_working(const cv::Point2d &map) const { return rescaled(map, scale, 1); }
    Corners to_working(const Corners &map) const { return rescaled(map, scale, 1); }
};

// Running sums along each row of a CV_32F map, with a leading zero column.
cv::Mat row_sums(const cv::Mat &map);

// The sum of a map over the pixels whose centres lie inside the convex quad q, and their count, from
// the map's row sums: a row's span at a time, so a page-sized quad costs its height, not its area.
std::pair<double, int> sum_in(const Corners &q, const cv::Mat &rows);

// The page map's mean over a quad at the working image's size (0 where it holds no pixel).
double mean_page(const Corners &working, const NetworkView &view);

// The maps taken to where the search reads them, for a working image of size `working`.
NetworkView network_view(const PageMaps &maps, cv::Size working);

// How much the network agrees that q is a page: its mean page probability inside q (less a cell
// along the sides), times one less its mean in a band outside q (from one to three network cells
// out: the map's own blur at a page's edge spans about a cell). A quad around a page scores near 1;
// one around half a page (the band is page too), around a page and its surroundings (the inside is
// partly not page), or where the network sees no page, scores low. The band only looks near q, so
// a page region that leaks elsewhere into a bright neighbour does not pull a good quad down.
// Beyond a side on which the network draws a page's outline, what it is unsure of counts less: a
// white page on a white desk, whose region leaks half-heartedly into the desk below it, is still
// bounded where the network sees its edge (0.57 → found, on the phone photo). What it is sure is
// page still counts in full, outline or not: half a page, or a table ruled on a page, scores low.
double network_agreement(const Corners &working, const NetworkView &view);

// Straight stretches of the network's outline, at most `keep` of them, longest first: long lines in
// its band (> 0.5), each fitted again (twice, narrowing) to the band's pixels near it, so that it
// runs along the band's middle rather than across it (a band a cell wide holds Hough lines tilted
// by a cell over their length); lines on a band already fitted are dropped. Found and fitted at the
// maps' size, returned at the working image's.
std::vector<Line> outline_lines(const NetworkView &view, double min_length, int keep);

// How well the network's outline map draws each side of a quad, in order: along the side (its middle
// four fifths, a sample a cell apart) the fraction of samples where the map exceeds one half within a
// cell either way across it. Sides beyond the image count as drawn. q is at the working image's size.
std::array<double, 4> drawn_sides(const Corners &working, const NetworkView &view);

// How well the network's outline map draws a quad: of drawn_sides, the second least. One side may
// go undrawn, where a page meets a shadow or a pale desk; a quad the map does not outline has two
// or more.
double drawn_outline(const Corners &working, const NetworkView &view);

// The outline map at a point of the full-resolution image (`scale`: the working image's pixels per
// full-resolution pixel).
double outline_at(const cv::Point2d &full, const NetworkView &view, double scale);

// The outline map, on average, at point_at(t) (full resolution) for 24 values of t spread evenly
// over 0.1 … 0.9: a path's middle four fifths.
template <typename PointAt>
double mean_outline(PointAt point_at, const NetworkView &view, double scale) {
    double total = 0;
    for (int k = 0; k < 24; ++k) total += outline_at(point_at(0.1 + 0.8 * (k + 0.5) / 24), view, scale);
    return total / 24;
}

// The outline map, on average, at 24 places along a → b's middle four fifths (a and b at full
// resolution).
double outline_between(const cv::Point2d &a, const cv::Point2d &b, const NetworkView &view, double scale);

// Quads the network itself proposes: the page regions less the outline band (which splits touching
// pages apart), each grown back to its whole region, its hull reduced to a quad whose sides are
// fitted to the region's boundary. Tried at two levels, as a region can leak into a bright
// neighbour at one half and not at a stricter level. Traced at the maps' size; min_area and the quads
// at the working image's.
std::vector<Corners> network_quads(const NetworkView &view, double min_area);

}  // namespace cfocal::quad
