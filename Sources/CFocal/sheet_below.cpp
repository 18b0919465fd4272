// The sheet a page lies on, cut off the page's quad (SheetBelow, sheet_below.hpp).
#include "sheet_below.hpp"

#include "quad_evidence.hpp"
#include "quad_sides.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace cfocal::quad {

namespace {

// One quad's search for the sheets below it, in one frame's scene.
class SheetBelowSearch {
public:
    explicit SheetBelowSearch(const SheetBelowScene &scene)
        : scene_(scene), image_(scene.image), full_(scene.full), gx_(scene.gx), gy_(scene.gy), view_(scene.view),
          scale_(scene.scale) {}

    // q without the sheets it lies on, one strip at a time (a sheet can show along two sides).
    Corners cut_off_sheets_below(Corners q) const {
        for (int strips = 0; strips < 2; ++strips) {
            const Corners cut = cut_off_sheet_below(q);
            if (cut == q) break;
            q = cut;
        }
        return q;
    }

private:
    // q with the deepest strip along one side cut off where it is a sheet below the page (SheetBelow):
    // a straight edge crossing q about parallel to that side, from neighbour to neighbour, is the
    // page's own side. q as it is where there is none.
    Corners cut_off_sheet_below(const Corners &q) const {
        const SheetBelow sheet;
        // Most pages have no outline drawn inside them, nor less page along a side than in the
        // rest: then the image's lines need not be found.
        if (!outline_drawn_inside(q)) return q;
        const bool on_clear_edges =
            scene_.cuts_on_clear_edges && support(q, gx_, gy_, 28).score >= sheet.least_edges_around;
        if (!on_clear_edges && !page_drops_along_a_side(q)) return q;
        const cv::Point2d centre = centre_of(q);
        std::array<cv::Vec4f, 4> q_sides;
        for (int k = 0; k < 4; ++k) q_sides[k] = line_along(q[k], q[(k + 1) % 4]);
        Corners best = q;
        for (int i = 0; i < 4; ++i) {
            const cv::Point2d a = q[i], b = q[(i + 1) % 4], along = (b - a) / cv::norm(b - a);
            cv::Point2d inward(-along.y, along.x);
            if ((centre - a).dot(inward) < 0) inward = -inward;
            const cv::Point2d middle = (a + b) * 0.5;
            cv::Point2d opposite;
            if (!intersect(middle, inward, q[(i + 2) % 4], q[(i + 3) % 4] - q[(i + 2) % 4], opposite)) continue;
            const double across = (opposite - middle).dot(inward);
            if (across < 1) continue;
            for (const auto &line : scene_.straight_edges()) {
                cv::Point2d crossing;
                if (std::abs(line.direction.cross(along)) > sheet.most_sine ||
                    !intersect(middle, inward, line.point, line.direction, crossing))
                    continue;
                const double depth = (crossing - middle).dot(inward) / across;
                if (depth < sheet.least_depth || depth > sheet.most_depth) continue;
                std::array<cv::Vec4f, 4> sides = q_sides;
                sides[i] = cv::Vec4f(float(line.direction.x), float(line.direction.y), float(line.point.x),
                                     float(line.point.y));
                Corners rest;
                if (!corners_of(sides, rest) || !fitted_to_edge(sides, i, rest) || !convex(rest) ||
                    !scene_.acceptable(rest))
                    continue;
                if (best != q && area(rest) <= area(best)) continue;  // a shallower cut is found already
                if (is_sheet_below(q, rest, i, on_clear_edges)) best = rest;
            }
        }
        return best;
    }

    // Side i of `sides` (and rest, the corners they meet at) moved onto the edge it lies near: a
    // Hough line is a degree and a pixel off, a few pixels at the ends of a page's side. Searched
    // wide, then narrowly. False where too little of the side shows an edge.
    bool fitted_to_edge(std::array<cv::Vec4f, 4> &sides, int i, Corners &rest) const {
        for (double radius : {6.0, 2.0}) {
            const Corners at = at_full(rest);
            const auto points = side_edges(at[i], at[(i + 1) % 4], full_, radius / scale_, 40);
            if (points.size() < 20) return false;
            const cv::Vec4f line = robust_line(points, true);
            const cv::Point2d through = rescaled(cv::Point2d(line[2], line[3]), 1, scale_);
            sides[i] = cv::Vec4f(line[0], line[1], float(through.x), float(through.y));
            if (!corners_of(sides, rest)) return false;
        }
        return true;
    }

    // Whether the strip of q beyond side i of rest (rest is q with that side moved in) is a sheet the
    // page rest lies on (SheetBelow): the network's maps show the cut (the outline map draws it, the
    // page map marks the strip less page) or, where on_clear_edges, the image does.
    bool is_sheet_below(const Corners &q, const Corners &rest, int i, bool on_clear_edges) const {
        const SheetBelow sheet;
        const cv::Point2d a = rest[i], b = rest[(i + 1) % 4];
        const Corners at = at_full(rest);
        const double drawn = outline_between(at[i], at[(i + 1) % 4], view_, scale_);
        if (drawn < (on_clear_edges ? sheet.least_drawn_on_clear_edges : sheet.least_drawn)) return false;
        auto steps = [&](const cv::Point2d &from, const cv::Point2d &to) {
            return stepping(from, to, gx_, gy_, sheet.step).either_way();
        };
        const double along = steps(a, b);
        const double ends = std::max(steps(a, a + (b - a) * sheet.end), steps(b + (a - b) * sheet.end, b));
        if (along < sheet.least_stepping || ends < sheet.least_stepping) return false;
        const Corners strip = order({q[i], q[(i + 1) % 4], rest[(i + 1) % 4], rest[i]});
        // The page drop, from the map's row sums, rules most cuts out before the strip's pixels are
        // read: the network's way needs its least drop, the image's way a strip no more page.
        const double drop = mean_page(rest, view_) - mean_page(strip, view_);
        if (drop < (on_clear_edges ? 0.0 : least_page_drop(sheet, strip, q))) return false;
        const double paper = paper_share(at_full(strip), full_);
        if (paper < sheet.least_paper || interior_saturation(at_full(strip), image_) > sheet.most_saturation)
            return false;
        if (drawn >= sheet.least_drawn && drop >= least_page_drop(sheet, strip, q)) return true;
        return on_clear_edges && area(strip) >= sheet.least_share_on_clear_edges * area(q) &&
               std::min(along, ends) >= sheet.least_stepping_on_clear_edges &&
               paper >= sheet.least_paper_on_clear_edges &&
               scene_.plain_paper(at) >= sheet.least_rest_paper_on_clear_edges;
    }

    // How much less page than the rest the page map must see in `strip`, cut off q (SheetBelow).
    static double least_page_drop(const SheetBelow &sheet, const Corners &strip, const Corners &q) {
        return area(strip) >= sheet.deep_share * area(q) ? sheet.least_deep_page_drop : sheet.least_page_drop;
    }

    // Whether the page map could mark a strip along one of q's sides clearly less page than the
    // rest (is_sheet_below's page drop): cut parallel to each side at depths across SheetBelow's
    // range, a strip sees at least `least_page_drop` less page, less a margin for the cut's tilt
    // and its fit onto the image's edge. Finding the image's lines (straight_edges: Canny and
    // HoughLinesP over the text of the page, 0.7 ms at .low) is left for pages that pass.
    bool page_drops_along_a_side(const Corners &q) const {
        const SheetBelow sheet;
        // The development and held-apart sets cut the same strips with a margin of 0.05 as with
        // 0.15 (0.7.9's); 0.05 leaves room for a cut tilted or moved onto an edge, and with the
        // deeper strips' smaller drop (0.7.10) keeps the sample clip's frames from searching lines.
        const double margin = 0.05;
        for (int i = 0; i < 4; ++i) {
            const int j = (i + 1) % 4, far_i = (i + 3) % 4, far_j = (i + 2) % 4;
            for (double depth = sheet.least_depth - 0.02; depth <= sheet.most_depth + 0.02; depth += 0.02) {
                const cv::Point2d a = q[i] + (q[far_i] - q[i]) * depth, b = q[j] + (q[far_j] - q[j]) * depth;
                Corners rest = q, strip = q;
                rest[i] = a, rest[j] = b;
                strip[far_i] = a, strip[far_j] = b;
                if (mean_page(rest, view_) - mean_page(strip, view_) >= least_page_drop(sheet, strip, q) - margin)
                    return true;
            }
        }
        return false;
    }

    // Whether the outline map draws, inside q (its corners brought 8 % nearer its centre, which
    // leaves its own sides' outline out), at least a third of its shorter side's length.
    bool outline_drawn_inside(const Corners &q) const {
        const Corners inner = view_.to_map(q);
        const cv::Point2d centre = centre_of(inner);
        std::vector<cv::Point> polygon;
        for (const auto &p : inner) polygon.emplace_back(centre + (p - centre) * 0.92);
        const cv::Rect box = cv::boundingRect(polygon) & cv::Rect(0, 0, view_.outline.cols, view_.outline.rows);
        if (box.empty()) return false;
        cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
        for (auto &p : polygon) p -= box.tl();
        cv::fillConvexPoly(mask, polygon, 255);
        const cv::Mat drawn = view_.outline(box) > 0.5;
        double shorter = 1e9;
        for (int k = 0; k < 4; ++k) shorter = std::min(shorter, cv::norm(inner[(k + 1) % 4] - inner[k]));
        return cv::countNonZero(drawn & mask) >= shorter / 3;
    }

    Corners at_full(const Corners &q) const { return rescaled(q, scale_, 1); }

    const SheetBelowScene &scene_;
    const cfocal_image &image_;
    const cv::Mat &full_, &gx_, &gy_;
    const NetworkView &view_;
    const double scale_;
};

}  // namespace

Corners cut_off_sheets_below(Corners q, const SheetBelowScene &scene) {
    return SheetBelowSearch(scene).cut_off_sheets_below(q);
}

}  // namespace cfocal::quad
