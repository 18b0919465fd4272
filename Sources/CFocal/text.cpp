// Text lines without a model: strokes by black-hat, characters as connected components, words by
// a short horizontal closing, and words chained into lines along a shared band. Fast enough for
// every frame of a 720p stream; it expects dark print on light ground, roughly horizontal, which is
// what a rectified page gives it.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

using namespace cfocal;

namespace {

// Dark structures narrower than this (pixels) stand out in the black-hat: strokes of text up to
// headline size at frame resolution, but not shadows, folds or the page's own edge.
constexpr int kStrokeWindow = 15;
// Components taller than this many median character heights are pictures, not text.
constexpr double kMaxWordHeight = 4.0;
constexpr double kMinWordHeight = 0.5;
// A word's ink must cover at least this share of its box; rulings and picture edges cover less.
constexpr double kMinWordFill = 0.25;
// Words join a line when their vertical extents overlap by this share of the smaller one and
// their heights differ by less than kMaxHeightRatio (so a headline does not swallow body text).
constexpr double kMinBandOverlap = 0.5;
constexpr double kMaxHeightRatio = 2.2;

struct Extent {
    double minU = std::numeric_limits<double>::max(), maxU = -std::numeric_limits<double>::max();
    double minV = std::numeric_limits<double>::max(), maxV = -std::numeric_limits<double>::max();
    void add(double u, double v) {
        minU = std::min(minU, u), maxU = std::max(maxU, u);
        minV = std::min(minV, v), maxV = std::max(maxV, v);
    }
    bool empty() const { return minU > maxU; }
};

struct Line {
    std::vector<int> words;
    int right = 0;                 // right edge of the last word so far
    int lastTop = 0, lastBottom = 0;  // the last word's band: lines may slant
    cv::Point2d center, along, across;  // reading frame, from the ink's minimum-area rectangle
    Extent extent;
    double contrast = 0;
    int inkPixels = 0;
};

// Box corners in reading order from extents measured along `along` and `across` (pixel
// edges, not centres: a one-pixel stroke has thickness one).
cfocal_text_box box_from(const Extent &e, const cv::Point2d &center, const cv::Point2d &along,
                         const cv::Point2d &across, double confidence, int level, int parent) {
    cfocal_text_box box{};
    const double us[4] = {e.minU - 0.5, e.maxU + 0.5, e.maxU + 0.5, e.minU - 0.5};
    const double vs[4] = {e.minV - 0.5, e.minV - 0.5, e.maxV + 0.5, e.maxV + 0.5};
    for (int i = 0; i < 4; i++) {
        box.x[i] = center.x + us[i] * along.x + vs[i] * across.x;
        box.y[i] = center.y + us[i] * along.y + vs[i] * across.y;
    }
    box.confidence = confidence;
    box.level = level;
    box.parent = parent;
    return box;
}

// Text more than this many degrees off level is turned level for a second search.
constexpr double kLevelTolerance = 4.0;

// The direction (degrees, y down, −90…90) most neighbouring characters lie along each other: the
// nearest similar-sized neighbour of a character is usually the next letter on its line, since
// letters sit closer than lines.
double dominant_direction(const cv::Mat &stats, const cv::Mat &centroids, double charHeight) {
    std::vector<int> chars;
    for (int i = 1; i < stats.rows; i++) {
        const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        if (h >= 0.5 * charHeight && h <= 2 * charHeight && w <= 3 * h) chars.push_back(i);
    }
    if (chars.size() < 8) return 0;
    const double cell = 2 * charHeight;
    std::unordered_map<long long, std::vector<int>> grid;
    auto key = [](long long gx, long long gy) { return (gx << 32) ^ (gy & 0xffffffffLL); };
    for (int i : chars) {
        grid[key(static_cast<long long>(centroids.at<double>(i, 0) / cell),
                 static_cast<long long>(centroids.at<double>(i, 1) / cell))].push_back(i);
    }
    std::vector<double> histogram(90, 0);  // 2° bins over 180°
    for (int i : chars) {
        const double x = centroids.at<double>(i, 0), y = centroids.at<double>(i, 1);
        const long long gx = static_cast<long long>(x / cell), gy = static_cast<long long>(y / cell);
        double best = cell * cell, bx = 0, by = 0;
        bool found = false;
        for (long long dy = -1; dy <= 1; dy++)
            for (long long dx = -1; dx <= 1; dx++) {
                auto it = grid.find(key(gx + dx, gy + dy));
                if (it == grid.end()) continue;
                for (int j : it->second) {
                    if (j == i) continue;
                    const double hx = stats.at<int>(i, cv::CC_STAT_HEIGHT), hy = stats.at<int>(j, cv::CC_STAT_HEIGHT);
                    if (std::max(hx, hy) > 1.5 * std::min(hx, hy)) continue;
                    const double ex = centroids.at<double>(j, 0) - x, ey = centroids.at<double>(j, 1) - y;
                    if (ex * ex + ey * ey < best) best = ex * ex + ey * ey, bx = ex, by = ey, found = true;
                }
            }
        if (!found) continue;
        double degrees = std::atan2(by, bx) * 180 / CV_PI;
        if (degrees < -90) degrees += 180;
        if (degrees >= 90) degrees -= 180;
        histogram[std::clamp(static_cast<int>((degrees + 90) / 2), 0, 89)] += 1;
    }
    int peak = 0;
    double peakWeight = 0;
    for (int b = 0; b < 90; b++) {
        const double w = histogram[(b + 89) % 90] + 2 * histogram[b] + histogram[(b + 1) % 90];
        if (w > peakWeight) peakWeight = w, peak = b;
    }
    return peak * 2 - 90 + 1;
}

double total_line_length(const cfocal_text_box *boxes, int count) {
    double total = 0;
    for (int i = 0; i < count; i++)
        if (boxes[i].level == 0) total += std::hypot(boxes[i].x[1] - boxes[i].x[0], boxes[i].y[1] - boxes[i].y[0]);
    return total;
}

// The ink of a page: dark strokes narrower than kStrokeWindow (the black-hat), above Otsu's
// threshold and the caller's least contrast, without what touches the border.
struct Ink {
    cv::Mat strokes, mask;
    double threshold = 0;
};

Ink ink_of(const cv::Mat &gray, const cfocal_text_options *options) {
    Ink ink;
    cv::morphologyEx(gray, ink.strokes, cv::MORPH_BLACKHAT,
                     cv::getStructuringElement(cv::MORPH_RECT, {kStrokeWindow, kStrokeWindow}));
    // Otsu separates ink from paper texture; the floor keeps blank paper and noise empty.
    const double otsu = cv::threshold(ink.strokes, ink.mask, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    ink.threshold = std::max(otsu, options->min_contrast);
    cv::threshold(ink.strokes, ink.mask, ink.threshold, 255, cv::THRESH_BINARY);
    // Ink touching the border is the page's own edge or the background beyond it (a flattened
    // page rarely fits its quad to the pixel), and would chain along whole rows as a margin word.
    cv::Mat &mask = ink.mask;
    for (int x = 0; x < mask.cols; x++) {
        if (mask.at<uint8_t>(0, x)) cv::floodFill(mask, cv::Point(x, 0), 0);
        if (mask.at<uint8_t>(mask.rows - 1, x)) cv::floodFill(mask, cv::Point(x, mask.rows - 1), 0);
    }
    for (int y = 0; y < mask.rows; y++) {
        if (mask.at<uint8_t>(y, 0)) cv::floodFill(mask, cv::Point(0, y), 0);
        if (mask.at<uint8_t>(y, mask.cols - 1)) cv::floodFill(mask, cv::Point(mask.cols - 1, y), 0);
    }
    return ink;
}

// Connected components with their statistics.
struct Components {
    cv::Mat labels, stats, centroids;
    int count = 0;
};

// The typical character height: the median of the components shaped like characters; 0 for none.
double character_height(const Components &chars) {
    std::vector<int> heights;
    for (int i = 1; i < chars.count; i++) {
        const int w = chars.stats.at<int>(i, cv::CC_STAT_WIDTH), h = chars.stats.at<int>(i, cv::CC_STAT_HEIGHT);
        if (h >= 3 && h <= 80 && w <= 3 * h && chars.stats.at<int>(i, cv::CC_STAT_AREA) >= 6) heights.push_back(h);
    }
    return heights.empty() ? 0 : median_of(heights);
}

// The word components worth chaining, left to right: not specks, not blocks.
std::vector<int> word_candidates(const Components &wordParts, double charHeight) {
    const cv::Mat &stats = wordParts.stats;
    std::vector<int> words;
    for (int i = 1; i < wordParts.count; i++) {
        const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        // Specks (dust, the dots of a rule, noise) are lower than half a character.
        if (h < std::max(3.0, kMinWordHeight * charHeight) || h > kMaxWordHeight * charHeight) continue;
        if (stats.at<int>(i, cv::CC_STAT_AREA) < kMinWordFill * w * h) continue;
        words.push_back(i);
    }
    std::sort(words.begin(), words.end(), [&](int a, int b) {
        return stats.at<int>(a, cv::CC_STAT_LEFT) < stats.at<int>(b, cv::CC_STAT_LEFT);
    });
    return words;
}

// Left to right, each word joins the line whose last word shares its band and is nearest;
// lineOfWord gets each word's line (-1 for none).
std::vector<Line> chain_lines(const std::vector<int> &words, const cv::Mat &stats, const cfocal_text_options *options,
                              std::vector<int> &lineOfWord) {
    std::vector<Line> lines;
    for (int word : words) {
        const int x = stats.at<int>(word, cv::CC_STAT_LEFT), y = stats.at<int>(word, cv::CC_STAT_TOP);
        const int w = stats.at<int>(word, cv::CC_STAT_WIDTH), h = stats.at<int>(word, cv::CC_STAT_HEIGHT);
        int best = -1;
        double bestGap = 0;
        for (size_t l = 0; l < lines.size(); l++) {
            const Line &line = lines[l];
            const int lineHeight = line.lastBottom - line.lastTop;
            const int overlap = std::min(y + h, line.lastBottom) - std::max(y, line.lastTop);
            const int smaller = std::min(h, lineHeight), larger = std::max(h, lineHeight);
            if (overlap < kMinBandOverlap * smaller || larger > kMaxHeightRatio * smaller) continue;
            const double gap = x - line.right;
            if (gap < -0.5 * h || gap > options->max_line_gap * larger) continue;
            if (best < 0 || gap < bestGap) best = static_cast<int>(l), bestGap = gap;
        }
        if (best < 0) {
            lines.push_back(Line{});
            best = static_cast<int>(lines.size()) - 1;
        }
        Line &line = lines[best];
        line.words.push_back(word);
        line.right = std::max(line.right, x + w);
        line.lastTop = y;
        line.lastBottom = y + h;
        lineOfWord[word] = best;
    }
    return lines;
}

// Each line's reading frame from the minimum-area rectangle around its ink, and its contrast;
// returns each character's word (-1 for characters of no line).
std::vector<int> frame_lines(std::vector<Line> &lines, const std::vector<int> &lineOfWord, const Components &chars,
                             const cv::Mat &wordLabels, const cv::Mat &strokes) {
    std::vector<std::vector<cv::Point>> linePoints(lines.size());
    std::vector<int> wordOfChar(chars.count, -1);
    for (int r = 0; r < strokes.rows; r++) {
        const int *charRow = chars.labels.ptr<int>(r);
        const int *wordRow = wordLabels.ptr<int>(r);
        const uint8_t *strokeRow = strokes.ptr<uint8_t>(r);
        for (int c = 0; c < strokes.cols; c++) {
            if (charRow[c] == 0) continue;
            const int line = lineOfWord[wordRow[c]];
            if (line < 0) continue;
            wordOfChar[charRow[c]] = wordRow[c];
            linePoints[line].push_back({c, r});
            lines[line].contrast += strokeRow[c];
            lines[line].inkPixels++;
        }
    }
    for (size_t l = 0; l < lines.size(); l++) {
        Line &line = lines[l];
        if (linePoints[l].empty()) continue;
        const cv::RotatedRect rect = cv::minAreaRect(linePoints[l]);
        cv::Point2f corners[4];
        rect.points(corners);
        const ReadingFrame frame = reading_frame(corners);
        line.along = frame.along;
        line.across = frame.across();
        line.center = rect.center;
    }
    return wordOfChar;
}

// The extents of lines, words and characters along each line's reading frame.
void measure_extents(std::vector<Line> &lines, const std::vector<int> &lineOfWord, const std::vector<int> &wordOfChar,
                     const cv::Mat &charLabels, std::vector<Extent> &wordExtent, std::vector<Extent> &charExtent) {
    for (int r = 0; r < charLabels.rows; r++) {
        const int *chars = charLabels.ptr<int>(r);
        for (int c = 0; c < charLabels.cols; c++) {
            if (chars[c] == 0 || wordOfChar[chars[c]] < 0) continue;
            const int word = wordOfChar[chars[c]];
            Line &line = lines[lineOfWord[word]];
            const cv::Point2d d = cv::Point2d(c, r) - line.center;
            const double u = d.dot(line.along), v = d.dot(line.across);
            line.extent.add(u, v);
            wordExtent[word].add(u, v);
            charExtent[chars[c]].add(u, v);
        }
    }
}

// Ink exactly at the threshold scores 0.5, twice as dark as the threshold or more 1.
double line_confidence(const Line &line, double threshold) {
    const double mean = line.contrast / std::max(1, line.inkPixels);
    return std::clamp(0.5 + 0.5 * (mean - threshold) / threshold, 0.0, 1.0);
}

// The lines worth reporting, at most max_lines of the surest, in reading order (top to bottom):
// a line must be longer than it is tall, and a lone word look like more than a mark.
std::vector<int> kept_lines(const std::vector<Line> &lines, const cfocal_text_options *options, double threshold) {
    std::vector<int> kept;
    for (size_t l = 0; l < lines.size(); l++) {
        const Line &line = lines[l];
        if (line.extent.empty()) continue;
        const double length = line.extent.maxU - line.extent.minU + 1, height = line.extent.maxV - line.extent.minV + 1;
        if (height < 3 || length < 1.5 * height) continue;
        if (line.words.size() == 1 && length < 3 * height) continue;
        kept.push_back(static_cast<int>(l));
    }
    if (options->max_lines > 0 && static_cast<int>(kept.size()) > options->max_lines) {
        // Ties keep their order (std::stable_sort's temporary buffer is deprecated in libstdc++ 12).
        std::sort(kept.begin(), kept.end(), [&](int a, int b) {
            const double ca = line_confidence(lines[a], threshold), cb = line_confidence(lines[b], threshold);
            return ca != cb ? ca > cb : a < b;
        });
        kept.resize(options->max_lines);
    }
    // A strict key: std::sort needs one.
    std::sort(kept.begin(), kept.end(), [&](int a, int b) { return lines[a].center.y < lines[b].center.y; });
    return kept;
}

// What the search found, ready to be written as boxes.
struct Found {
    std::vector<Line> lines;
    std::vector<int> kept, wordOfChar;
    std::vector<Extent> wordExtent, charExtent;
    double threshold = 0;
};

// The boxes: kept lines, then their words, then the words' characters, each pointing at its
// parent; returns how many were written.
int write_boxes(const Found &found, cfocal_text_box *out, int capacity) {
    const auto &lines = found.lines;
    const auto &kept = found.kept;
    int written = 0;
    for (int l : kept) {
        if (written == capacity) break;
        const Line &line = lines[l];
        out[written++] =
            box_from(line.extent, line.center, line.along, line.across, line_confidence(line, found.threshold), 0, -1);
    }
    const int lineBoxes = written;
    std::vector<int> wordIndex(found.wordExtent.size(), -1);
    for (int i = 0; i < lineBoxes && written < capacity; i++) {
        const Line &line = lines[kept[i]];
        std::vector<int> ordered = line.words;
        std::sort(ordered.begin(), ordered.end(),
                  [&](int a, int b) { return found.wordExtent[a].minU < found.wordExtent[b].minU; });
        for (int word : ordered) {
            if (written == capacity) break;
            if (found.wordExtent[word].empty()) continue;
            wordIndex[word] = written;
            out[written++] = box_from(found.wordExtent[word], line.center, line.along, line.across, out[i].confidence, 1, i);
        }
    }
    const auto &wordOfChar = found.wordOfChar;
    std::vector<int> chars;
    for (size_t ch = 1; ch < wordOfChar.size(); ch++)
        if (wordOfChar[ch] >= 0 && wordIndex[wordOfChar[ch]] >= 0 && !found.charExtent[ch].empty()) chars.push_back(static_cast<int>(ch));
    std::sort(chars.begin(), chars.end(), [&](int a, int b) {
        if (wordOfChar[a] != wordOfChar[b]) return wordIndex[wordOfChar[a]] < wordIndex[wordOfChar[b]];
        return found.charExtent[a].minU < found.charExtent[b].minU;
    });
    for (int ch : chars) {
        if (written == capacity) break;
        const int parent = wordIndex[wordOfChar[ch]];
        const Line &line = lines[kept[out[parent].parent]];
        out[written++] = box_from(found.charExtent[ch], line.center, line.along, line.across, out[parent].confidence, 2, parent);
    }
    return written;
}

// Lines, words and characters of roughly horizontal text; returns how many boxes it wrote and
// sets angle (when asked for one) to the text's dominant direction (degrees, y down), measured
// between neighbouring characters.
int detect_upright(const cv::Mat &gray, const cfocal_text_options *options, cfocal_text_box *out, int capacity,
                   double *angle) {
    if (angle != nullptr) *angle = 0;
    const Ink ink = ink_of(gray, options);
    Components chars;
    chars.count = cv::connectedComponentsWithStats(ink.mask, chars.labels, chars.stats, chars.centroids, 8, CV_32S);
    const double charHeight = character_height(chars);
    if (charHeight == 0) return 0;
    if (angle != nullptr) *angle = dominant_direction(chars.stats, chars.centroids, charHeight);

    // Odd: OpenCV does not reflect the anchor between dilation and erosion, so only a centred
    // (odd) kernel keeps every ink pixel inside its word after the closing.
    const int wordGap = std::max(1, static_cast<int>(std::lround(options->max_word_gap * charHeight))) | 1;
    cv::Mat wordInk;
    cv::morphologyEx(ink.mask, wordInk, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, {wordGap, 1}));
    Components words;
    words.count = cv::connectedComponentsWithStats(wordInk, words.labels, words.stats, words.centroids, 8, CV_32S);

    Found found;
    found.threshold = ink.threshold;
    std::vector<int> lineOfWord(words.count, -1);
    found.lines = chain_lines(word_candidates(words, charHeight), words.stats, options, lineOfWord);
    if (found.lines.empty()) return 0;
    found.wordOfChar = frame_lines(found.lines, lineOfWord, chars, words.labels, ink.strokes);
    found.wordExtent.resize(words.count);
    found.charExtent.resize(chars.count);
    measure_extents(found.lines, lineOfWord, found.wordOfChar, chars.labels, found.wordExtent, found.charExtent);
    found.kept = kept_lines(found.lines, options, ink.threshold);
    return write_boxes(found, out, capacity);
}

}  // namespace

extern "C" {

cfocal_status cfocal_detect_text(const cfocal_image *image, const cfocal_text_options *options,
                                 cfocal_text_box *out, int32_t capacity, int32_t *count) {
    return guarded("detect text", [&] {
        validate(image, "detect text");
        if (options == nullptr || out == nullptr || count == nullptr || capacity < 0)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "detect text: missing argument");
        *count = 0;
        const cv::Mat gray = gray_of(*image);
        double angle = 0;
        // The direction is only needed where a turned search may follow (frames, not flattened pages).
        int written = detect_upright(gray, options, out, capacity, options->find_turned ? &angle : nullptr);
        // Words are closed and chained along rows, which fails on text turned more than a few
        // degrees (a page seen without its outline): turn the image so the text runs level and
        // search again, keeping whichever finds longer lines.
        if (options->find_turned && std::abs(angle) > kLevelTolerance) {
            const cv::Point2f center(gray.cols / 2.0f, gray.rows / 2.0f);
            cv::Mat turn = cv::getRotationMatrix2D(center, angle, 1.0);
            const double c = std::abs(std::cos(angle * CV_PI / 180)), s = std::abs(std::sin(angle * CV_PI / 180));
            const cv::Size canvas(static_cast<int>(gray.cols * c + gray.rows * s + 0.5),
                                  static_cast<int>(gray.cols * s + gray.rows * c + 0.5));
            turn.at<double>(0, 2) += canvas.width / 2.0 - center.x;
            turn.at<double>(1, 2) += canvas.height / 2.0 - center.y;
            cv::Mat level;
            cv::warpAffine(gray, level, turn, canvas, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
            std::vector<cfocal_text_box> turned(static_cast<size_t>(capacity));
            const int turnedCount = detect_upright(level, options, turned.data(), capacity, nullptr);
            if (total_line_length(turned.data(), turnedCount) > total_line_length(out, written)) {
                cv::Mat back;
                cv::invertAffineTransform(turn, back);
                const double *m = back.ptr<double>();
                for (int i = 0; i < turnedCount; i++) {
                    cfocal_text_box &box = turned[i];
                    for (int k = 0; k < 4; k++) {
                        const double x = box.x[k], y = box.y[k];
                        box.x[k] = m[0] * x + m[1] * y + m[2];
                        box.y[k] = m[3] * x + m[4] * y + m[5];
                    }
                    out[i] = box;
                }
                written = turnedCount;
            }
        }
        *count = written;
        return CFOCAL_OK;
    });
}

}  // extern "C"
