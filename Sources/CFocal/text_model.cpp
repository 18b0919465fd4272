// Text lines from a Differentiable Binarization network (PP-OCRv4's detector) run by OpenCV's dnn
// module. The post-processing (threshold the probability map, score each region, grow it back by
// the unclip distance) is done here rather than by cv::dnn::TextDetectionModel_DB: 4.6's version
// aborts the whole call on one degenerate region ("length > FLT_EPSILON in unclip"), which small
// text on a page produces routinely.
#include "internal.hpp"
#include "onnx.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

using namespace cfocal;

struct cfocal_text_model {
    cv::dnn::Net net;
    // The last pass's output, which the probability map of that pass points into.
    cv::Mat output;
};

namespace {

// PP-OCR's detector expects RGB scaled to about -1…1. (ImageNet means with a 1/255 scale, the other
// setting that loads, finds far fewer lines on pages.)
constexpr double kScale = 1.0 / 127.5;
const cv::Scalar kMean(127.5, 127.5, 127.5);

// A run of text the network found: a word or a few, or a whole line.
struct Segment {
    cv::Point2d center, along;  // along: unit vector in reading direction
    double length, height, score;

    cv::Point2d across() const { return {-along.y, along.x}; }

    cfocal_text_box box() const {
        cfocal_text_box b{};
        const double us[4] = {-length / 2, length / 2, length / 2, -length / 2};
        const double vs[4] = {-height / 2, -height / 2, height / 2, height / 2};
        for (int k = 0; k < 4; k++) {
            b.x[k] = center.x + us[k] * along.x + vs[k] * across().x;
            b.y[k] = center.y + us[k] * along.y + vs[k] * across().y;
        }
        b.confidence = score;
        b.level = 0;
        b.parent = -1;
        return b;
    }
};

// Segments that run in the same direction on the same band with a gap of at most max_gap heights
// become one line. The network splits lines at wide spaces (a receipt's item and price, tabbed
// columns of a form), as text benchmarks count segments; rows join them again for readers who
// want an item and its price together. A gap of 0 joins only pieces that touch.
std::vector<Segment> joined(const std::vector<Segment> &segments, double max_gap) {
    const size_t n = segments.size();
    std::vector<size_t> root(n);
    for (size_t i = 0; i < n; i++) root[i] = i;
    auto find = [&](size_t i) {
        while (root[i] != i) i = root[i] = root[root[i]];
        return i;
    };
    for (size_t i = 0; i < n; i++) {
        const Segment &a = segments[i];
        for (size_t j = i + 1; j < n; j++) {
            const Segment &b = segments[j];
            if (std::abs(a.along.dot(b.along)) < std::cos(10 * CV_PI / 180)) continue;
            const double smaller = std::min(a.height, b.height), larger = std::max(a.height, b.height);
            if (larger > 2.2 * smaller) continue;
            const cv::Point2d d = b.center - a.center;
            if (std::abs(d.dot(a.across())) > 0.5 * smaller) continue;  // not on the same band
            const double gap = std::abs(d.dot(a.along)) - (a.length + b.length) / 2;
            if (gap > max_gap * larger) continue;
            root[find(i)] = find(j);
        }
    }
    std::vector<std::vector<cv::Point2f>> groups(n);
    std::vector<double> scores(n, 0), weights(n, 0);
    for (size_t i = 0; i < n; i++) {
        const cfocal_text_box b = segments[i].box();
        const size_t g = find(i);
        for (int k = 0; k < 4; k++) groups[g].emplace_back(static_cast<float>(b.x[k]), static_cast<float>(b.y[k]));
        scores[g] += segments[i].score * segments[i].length;
        weights[g] += segments[i].length;
    }
    std::vector<Segment> lines;
    for (size_t g = 0; g < n; g++) {
        if (groups[g].empty()) continue;
        if (groups[g].size() == 4) {
            lines.push_back(segments[g]);
            continue;
        }
        cv::Point2f c[4];
        cv::minAreaRect(groups[g]).points(c);
        const ReadingFrame frame = reading_frame(c);
        lines.push_back({frame.center, frame.along, frame.length, frame.height, scores[g] / std::max(1e-9, weights[g])});
    }
    return lines;
}

// How far a line's box reaches past its ink on every side, as a fraction of the ink's height.
// Raising it loosens every box; at 0 boxes touch the outermost ink. The network's own boxes carry
// a margin that depends on the scale the text had in its input: about 3 px round text 6–8 px tall
// in a frame, 2 px round text 30 px tall in a scan. Annotated scans (SROIE) leave about a
// seventh of the height round the ink; rendered ground truth (the ink's own box) none.
constexpr double kInkMargin = 0.15;

// The line cut to the rows and columns its ink spans, plus kInkMargin, and split where its ink
// leaves a gap wider than max_gap ink heights (0: never split). The network keeps a segment whole
// across a double space or a narrow column gap that the segment convention (ICDAR, SROIE) splits.
// Ink is the darker of Otsu's two classes, or the lighter where that is the minority (light print
// on a dark band). A line without clear ink (little contrast, or ink that would take away more
// than a plausible margin) stays as the network drew it.
std::vector<Segment> fitted_to_ink(const cv::Mat &gray, const Segment &line, double max_gap) {
    if (line.height < 3 || line.length < 3) return {line};
    // Sampled at 32 px or more across the line, so one row of ink is several rows of the strip.
    const double up = std::clamp(32.0 / line.height, 1.0, 4.0);
    const cv::Size size(static_cast<int>(std::lround(line.length * up)), static_cast<int>(std::lround(line.height * up)));
    const cv::Point2d across = line.across();
    const cv::Point2d corner = line.center - line.along * (line.length / 2) - across * (line.height / 2);
    // strip pixel (x, y) ← the image point at (x + ½) / up along the line and (y + ½) / up across it
    const cv::Point2d origin = corner + (line.along + across) * (0.5 / up);
    const cv::Matx23d toImage(line.along.x / up, across.x / up, origin.x, line.along.y / up, across.y / up, origin.y);
    cv::Mat strip, ink;
    cv::warpAffine(gray, strip, toImage, size, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
    if (percentile(strip, 0.95) - percentile(strip, 0.05) < 25) return {line};
    cv::threshold(strip, ink, 0, 1, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
    if (2 * cv::countNonZero(ink) > static_cast<int>(ink.total())) ink = 1 - ink;
    cv::Mat rows, cols;
    cv::reduce(ink, rows, 1, cv::REDUCE_SUM, CV_32S);
    cv::reduce(ink, cols, 0, cv::REDUCE_SUM, CV_32S);
    // A row counts when 2 % of it is ink (a stray pixel of noise does not); any inked column counts.
    int top = -1, bottom = -1;
    for (int y = 0; y < size.height; y++) {
        if (rows.at<int>(y) <= 0.02 * size.width) continue;
        if (top < 0) top = y;
        bottom = y;
    }
    if (top < 0) return {line};
    // Runs of inked columns [first, last], a new run after a gap wider than max_gap ink heights.
    const int inkHeight = bottom + 1 - top;
    std::vector<std::pair<int, int>> runs;
    for (int x = 0, gap = 0; x < size.width; x++) {
        if (cols.at<int>(x) == 0) {
            gap++;
            continue;
        }
        if (runs.empty() || (max_gap > 0 && gap > max_gap * inkHeight)) runs.push_back({x, x});
        runs.back().second = x;
        gap = 0;
    }
    if (runs.empty()) return {line};
    const double y0 = top / up, y1 = (bottom + 1) / up;
    const double x0 = runs.front().first / up, x1 = (runs.back().second + 1) / up;
    if (y1 - y0 < 0.35 * line.height || x1 - x0 < 0.5 * line.length) return {line};
    const double margin = kInkMargin * (y1 - y0);
    const double a = std::max(0.0, y0 - margin), b = std::min(line.height, y1 + margin);
    std::vector<Segment> pieces;
    for (const auto &[first, last] : runs) {
        const double l = std::max(0.0, first / up - margin), r = std::min(line.length, (last + 1) / up + margin);
        Segment piece = line;
        piece.center = corner + line.along * ((l + r) / 2) + across * ((a + b) / 2);
        piece.length = r - l;
        piece.height = b - a;
        pieces.push_back(piece);
    }
    return pieces;
}


// The network's text probability for a BGR image, an input_size square map (a CV_32F header over
// the network's output, valid until its next pass); `fitted` is the image's size inside it.
cv::Mat probability_map(cfocal_text_model &model, const cv::Mat &bgr, int input_size, cv::Size &fitted) {
    // The input is always input_size × input_size (a multiple of 32: the network halves the
    // resolution five times): 4.6's ONNX importer fixes the Resize layers' output sizes at the
    // first forward pass, so a second image of another size comes out empty. The image is
    // scaled to fit and padded with its mean (plain paper, not an edge).
    const int side = std::max(32, input_size / 32 * 32);
    const double fit = static_cast<double>(side) / std::max(bgr.cols, bgr.rows);
    fitted = cv::Size(std::clamp(static_cast<int>(std::lround(bgr.cols * fit)), 1, side),
                      std::clamp(static_cast<int>(std::lround(bgr.rows * fit)), 1, side));
    cv::Mat scaled, canvas;
    cv::resize(bgr, scaled, fitted, 0, 0, fit < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    cv::copyMakeBorder(scaled, canvas, 0, side - fitted.height, 0, side - fitted.width, cv::BORDER_CONSTANT,
                       cv::mean(scaled));
    const cv::Size input(side, side);
    model.net.setInput(cv::dnn::blobFromImage(canvas, kScale, input, kMean, true, false));
    model.output = model.net.forward();
    // [H, W] after the conversion's squeeze; [1, 1, H, W] from the original export.
    if (model.output.total() != static_cast<size_t>(input.area()))
        fail(CFOCAL_ERR_UNSUPPORTED, "detect text with the model: the network's output is not one probability map");
    return cv::Mat(input.height, input.width, CV_32F, model.output.ptr<float>());
}

// The text regions of a probability map as segments in the image's pixels (toImageX and toImageY
// scale the map's fitted part back), each grown back to its text's extent as DB shrank it.
std::vector<Segment> segments_of(const cv::Mat &probability, double binary_threshold, double polygon_threshold,
                                 double unclip_ratio, double toImageX, double toImageY) {
    cv::Mat text = probability > binary_threshold;
    std::vector<std::vector<cv::Point>> regions;
    cv::findContours(text, regions, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    std::vector<Segment> segments;
    for (const auto &region : regions) {
        const double area = cv::contourArea(region), perimeter = cv::arcLength(region, true);
        if (region.size() < 3 || area < 4 || perimeter <= 0) continue;
        const cv::Rect bounds = cv::boundingRect(region);
        cv::Mat mask = cv::Mat::zeros(bounds.size(), CV_8U);
        cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{region}, 255, cv::LINE_8, 0, -bounds.tl());
        const double score = cv::mean(probability(bounds), mask)[0];
        if (score < polygon_threshold) continue;
        // DB shrinks each region during training by area × (1 − r²) / perimeter; growing the
        // found region by area × ratio / perimeter restores the text's own extent.
        const double grow = area * unclip_ratio / perimeter;
        cv::RotatedRect rect = cv::minAreaRect(region);
        rect.size.width += static_cast<float>(2 * grow);
        rect.size.height += static_cast<float>(2 * grow);
        cv::Point2f corners[4];
        rect.points(corners);
        cv::Point2f mapped[4];
        for (int k = 0; k < 4; k++)
            mapped[k] = {static_cast<float>((corners[k].x + 0.5) * toImageX - 0.5),
                         static_cast<float>((corners[k].y + 0.5) * toImageY - 0.5)};
        const ReadingFrame frame = reading_frame(mapped);
        segments.push_back({frame.center, frame.along, frame.length, frame.height, score});
    }
    return segments;
}

// A lone narrow character ("1", "l") comes out of minAreaRect taller than wide, read top to
// bottom; short segments across the reading direction (that of the elongated ones) are turned to
// it, or they would neither join their row nor report upright. Long ones across it are a table's
// rule or border, or a column of aligned digits read the wrong way, and are dropped.
void turn_to_reading_direction(std::vector<Segment> &segments) {
    // Directions are axial (a line read either way is the same line): they are averaged as
    // doubled angles, so that a few segments across the text cannot tilt the mean.
    cv::Point2d doubled(0, 0);
    for (const Segment &s : segments) {
        if (s.length < 2 * s.height) continue;
        const double angle = std::atan2(s.along.y, s.along.x);
        doubled += cv::Point2d(std::cos(2 * angle), std::sin(2 * angle)) * s.length;
    }
    if (cv::norm(doubled) == 0) return;
    const double angle = std::atan2(doubled.y, doubled.x) / 2;
    const cv::Point2d reading(std::cos(angle), std::sin(angle));
    segments.erase(std::remove_if(segments.begin(), segments.end(),
                                  [&](const Segment &s) {
                                      return s.length >= 3 * s.height && std::abs(s.along.dot(reading)) < std::cos(CV_PI / 4);
                                  }),
                   segments.end());
    for (Segment &s : segments) {
        if (std::abs(s.along.dot(reading)) >= std::cos(CV_PI / 4)) continue;
        s.along = reading;
        std::swap(s.length, s.height);
    }
}

}  // namespace

extern "C" {

cfocal_status cfocal_text_model_open(const char *path, cfocal_text_model **out) {
    return guarded("load text model", [&] {
        if (path == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "load text model: missing argument");
        *out = nullptr;
        auto model = std::make_unique<cfocal_text_model>();
        model->net = read_onnx(path, "text model");
        *out = model.release();
        return CFOCAL_OK;
    });
}

void cfocal_text_model_free(cfocal_text_model *model) { delete model; }

cfocal_status cfocal_text_model_detect(cfocal_text_model *model, const cfocal_image *image, int32_t input_size,
                                       double binary_threshold, double polygon_threshold, double unclip_ratio,
                                       double max_line_gap, double max_segment_gap, cfocal_text_box *out,
                                       int32_t capacity, int32_t *count) {
    return guarded("detect text with the model", [&] {
        validate(image, "detect text with the model");
        if (model == nullptr || out == nullptr || count == nullptr || capacity < 0 || input_size < 32)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "detect text with the model: bad argument");
        *count = 0;
        cv::Mat bgr;
        switch (image->format) {
        case CFOCAL_BGR8: bgr = planes_of(*image)[0]; break;
        case CFOCAL_BGRA8: cv::cvtColor(planes_of(*image)[0], bgr, cv::COLOR_BGRA2BGR); break;
        default: cv::cvtColor(gray_of(*image), bgr, cv::COLOR_GRAY2BGR); break;
        }
        cv::Size fitted;
        const cv::Mat probability = probability_map(*model, bgr, input_size, fitted);
        std::vector<Segment> segments = segments_of(probability, binary_threshold, polygon_threshold, unclip_ratio,
                                                    static_cast<double>(bgr.cols) / fitted.width,
                                                    static_cast<double>(bgr.rows) / fitted.height);
        turn_to_reading_direction(segments);
        // gray_of gives the same pixels as converting bgr back, without the round trip for gray
        // and 4:2:0 images.
        const cv::Mat gray = gray_of(*image);
        std::vector<Segment> lines;
        for (const Segment &line : joined(segments, max_line_gap))
            for (const Segment &piece : fitted_to_ink(gray, line, max_segment_gap)) lines.push_back(piece);
        // The most confident first; ties keep their order (std::stable_sort's temporary buffer is
        // deprecated in libstdc++ 12).
        std::vector<size_t> order(lines.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return lines[a].score != lines[b].score ? lines[a].score > lines[b].score : a < b;
        });
        int written = 0;
        for (size_t i : order) {
            if (written == capacity) break;
            out[written++] = lines[i].box();
        }
        *count = written;
        return CFOCAL_OK;
    });
}

}  // extern "C"
