// Fitting a quad's sides to the image's edges (quad_sides.hpp says what each part does).
#include "quad_sides.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace cfocal::quad {
namespace {

// The least-squares parabola v = a + b u + c u² of the points added to it, in the order added.
struct ParabolaFit {
    cv::Matx33d normal_matrix = cv::Matx33d::zeros();
    cv::Vec3d right{0, 0, 0};
    int used = 0;

    void add(const cv::Point2d &uv) {
        const double u = uv.x, powers[3] = {1, u, u * u};
        for (int r = 0; r < 3; ++r) {
            right[r] += powers[r] * uv.y;
            for (int col = 0; col < 3; ++col) normal_matrix(r, col) += powers[r] * powers[col];
        }
        ++used;
    }

    bool solve(cv::Vec3d &abc) const { return used >= 3 && cv::solve(normal_matrix, right, abc, cv::DECOMP_LU); }
};

// The parabola nearest to the points whose index `use` admits.
template <typename Admit>
bool parabola_through(const std::vector<cv::Point2d> &uv, Admit use, cv::Vec3d &abc) {
    ParabolaFit fit;
    for (size_t k = 0; k < uv.size(); ++k)
        if (use(k)) fit.add(uv[k]);
    return fit.solve(abc);
}

// The same through the points at ascending indices `picks` (one counted once), without visiting
// the rest.
bool parabola_through(const std::vector<cv::Point2d> &uv, const std::array<size_t, 3> &picks, cv::Vec3d &abc) {
    ParabolaFit fit;
    for (size_t i = 0; i < picks.size(); ++i)
        if (i == 0 || picks[i] != picks[i - 1]) fit.add(uv[picks[i]]);
    return fit.solve(abc);
}

// Of the parabolas v = a + b u + c u² through three of the points (u, v) (one from each third of
// the list, in u's order: a deterministic spread of them), the one most points lie on within
// `tolerance`, fitted again to those points; and how many lie on that. 0 points when none fits.
std::pair<cv::Vec3d, int> parabola_most_lie_on(const std::vector<cv::Point2d> &uv, double tolerance) {
    const int n = int(uv.size());
    auto on = [&](const cv::Vec3d &abc, size_t k) {
        const double u = uv[k].x;
        return std::abs(abc[0] + (abc[1] + abc[2] * u) * u - uv[k].y) <= tolerance;
    };
    auto count_on = [&](const cv::Vec3d &abc) {
        int count = 0;
        for (size_t k = 0; k < uv.size(); ++k) count += on(abc, k);
        return count;
    };
    constexpr int spread = 5;
    cv::Vec3d best;
    int most = 0;
    for (int i = 0; i < spread; ++i)
        for (int j = 0; j < spread; ++j)
            for (int k = 0; k < spread; ++k) {
                // Ascending, each in its own third.
                const std::array<size_t, 3> picks{size_t(i * n / (3 * spread)), size_t(n / 3 + j * n / (3 * spread)),
                                                  size_t(2 * n / 3 + k * n / (3 * spread))};
                cv::Vec3d abc;
                if (!parabola_through(uv, picks, abc)) continue;
                const int count = count_on(abc);
                if (count > most) most = count, best = abc;
            }
    cv::Vec3d fitted;
    if (most == 0 || !parabola_through(uv, [&](size_t m) { return on(best, m); }, fitted)) return {best, 0};
    return {fitted, count_on(fitted)};
}

// Side a → b of a page fitted as a parabola to its edge, searched wide (parabola_most_lie_on).
// Bowed when enough points lie on it and it strays far enough from its chord; the caller still
// asks whether another edge runs along beyond it (edge_runs_beyond).
SideCurve side_curve(const cv::Point2d &a, const cv::Point2d &b, const cv::Mat &gray, const BowSearch &bow,
                     const OutlineAt &outline) {
    SideCurve curve;
    curve.origin = a;
    curve.length = cv::norm(b - a);
    curve.along = (b - a) / curve.length;
    curve.normal = cv::Point2d(curve.along.y, -curve.along.x);
    curve.reach = outline ? bow.outlined_reach : bow.reach;
    const int samples = BowSearch::samples(curve.length);
    OutlineAt weighted;
    if (outline) weighted = [&](const cv::Point2d &p) { return bow.off_outline + outline(p); };
    // The outline map is a probability, at most 1 but for the rounding of its interpolations.
    const std::vector<cv::Point2f> edges = side_edges(a, b, gray, std::max(4.0, curve.reach * curve.length), samples,
                                                      0.04, 0.96, weighted, bow.off_outline + 1 + 1e-6);
    if (edges.size() < bow.least_on_curve * samples) return curve;
    std::vector<cv::Point2d> uv;
    for (const auto &e : edges) {
        const cv::Point2d from_a = cv::Point2d(e) - a;
        uv.emplace_back(from_a.dot(curve.along), from_a.dot(curve.normal));
    }
    const auto [fitted, on] = parabola_most_lie_on(uv, bow.tolerance);
    const double sagitta = std::abs(fitted[2]) * curve.length * curve.length / 4;
    if (on < bow.least_on_curve * samples || sagitta < std::max(3.0, bow.least_bow * curve.length)) return curve;
    curve.a = fitted[0], curve.b = fitted[1], curve.c = fitted[2];
    curve.bowed = true;
    return curve;
}

}  // namespace

// A line through points, robust to the few that lie elsewhere (text near a page's edge, a finger
// over it): least squares reweighted with Huber's weights (1 within 1.345 px of the line, falling
// off as 1 / distance beyond), the M-estimator of cv::fitLine's DIST_HUBER — which in OpenCV 4.6
// takes about 130 µs for a side's 120 points (measured here), against a few µs for this loop; a
// quad's fit calls it eight times. Returns vx, vy, x0, y0 as cv::fitLine does.
// A line through points, Huber-weighted. Redescending, the weights then fall to zero beyond a few
// pixels (Tukey's biweight), so that where two edges meet at an angle (a page's side and the page
// beside it) the line settles on the one with most of the points instead of between them.
cv::Vec4f robust_line(const std::vector<cv::Point2f> &points, bool redescending) {
    constexpr double huber = 1.345, tukey = 4.685;
    std::vector<double> weights(points.size(), 1.0);
    cv::Point2d mean, direction(1, 0);
    auto fit = [&] {
        double total = 0, sxx = 0, sxy = 0, syy = 0;
        mean = {0, 0};
        for (size_t k = 0; k < points.size(); ++k) {
            mean += cv::Point2d(points[k]) * weights[k];
            total += weights[k];
        }
        mean *= 1 / total;
        for (size_t k = 0; k < points.size(); ++k) {
            cv::Point2d d = cv::Point2d(points[k]) - mean;
            sxx += weights[k] * d.x * d.x;
            sxy += weights[k] * d.x * d.y;
            syy += weights[k] * d.y * d.y;
        }
        // The covariance's principal axis: the direction of least squared distance to the line.
        double angle = 0.5 * std::atan2(2 * sxy, sxx - syy);
        return cv::Point2d(std::cos(angle), std::sin(angle));
    };
    auto distance = [&](size_t k) {
        cv::Point2d d = cv::Point2d(points[k]) - mean;
        return std::abs(d.x * direction.y - d.y * direction.x);
    };
    for (int iteration = 0; iteration < 8; ++iteration) {
        cv::Point2d next = fit();
        bool settled = iteration > 0 && std::abs(next.x * direction.y - next.y * direction.x) < 1e-6;
        direction = next;
        if (settled) break;
        for (size_t k = 0; k < points.size(); ++k) weights[k] = distance(k) <= huber ? 1.0 : huber / distance(k);
    }
    for (int iteration = 0; redescending && iteration < 10; ++iteration) {
        double total = 0;
        for (size_t k = 0; k < points.size(); ++k) {
            const double r = distance(k) / tukey;
            weights[k] = r < 1 ? (1 - r * r) * (1 - r * r) : 0;
            total += weights[k];
        }
        if (total < 3) break;
        direction = fit();
    }
    return cv::Vec4f(float(direction.x), float(direction.y), float(mean.x), float(mean.y));
}

// Side a → b as a line in robust_line's form (vx, vy, x0, y0).
cv::Vec4f line_along(const cv::Point2d &a, const cv::Point2d &b) {
    const cv::Point2d d = b - a;
    const double length = cv::norm(d);
    return cv::Vec4f(float(d.x / length), float(d.y / length), float(a.x), float(a.y));
}

// The corners where consecutive fitted lines (robust_line's vx, vy, x0, y0; side i from corner i
// to i + 1) meet; false when two are parallel.
bool corners_of(const std::array<cv::Vec4f, 4> &lines, Corners &out) {
    for (int i = 0; i < 4; ++i) {
        const cv::Vec4f &l1 = lines[(i + 3) % 4], &l2 = lines[i];
        if (!intersect(cv::Point2d(l1[2], l1[3]), cv::Point2d(l1[0], l1[1]), cv::Point2d(l2[2], l2[3]),
                       cv::Point2d(l2[0], l2[1]), out[i]))
            return false;
    }
    return true;
}

namespace {

// The image at `count` points p + direction · (first + i), each bilinear()'s value there, into
// values. Taken in three passes, the coordinates and the blend in loops the compiler vectorises and
// the pixels' fetch between them, with the same arithmetic as bilinear() (the same values to the
// bit); a side's profiles were a tenth of .low's search, one point at a time.
void sampled_along(const cv::Mat &gray, const cv::Point2d &p, const cv::Point2d &direction, int first, int count,
                   double *values) {
    thread_local std::vector<double> fractions, corners;
    thread_local std::vector<size_t> offsets;  // each point's top-left pixel, from gray.data
    fractions.resize(2 * size_t(count));
    corners.resize(4 * size_t(count));
    offsets.resize(count);
    double *fx = fractions.data(), *fy = fx + count;
    const size_t step = gray.step[0];
    const double right = gray.cols - 1.001, bottom = gray.rows - 1.001;
    for (int i = 0; i < count; ++i) {
        const double offset = double(first + i);
        const double x = std::max(0.0, std::min(right, p.x + direction.x * offset));
        const double y = std::max(0.0, std::min(bottom, p.y + direction.y * offset));
        const int x0 = int(x), y0 = int(y);
        fx[i] = x - x0, fy[i] = y - y0;
        offsets[i] = size_t(y0) * step + size_t(x0);
    }
    double *top_left = corners.data(), *top_right = top_left + count, *bottom_left = top_right + count,
           *bottom_right = bottom_left + count;
    for (int i = 0; i < count; ++i) {
        const uint8_t *r0 = gray.data + offsets[i];
        top_left[i] = r0[0], top_right[i] = r0[1], bottom_left[i] = r0[step], bottom_right[i] = r0[step + 1];
    }
    for (int i = 0; i < count; ++i)
        values[i] = (top_left[i] * (1 - fx[i]) + top_right[i] * fx[i]) * (1 - fy[i]) +
                    (bottom_left[i] * (1 - fx[i]) + bottom_right[i] * fx[i]) * fy[i];
}

}  // namespace

// Where a side a → b meets the strongest step in the image across it: one sub-pixel point for each
// of `samples` places evenly spread from `from` to `to` of the way along, searched `radius` pixels
// to either side, where a step of at least 6 grey levels shows. A step's weight off the outline is
// asked only where it could still beat the best so far (outline_most bounds it).
std::vector<cv::Point2f> side_edges(const cv::Point2d &a, const cv::Point2d &b, const cv::Mat &gray, double radius,
                                    int samples, double from, double to, const OutlineAt &outline, double outline_most) {
    const cv::Point2d d = b - a;
    const double length = cv::norm(d);
    const cv::Point2d normal(d.y / length, -d.x / length);
    const int steps = int(std::ceil(radius));
    std::vector<cv::Point2f> points;
    std::vector<double> profile(2 * steps + 3);
    for (int k = 0; k < samples; ++k) {
        cv::Point2d p = a + d * (from + (to - from) * (k + 0.5) / samples);
        if (p.x < 2 || p.y < 2 || p.x > gray.cols - 3 || p.y > gray.rows - 3) continue;
        sampled_along(gray, p, normal, -steps - 1, int(profile.size()), profile.data());
        int best = -1;
        double strongest = 0, most = 0;
        for (int s = 1; s + 1 < int(profile.size()); ++s) {
            const double step = std::abs(profile[s + 1] - profile[s - 1]);
            if (outline && step >= 6 && step * outline_most <= most) continue;
            const double counted = outline && step >= 6 ? step * outline(p + normal * double(s - steps - 1)) : step;
            if (counted > most) {
                most = counted;
                strongest = step;
                best = s;
            }
        }
        if (best < 2 || best + 2 >= int(profile.size()) || strongest < 6) continue;
        double left = std::abs(profile[best] - profile[best - 2]), right = std::abs(profile[best + 2] - profile[best]);
        double denominator = left - 2 * strongest + right;
        double offset = std::abs(denominator) > 1e-9 ? 0.5 * (left - right) / denominator : 0;
        offset = std::max(-0.5, std::min(0.5, offset));
        cv::Point2d edge = p + normal * (best - steps - 1 + offset);
        points.emplace_back(float(edge.x), float(edge.y));
    }
    return points;
}

// Moves each side onto the strongest edge near it in the full-resolution image and intersects
// the fitted lines. Falls back to the unrefined corners when a side finds too little edge.
// With keep_edgeless, a side that shows no edge stays where it is and the others are still fitted;
// without, the quad stays as it was.
Corners refine(const Corners &q, const cv::Mat &gray, double radius, bool keep_edgeless, bool redescending) {
    std::array<cv::Vec4f, 4> lines;
    for (int i = 0; i < 4; ++i) {
        const cv::Point2d a = q[i], b = q[(i + 1) % 4], d = b - a;
        const double length = cv::norm(d);
        const int samples = std::max(12, std::min(120, int(length / 4)));
        const std::vector<cv::Point2f> points = side_edges(a, b, gray, radius, samples);
        if (int(points.size()) < std::max(6, samples / 4)) {
            if (!keep_edgeless) return q;
            lines[i] = line_along(a, b);
            continue;
        }
        lines[i] = robust_line(points, redescending);
    }
    Corners out;
    if (!corners_of(lines, out)) return q;
    for (int i = 0; i < 4; ++i)
        if (cv::norm(out[i] - q[i]) > 4 * radius) return q;  // a side locked onto something else
    return convex(out) ? out : q;
}

Corners fitted(const Corners &q, const cv::Mat &gray, double first_radius, bool keep_edgeless, bool redescending) {
    return refine(refine(q, gray, first_radius, keep_edgeless, redescending), gray, 2.5, keep_edgeless, redescending);
}

// How far from p along `direction` (a unit vector), from `from` to `to` pixels, the image steps
// most (a central difference of more than 6 grey levels); -1 where it does not.
int strongest_step_along(const cv::Mat &gray, const cv::Point2d &p, const cv::Point2d &direction, int from, int to) {
    std::vector<double> profile(to - from + 3);
    sampled_along(gray, p, direction, from - 1, int(profile.size()), profile.data());
    int best = -1;
    double strongest = 6;
    for (int s = 1; s + 1 < int(profile.size()); ++s)
        if (std::abs(profile[s + 1] - profile[s - 1]) > strongest)
            strongest = std::abs(profile[s + 1] - profile[s - 1]), best = from - 1 + s;
    return best;
}

// Whether another edge runs along beyond a curved side, away from `inside`: the strongest step
// from 3 pixels beyond the curve to twice BowSearch::reach (the edges-only reach, also where the
// outline map widened the curve's own search: looking further beyond found more bands that are
// not there), at BowSearch::samples places along it, on one parabola for at least `most_beyond`
// of them. The curve is then an edge printed inside the page (a band along a book's top), and the
// page's own side lies beyond it.
bool edge_runs_beyond(const SideCurve &curve, const cv::Point2d &inside, const cv::Mat &gray, const BowSearch &bow) {
    const int samples = BowSearch::samples(curve.length);
    const cv::Point2d middle = curve.at(curve.length / 2);
    const double outward = (middle - inside).dot(curve.normal) > 0 ? 1.0 : -1.0;
    const int farthest = int(std::ceil(2 * std::max(4.0, bow.reach * curve.length)));
    std::vector<cv::Point2d> uv;
    for (int k = 0; k < samples; ++k) {
        const double u = curve.length * (0.04 + 0.92 * (k + 0.5) / samples);
        const cv::Point2d on_curve = curve.at(u);
        const int step = strongest_step_along(gray, on_curve, curve.normal * outward, 3, farthest + 2);
        if (step < 0) continue;
        const cv::Point2d from_origin = on_curve + curve.normal * (outward * step) - curve.origin;
        uv.emplace_back(from_origin.dot(curve.along), from_origin.dot(curve.normal));
    }
    if (uv.size() < bow.most_beyond * samples) return false;
    return parabola_most_lie_on(uv, bow.tolerance).second >= bow.most_beyond * samples;
}

// Each side of q fitted as a curve to its edge (side_curve).
std::array<SideCurve, 4> side_curves(const Corners &q, const cv::Mat &gray, const BowSearch &bow,
                                     const OutlineAt &outline) {
    std::array<SideCurve, 4> sides;
    for (int i = 0; i < 4; ++i) sides[i] = side_curve(q[i], q[(i + 1) % 4], gray, bow, outline);
    return sides;
}

// The quad joining a page's corners where its sides bow: each corner with a bowed side where the
// curves of its two sides meet (their tangents intersected, a few times over, near the corner). A
// quad fitted with straight sides puts such a corner off the page, or short of it, by about two
// thirds of the bow.
Corners joined_where_sides_meet(const Corners &q, const std::array<SideCurve, 4> &sides) {
    Corners out = q;
    for (int i = 0; i < 4; ++i) {
        const SideCurve &ending = sides[(i + 3) % 4], &starting = sides[i];
        if (!ending.bowed && !starting.bowed) continue;
        cv::Point2d corner = q[i];
        for (int step = 0; step < 4; ++step) {
            const double u1 = ending.along_of(corner), u2 = starting.along_of(corner);
            if (!intersect(ending.at(u1), ending.tangent(u1), starting.at(u2), starting.tangent(u2), corner)) return q;
        }
        const double shorter = std::min(ending.length, starting.length);
        if (cv::norm(corner - q[i]) > 2 * std::max(ending.reach, starting.reach) * shorter) return q;
        out[i] = corner;
    }
    return convex(out) ? out : q;
}

}  // namespace cfocal::quad
