// Enhancement of flat scans: the paper's illumination is estimated and divided out, so that
// shading and cast shadows go and the paper turns white while the ink keeps its darkness.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/photo.hpp>

#include <algorithm>
#include <cmath>

using namespace cfocal;

namespace {

int odd(double size) { return std::max(3, static_cast<int>(std::lround(size)) | 1); }

// Darker than the paper by these fractions (of the paper at a quarter of the page's scale) make
// regions candidates for solid areas, each depth on its own: a dark stripe that a paler wash joins
// to the rest of the card at the shallowest depth stands alone, with its sharp edge, at a deeper
// one. Raising the first leaves paler areas (a watermark) to be whitened.
constexpr double darker_than_paper[] = {0.06, 0.2, 0.4};
// The step at a region's edge, over its depth, from which it is a thing and not a shadow: a printed
// edge is a step of about its full depth over the 3-pixel gradient, a penumbra a fifth of that.
// Raising it takes fewer areas for things (a hard shadow stays a shadow).
constexpr double sharp_edge = 0.45;
// Regions smaller than this share of the page are left to the closing (noise, specks).
constexpr double least_area = 0.001;
// How far from its region's common tone (as a fraction of the paper) a pixel is still part of the
// printed area: at least `one_tone`, and `one_tone_of_depth` of the area's depth below the paper
// (glare on a black stripe lightens it far more than a grey row's noise). Raising either lets
// more of a shadow joined to a printed area stay dark.
constexpr float one_tone = 0.12f;
constexpr float one_tone_of_depth = 0.35f;

// Regions of a page darker than its paper, and for each whether its edge is a step: the mean
// gradient along its border (the image's own edge left out) against its mean depth.
struct DarkRegions {
    cv::Mat labels;
    std::vector<char> sharp;

    DarkRegions(const cv::Mat &ratio, const cv::Mat &gradient, double darker) {
        cv::Mat stats, centroids;
        const int count = cv::connectedComponentsWithStats(ratio < 1.0 - darker, labels, stats, centroids, 4, CV_32S);
        std::vector<double> depth(count, 0), edge(count, 0), edge_pixels(count, 0);
        for (int y = 1; y + 1 < labels.rows; ++y)
            for (int x = 1; x + 1 < labels.cols; ++x) {
                const int label = labels.at<int>(y, x);
                if (label == 0) continue;
                depth[label] += 1.0 - ratio.at<float>(y, x);
                if (labels.at<int>(y, x - 1) != label || labels.at<int>(y, x + 1) != label ||
                    labels.at<int>(y - 1, x) != label || labels.at<int>(y + 1, x) != label) {
                    edge[label] += gradient.at<float>(y, x);
                    edge_pixels[label] += 1;
                }
            }
        sharp.assign(count, 0);
        for (int label = 1; label < count; ++label) {
            const double area = stats.at<int>(label, cv::CC_STAT_AREA);
            if (area < least_area * labels.total() || edge_pixels[label] == 0) continue;
            sharp[label] = edge[label] / edge_pixels[label] >= sharp_edge * depth[label] / area;
        }
    }
};

// The pixels of the sharp-edged regions darker than the paper by `darker` (see DarkRegions) that
// are near their region's common tone.
cv::Mat solid_at(const cv::Mat &ratio, const cv::Mat &gradient, double darker) {
    const DarkRegions regions(ratio, gradient, darker);
    // A printed area is one tone; a shadow caught in the same region (a wedge of it between a
    // picture and a shaded row) is a ramp. Only the pixels near the region's common tone are kept.
    std::vector<std::vector<float>> tones(regions.sharp.size());
    for (int y = 0; y < ratio.rows; ++y)
        for (int x = 0; x < ratio.cols; ++x)
            if (regions.sharp[regions.labels.at<int>(y, x)]) tones[regions.labels.at<int>(y, x)].push_back(ratio.at<float>(y, x));
    std::vector<float> common(tones.size(), 0);
    for (size_t label = 1; label < tones.size(); ++label)
        if (!tones[label].empty()) common[label] = median_of(tones[label]);
    cv::Mat solid = cv::Mat::zeros(ratio.size(), CV_8U);
    for (int y = 0; y < ratio.rows; ++y)
        for (int x = 0; x < ratio.cols; ++x) {
            const int label = regions.labels.at<int>(y, x);
            const float tolerance = std::max(one_tone, one_tone_of_depth * (1.0f - common[label]));
            if (regions.sharp[label] && std::abs(ratio.at<float>(y, x) - common[label]) <= tolerance)
                solid.at<uint8_t>(y, x) = 255;
        }
    return solid;
}

// Solid areas of a closed page (CV_8UC3, strokes already taken away) that are things on the paper
// rather than paper in shadow: a magnetic stripe, a black box, a grey table row, a photograph.
// Both are darker than the paper around them; a shadow's edge is soft (a penumbra a few per cent of
// the page wide) while a printed area's is a step.
// An edge's step is judged at a short side of at most `solid_search_side` pixels, so that one
// page gives the same answer whatever its resolution: a phone's slight blur spreads a printed
// edge over more pixels of a sharper scan, and its per-pixel step would look like a penumbra's.
// Raising it lets narrower areas be found, and takes more blurred edges for shadows.
constexpr double solid_search_side = 256;

cv::Mat solid_areas(const cv::Mat &page) {
    const double scale = std::min(1.0, solid_search_side / std::min(page.cols, page.rows));
    cv::Mat closed;
    if (scale < 1.0) resize_by(page, closed, scale, cv::INTER_AREA);
    else closed = page;
    cv::Mat gray, paper, grayf, paperf, gradient;
    cv::cvtColor(closed, gray, cv::COLOR_BGR2GRAY);
    const int wide = odd(0.25 * std::min(gray.cols, gray.rows));
    cv::morphologyEx(gray, paper, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, {wide, wide}));
    gray.convertTo(grayf, CV_32F);
    paper.convertTo(paperf, CV_32F);
    paperf = cv::max(paperf, 1.0);
    const cv::Mat ratio = grayf / paperf;
    cv::morphologyEx(gray, gradient, cv::MORPH_GRADIENT, cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
    gradient.convertTo(gradient, CV_32F);
    gradient /= paperf;
    cv::Mat solid = cv::Mat::zeros(closed.size(), CV_8U);
    for (const double darker : darker_than_paper) solid |= solid_at(ratio, gradient, darker);
    if (scale < 1.0) cv::resize(solid, solid, page.size(), 0, 0, cv::INTER_NEAREST);
    return solid;
}

// Fills `areas` of a small page from the paper around them, when there is paper to fill from.
void fill_from_paper(cv::Mat &small, cv::Mat areas) {
    const double share = cv::countNonZero(areas) / double(areas.total());
    if (share <= 0 || share >= 0.8) return;
    cv::dilate(areas, areas, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
    cv::inpaint(small, areas, small, 5, cv::INPAINT_TELEA);
}

// The light falling on the paper of a BGR page (CV_32FC3, never below 1), as the page would look
// with its ink and pictures taken away. A grey closing removes dark strokes narrower than its
// kernel without moving the edges of shadows; areas whose colour is not the paper's (a drawing, a
// coloured box) are filled in from the paper around them, so that they are not mistaken for paper
// in shadow and washed out; a median smooths what is left. Worked out at a short side of at most
// 512 pixels (the light varies slowly) and brought back to full size.
cv::Mat illumination(const cv::Mat &bgr) {
    const int short_side = std::min(bgr.cols, bgr.rows);
    const double scale = std::min(1.0, 512.0 / short_side);
    cv::Mat small;
    if (scale < 1.0) resize_by(bgr, small, scale, cv::INTER_AREA);
    else small = bgr.clone();
    // 3 % of the page's short side: wider than the strokes of body text and headings, narrower than
    // the soft edge of a shadow.
    const int kernel = odd(0.03 * std::min(small.cols, small.rows));
    cv::morphologyEx(small, small, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {kernel, kernel}));

    // The paper's chromaticity is that of the brighter half of the page; shadows and shading
    // darken the paper but barely change it.
    cv::Mat chroma(small.size(), CV_32FC2), value(small.size(), CV_8U);
    for (int y = 0; y < small.rows; ++y) {
        const auto *pixel = small.ptr<cv::Vec3b>(y);
        auto *c = chroma.ptr<cv::Vec2f>(y);
        auto *v = value.ptr<uint8_t>(y);
        for (int x = 0; x < small.cols; ++x) {
            const float sum = 1.0f + pixel[x][0] + pixel[x][1] + pixel[x][2];
            c[x] = {pixel[x][0] / sum, pixel[x][2] / sum};
            v[x] = std::max({pixel[x][0], pixel[x][1], pixel[x][2]});
        }
    }
    std::vector<uint8_t> values(value.begin<uint8_t>(), value.end<uint8_t>());
    const uint8_t bright = median_of(values);
    std::vector<float> blues, reds;
    for (int y = 0; y < small.rows; ++y)
        for (int x = 0; x < small.cols; ++x)
            if (value.at<uint8_t>(y, x) >= bright) {
                blues.push_back(chroma.at<cv::Vec2f>(y, x)[0]);
                reds.push_back(chroma.at<cv::Vec2f>(y, x)[1]);
            }
    const float paper_blue = median_of(blues), paper_red = median_of(reds);
    cv::Mat foreign(small.size(), CV_8U);
    for (int y = 0; y < small.rows; ++y) {
        const auto *c = chroma.ptr<cv::Vec2f>(y);
        auto *f = foreign.ptr<uint8_t>(y);
        for (int x = 0; x < small.cols; ++x)
            f[x] = std::hypot(c[x][0] - paper_blue, c[x][1] - paper_red) > 0.04f ? 255 : 0;
    }
    fill_from_paper(small, foreign);
    // Dark and grey things are found once coloured ones are filled in: a picture beside a shadow
    // would otherwise join the shadow into one region with the picture's sharp edges.
    fill_from_paper(small, solid_areas(small));
    cv::medianBlur(small, small, std::min(255, odd(kernel * 1.5)));
    cv::Mat light;
    cv::resize(small, light, bgr.size(), 0, 0, cv::INTER_LINEAR);
    light.convertTo(light, CV_32FC3);
    return cv::max(light, 1.0);
}

// Each channel over its light: the paper comes out near 1 whatever the light, the ink below.
cv::Mat flattened_light(const cv::Mat &bgr) {
    cv::Mat value;
    bgr.convertTo(value, CV_32FC3);
    return value / illumination(bgr);
}

// The level of clean paper in a flattened plane (its brightest common value) and the spread of
// the paper's noise, from the pixels near that level.
void paper_level(const cv::Mat &flat, double &level, double &noise) {
    cv::Mat sample;
    flat.reshape(1, 1).copyTo(sample);
    std::vector<float> values(sample.begin<float>(), sample.end<float>());
    // Most of a page is paper, so its upper quantiles are the paper's.
    level = std::max(1e-3, double(quantile_of(values, 0.75)));
    const double lower = quantile_of(values, 0.60);
    // Between the 60th and 75th percentile is paper noise: about 0.4 σ apart for a Gaussian.
    noise = std::max(0.004, (level - lower) / 0.4);
}

// The closing that finds the paper round a stroke is this many of the print's stroke widths wide.
// Raising it keeps bolder strokes whole and turns wider grey fills to black.
constexpr double kStrokeKernelWidths = 2.5;

// The typical width of the page's print (pixels): twice the median distance to the paper along
// the ridges of its dark marks, where thin strokes outnumber blobs. 0 for a page without print.
double stroke_width(const cv::Mat &flat) {
    // Darker than this fraction of the paper is print for the measure (not for the result).
    constexpr float print_level = 0.7f;
    const cv::Mat marks = flat < print_level;
    if (cv::countNonZero(marks) < 50) return 0;
    cv::Mat distance, widest;
    cv::distanceTransform(marks, distance, cv::DIST_L2, 3);
    cv::dilate(distance, widest, cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
    std::vector<float> ridge;
    for (int y = 0; y < distance.rows; ++y) {
        const float *d = distance.ptr<float>(y), *w = widest.ptr<float>(y);
        for (int x = 0; x < distance.cols; ++x)
            if (d[x] >= 1 && d[x] >= w[x]) ridge.push_back(d[x]);
    }
    return ridge.empty() ? 0 : 2.0 * median_of(ridge);
}

// Black and white from the flattened channels, into `out` (gray8): 0 for ink, 255 for paper.
void black_and_white(const std::vector<cv::Mat> &channels, cv::Mat &out) {
    // Black and white. Strokes are found as what they are, narrow dark marks: a pixel is ink
    // when a closing at stroke width (the paper around it, the stroke taken away) is brighter
    // than it by more than the paper's noise could make, and it is darker than the midpoint
    // between that paper and the stroke's core, so that strokes keep their width. Faint pencil,
    // a tenth or two below the paper, passes; the blurred edges of dark print do not thicken
    // it; a grey fill (a table's header) stays white, the print on it black. Broad areas darker
    // than 60 % of the paper (a black box, bold display type) are ink too.
    cv::Mat flat = channels[0] * 0.114 + channels[1] * 0.587 + channels[2] * 0.299;
    double level, noise;
    paper_level(flat, level, noise);
    flat /= level;
    cv::GaussianBlur(flat, flat, cv::Size(0, 0), 0.7);
    // At least 0.8 % of the short side, wider than the strokes of body text on a page; wider for
    // a page whose print is bolder (a card's machine-readable zone, large type), or the closing
    // would leave the middle of its strokes and break the letters.
    const int stroke = std::max(odd(0.008 * std::min(flat.cols, flat.rows)), odd(kStrokeKernelWidths * stroke_width(flat)));
    const cv::Mat shape = cv::getStructuringElement(cv::MORPH_ELLIPSE, {stroke, stroke});
    cv::Mat paper, core;
    cv::morphologyEx(flat, paper, cv::MORPH_CLOSE, shape);
    cv::erode(flat, core, shape);
    const double least_contrast = std::max(0.1, 6.0 * noise / level);
    cv::Mat stroke_ink = ((paper - flat) > least_contrast) & (flat < (paper + core) * 0.5);
    cv::Mat ink = stroke_ink | (flat < 0.6);
    out.setTo(255);
    out.setTo(0, ink);
}

}  // namespace

cfocal_status cfocal_enhance_scan(const cfocal_image *src, int32_t mode, const cfocal_image *dst) {
    return guarded("enhance a scan", [&] {
        validate(src, "enhance a scan");
        validate(dst, "enhance a scan");
        if (src->format == CFOCAL_YUV420P)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "enhance a scan: needs gray8, bgr8 or bgra8, not yuv420p");
        if (dst->width != src->width || dst->height != src->height)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "enhance a scan: the output must be the input's size");
        const bool color = mode == CFOCAL_ENHANCE_COLOR;
        if (mode < CFOCAL_ENHANCE_COLOR || mode > CFOCAL_ENHANCE_BLACK_AND_WHITE)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "enhance a scan: unknown mode " + std::to_string(mode));
        if (dst->format != (color ? CFOCAL_BGR8 : CFOCAL_GRAY8))
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "enhance a scan: color needs a bgr8 output, gray and bw gray8");
        cv::Mat out = planes_of(*dst)[0];
        cv::Mat bgr = packed_of(*src, "enhance a scan");
        if (src->format == CFOCAL_GRAY8) cv::cvtColor(bgr, bgr, cv::COLOR_GRAY2BGR);
        else if (src->format == CFOCAL_BGRA8) cv::cvtColor(bgr, bgr, cv::COLOR_BGRA2BGR);
        // Each channel against its own light: shading goes, and so does the light's colour cast
        // (a warm lamp), which whitens the paper.
        std::vector<cv::Mat> channels;
        cv::split(flattened_light(bgr), channels);
        if (mode != CFOCAL_ENHANCE_BLACK_AND_WHITE) {
            for (auto &channel : channels) {
                double level, noise;
                paper_level(channel, level, noise);
                // The paper lands a little above white (so that its noise does not grey it); the
                // ink is scaled with it, never clipped to black.
                channel.convertTo(channel, CV_8U, 255.0 / (level - 1.5 * noise));
            }
            cv::Mat enhanced;
            cv::merge(channels, enhanced);
            if (color) enhanced.copyTo(out);
            else cv::cvtColor(enhanced, out, cv::COLOR_BGR2GRAY);
            return CFOCAL_OK;
        }
        black_and_white(channels, out);
        return CFOCAL_OK;
    });
}
