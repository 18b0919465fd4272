// Where a chosen page really ends (page_extent.hpp): sides moved in off the frame's border and at a
// book's gutter, and out across a picture printed to the page's edge.
#include "page_extent.hpp"

#include "quad_evidence.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace cfocal::quad {

namespace {

// The one side of q lying along the image's border; -1 when none does, or more than one (a page
// filling the frame, whose neighbouring sides are not in view).
int side_on_border(const Corners &q, cv::Size size, double margin) {
    int side = -1;
    for (int i = 0; i < 4; ++i) {
        if (!on_border(q[i], q[(i + 1) % 4], size, margin)) continue;
        if (side >= 0) return -1;
        side = i;
    }
    return side;
}

// A neighbour of a side on the border, q[near] to q[far], moved onto the edge that steps along
// most of its stretch surely on the page (the part beyond `reach`): turned by up to `swing` about a
// point slid up to `slide` along the side opposite the border, which meets it at q[far]. Its ends
// then lie where it meets the border side's line and the opposite side's. q as it was when the
// neighbour already follows an edge there, or no such line finds one.
Corners turned_onto_edge(Corners q, int near, int far, int border_side, double slide, const cv::Mat &gx,
                         const cv::Mat &gy, const FoldSearch &f = {}) {
    const cv::Point2d d = q[near] - q[far];
    auto share_along = [&](const cv::Point2d &from, const cv::Point2d &direction) {
        const std::vector<int> profile = step_profile(from, from + direction * (1 - f.reach), gx, gy, f.threshold);
        // Not the first few samples, where the far corner's other side steps too.
        return stepping_share(profile, profile.size() / 20, profile.size());
    };
    if (share_along(q[far], d) >= f.other_edged) return q;
    const int opposite = (border_side + 2) % 4;
    const cv::Point2d across = q[(opposite + 1) % 4] - q[opposite];
    const cv::Point2d along_opposite = across / std::max(1e-9, cv::norm(across));
    double best = 0, best_cost = 0;
    cv::Point2d best_pivot = q[far], best_direction = d;
    for (double offset = -slide; offset <= slide + 1e-9; offset += 1) {
        const cv::Point2d pivot = q[far] + along_opposite * offset;
        for (double degrees = -f.swing; degrees <= f.swing + 1e-9; degrees += 0.5) {
            const double a = degrees * CV_PI / 180, c = std::cos(a), s = std::sin(a);
            const cv::Point2d direction(c * d.x - s * d.y, s * d.x + c * d.y);
            const double share = share_along(pivot, direction);
            // Of lines stepping as much, the nearest to the neighbour as fitted.
            const double cost = std::abs(offset) / std::max(1.0, slide) + std::abs(degrees) / f.swing;
            if (share > best + 1e-9 || (std::abs(share - best) <= 1e-9 && cost < best_cost)) {
                best = share;
                best_cost = cost;
                best_pivot = pivot;
                best_direction = direction;
            }
        }
    }
    if (best < f.edged) return q;
    cv::Point2d near_end, far_end;
    const cv::Point2d border = q[(border_side + 1) % 4] - q[border_side];
    if (!intersect(best_pivot, best_direction, q[border_side], border, near_end) ||
        !intersect(best_pivot, best_direction, q[opposite], across, far_end))
        return q;
    q[near] = near_end;
    q[far] = far_end;
    return q;
}

// Side i moved along its neighbours to where, between `least` and `reach` of their lengths, they
// go from no edge to edge; q as it was where they do not.
Corners cut_where_sides_end(Corners q, int i, double least, double reach, const cv::Mat &gx, const cv::Mat &gy,
                            const FoldSearch &f = {}) {
    const int j = (i + 1) % 4;
    // The neighbours, from side i's ends to their far corners.
    const cv::Point2d far_i = q[(i + 3) % 4], far_j = q[(j + 1) % 4];
    const std::vector<int> along_i = step_profile(q[i], far_i, gx, gy, f.threshold),
                           along_j = step_profile(q[j], far_j, gx, gy, f.threshold);
    const double longer = double(std::max(along_i.size(), along_j.size()));
    double fewest_wrong = 0, cut_at = 0;
    bool found = false;
    for (int k = int(std::ceil(least * longer)); k <= int(reach * longer); ++k) {
        const double at = k / longer;
        const size_t cut_i = size_t(std::lround(at * along_i.size())), cut_j = size_t(std::lround(at * along_j.size()));
        const double beside_i = stepping_share(along_i, 0, cut_i), beyond_i = stepping_share(along_i, cut_i, along_i.size()),
                     beside_j = stepping_share(along_j, 0, cut_j), beyond_j = stepping_share(along_j, cut_j, along_j.size());
        // One neighbour ends cleanly there; the other at least does not run on past it.
        const bool clean_i = beside_i <= f.edgeless && beyond_i >= f.edged,
                   clean_j = beside_j <= f.edgeless && beyond_j >= f.edged,
                   other_i = beside_i <= f.other_edgeless && beyond_i >= f.other_edged,
                   other_j = beside_j <= f.other_edgeless && beyond_j >= f.other_edged;
        // The cut that best splits the neighbour ending cleanly into no edge, then edge: the fewest
        // of its samples on the wrong side. Not the other's, whose edge may bend into the gutter
        // for a stretch before it.
        const double wrong_i = (beside_i * cut_i + (1 - beyond_i) * (along_i.size() - cut_i)) / along_i.size(),
                     wrong_j = (beside_j * cut_j + (1 - beyond_j) * (along_j.size() - cut_j)) / along_j.size();
        for (const double wrong : {clean_i && other_j ? wrong_i : 2.0, clean_j && other_i ? wrong_j : 2.0}) {
            if (wrong > 1 || (found && wrong >= fewest_wrong)) continue;
            found = true;
            fewest_wrong = wrong;
            cut_at = at;
        }
    }
    if (!found) return q;
    q[i] += (far_i - q[i]) * cut_at;
    q[j] += (far_j - q[j]) * cut_at;
    return q;
}

// One frame's searches for where its chosen pages end.
class PageExtentSearch {
public:
    explicit PageExtentSearch(const PageExtentScene &scene)
        : full_(scene.full), gx_(scene.gx), gy_(scene.gy), scale_(scene.scale), working_size_(scene.working_size),
          view_(scene.view) {}

    // q with a side moved out across a picture printed to the page's edge (PictureToTheEdge). The
    // network's sides are a few working pixels precise, and run on three times their length they
    // miss the page's edge: they are fitted to the image's edges first. A margin beyond the picture
    // (a header, the page's white edge) is a band of its own.
    Corners extended_across_picture(const Corners &q, double first_radius) const {
        const PictureToTheEdge p;
        BandSearch deep;
        deep.least = p.least;
        deep.reach = p.reach;
        deep.nearest = true;
        const Corners on_edges = at_working(fitted(at_full(q), full_, first_radius));
        const Corners across = extended_over_bands(on_edges, gx_, gy_, deep);
        if (across == on_edges) return q;
        return extended_over_bands(at_working(refine(at_full(across), full_, 2.5)), gx_, gy_);
    }

    // A refined quad (full resolution) with its side along the border moved in to where its
    // neighbours' edges begin, and refined again. Judged on the refined sides, as the network's
    // are only a few working pixels precise; then judged again on the sides fitted without the
    // other page, which are straighter still near the gutter.
    Corners cut_at_gutter(const Corners &refined, double radius) const {
        const FoldSearch fold;
        const int side = side_on_border(at_working(refined), working_size_, fold.border);
        if (side < 0) return refined;
        // Fitted again, each side on the edge with most of its points; searched wide, as a side
        // fitted between two edges can lie well off both at its ends.
        const double wide = std::max(radius, 0.02 * std::max(full_.cols, full_.rows));
        Corners q = fitted(refined, full_, wide, true, true);
        // A neighbour fitted across the page beside this one, from the page's corner to the
        // frame's, is turned onto the page's side first.
        {
            // As far as the wide refit may have left the far corner off the page's.
            const double slide = wide * scale_;
            const Corners working = at_working(q);
            Corners turned = turned_onto_edge(working, side, (side + 3) % 4, side, slide, gx_, gy_, fold);
            turned = turned_onto_edge(turned, (side + 1) % 4, (side + 2) % 4, side, slide, gx_, gy_, fold);
            // The turn is as precise as the working image; the fit, to a tenth of a pixel.
            if (turned != working) q = refine(at_full(turned), full_, radius, true, true);
        }
        bool cut_once = false;
        for (double least : {fold.least, 0.0}) {
            const Corners working = at_working(q);
            const Corners cut = cut_where_sides_end(working, side, least, least > 0 ? fold.reach : fold.settle, gx_, gy_);
            if (cut == working) break;
            cut_once = true;
            const Corners moved = at_full(cut);
            q[side] = moved[side];
            q[(side + 1) % 4] = moved[(side + 1) % 4];
            q = fitted(q, full_, radius, true, true);
        }
        return cut_once ? q : refined;
    }

    // q with each side that lies along the frame's border moved in onto the page's own side, where
    // the network's outline draws one just inside it: a white sheet that nearly fills the frame
    // of a white desk is, to the page map, the page up to the border, and a side on the border
    // shows no edge to refine onto. The side found is the strongest step inward from the border (up
    // to BorderSearch::reach), on one line along most of the side, where the outline draws it.
    Corners off_the_border(const Corners &q) const {
        const double cell = view_.cell / (scale_ * view_.scale);  // a pixel of the network's input, in the image's
        const double reach = std::max(4 * cell, BorderSearch().reach * std::min(full_.cols, full_.rows));
        const double margin = 0.01 * std::max(full_.cols, full_.rows);
        const cv::Point2d centre = centre_of(q);
        std::array<cv::Vec4f, 4> lines;
        bool moved = false;
        for (int i = 0; i < 4; ++i) {
            const cv::Point2d a = q[i], b = q[(i + 1) % 4], d = b - a;
            const double length = cv::norm(d);
            lines[i] = line_along(a, b);
            if (length < 1 || !on_border(a, b, full_.size(), margin)) continue;
            cv::Point2d inward(d.y / length, -d.x / length);
            if ((centre - a).dot(inward) < 0) inward = -inward;
            const cv::Vec4f found = line_inward(a, b, inward, reach);
            if (found[0] == 0 && found[1] == 0) continue;
            lines[i] = found;
            moved = true;
        }
        Corners out;
        if (!moved || !corners_of(lines, out) || !convex(out)) return q;
        return out;
    }

    // The line, as robust_line gives it, on which the strongest steps inward from side a → b (up to
    // `reach` pixels in) lie at most of 40 places along its middle four fifths, where the network's
    // outline draws it more than the side itself; all zero when there is none.
    cv::Vec4f line_inward(const cv::Point2d &a, const cv::Point2d &b, const cv::Point2d &inward, double reach) const {
        const BorderSearch search;
        const cv::Vec4f none(0, 0, 0, 0);
        std::vector<cv::Point2f> points;
        for (int k = 0; k < search.samples; ++k) {
            const cv::Point2d p = a + (b - a) * (0.1 + 0.8 * (k + 0.5) / search.samples);
            const int step = strongest_step_along(full_, p, inward, 2, int(std::ceil(reach)) + 1);
            if (step >= 0) points.emplace_back(p + inward * double(step));
        }
        if (points.size() < search.least_on_line * search.samples) return none;
        const cv::Vec4f line = robust_line(points, true);
        const cv::Point2d along(line[0], line[1]), through(line[2], line[3]);
        int on = 0;
        for (const auto &p : points) on += std::abs((cv::Point2d(p) - through).cross(along)) <= search.tolerance;
        if (on < search.least_on_line * search.samples) return none;
        // a and b dropped onto the line: the outline along it, against along the side on the border
        const cv::Point2d a_on = through + along * (a - through).dot(along), b_on = through + along * (b - through).dot(along);
        const double drawn = outline_between(a_on, b_on, view_, scale_);
        if (drawn < search.least_outline || drawn < outline_between(a, b, view_, scale_) + search.outline_margin) return none;
        return line;
    }

private:
    Corners at_working(const Corners &q) const { return rescaled(q, 1, scale_); }
    Corners at_full(const Corners &q) const { return rescaled(q, scale_, 1); }

    const cv::Mat &full_, &gx_, &gy_;
    double scale_;
    cv::Size working_size_;
    const NetworkView &view_;
};

}  // namespace

Corners extended_across_picture(const Corners &q, double first_radius, const PageExtentScene &scene) {
    return PageExtentSearch(scene).extended_across_picture(q, first_radius);
}

Corners cut_at_gutter(const Corners &refined, double radius, const PageExtentScene &scene) {
    return PageExtentSearch(scene).cut_at_gutter(refined, radius);
}

Corners off_the_border(const Corners &q, const PageExtentScene &scene) {
    return PageExtentSearch(scene).off_the_border(q);
}

}  // namespace cfocal::quad
