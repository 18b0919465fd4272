// What the image says about a quad: where the intensity steps across its sides (Support, Stepping),
// bands printed to a document's edge, and whether its inside is bright, grey paper. quads.cpp's
// search weighs its candidates with these. Private to the shim.
#pragma once

#include "internal.hpp"
#include "quad_sides.hpp"

#include <opencv2/core.hpp>
#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace cfocal::quad {

// How much of a quad's outline lies on the image's edges (support()): per side, and overall.
struct Support {
    std::array<double, 4> side{};
    int brighter_inside = 0;  // sides whose edge steps down from inside to outside, or are cut by the border
    double score = 0;
};

// Where the intensity steps across the segment a → b, one way only (an edge; text and texture step
// both ways within a pixel or two), with a pixel of tolerance across it at working size: the
// samples along its middle 88 % that do, and those inside the image (at most `samples`).
struct Stepping {
    int hits[2] = {0, 0};  // steps down from a → b's right (outward for a clockwise quad) to its left, and up
    int counted = 0, samples = 0;
    bool short_of = false;  // stopped early: the fraction could not reach what the caller needed
    double fraction() const { return counted > 0 && !short_of ? double(std::max(hits[0], hits[1])) / counted : 0; }
    // The same, counting steps either way (a page's edge, or the thin shadow it casts beside it).
    double either_way() const { return counted > 0 && !short_of ? double(hits[0] + hits[1]) / counted : 0; }
};

// Which way the intensity steps across a line with this normal at p, within a pixel either side:
// 0 not at all (or both ways: text, texture), 1 down from the normal's side, 2 up.
int step_at(const cv::Point2d &p, const cv::Point2d &normal, const cv::Mat &gx, const cv::Mat &gy, double threshold);

// How side a → b steps (Stepping). With `needed`, it stops as soon as the fraction can no longer reach it (every sample left
// stepping), and reports 0.
Stepping stepping(const cv::Point2d &a, const cv::Point2d &b, const cv::Mat &gx, const cv::Mat &gy, double threshold,
                  double needed = 0);

// Gradient support along the four sides: the fraction of samples, per side, where the intensity
// steps across the side. Sides along or beyond the image border (a page running out of view)
// count as mostly supported rather than as missing.
// Stops at the first side weaker than give_up: the score is at most 0.375 + 0.625 × the weakest
// side, so such a quad cannot reach the caller's threshold.
Support support(const Corners &q, const cv::Mat &gx, const cv::Mat &gy, double threshold, double give_up = 0);

// A card's or a page's band printed to its edge (a coloured header, a footer, a strip down one
// side) is, to the page network, not page: its region and outline stop at the band's inner edge
// (the evaluation clips' ID cards lost a sixth of their height so). Where a side of the chosen quad
// has a parallel edge beyond it and the two neighbouring sides run on through the band to that
// edge, the side moves out to it. A desk's or a shadow's edge beyond a page has no page sides
// running on to it.
struct BandSearch {
    // Gradient (Sobel of the smoothed working image) that counts as a step, as support() uses.
    double threshold = 28;
    // Nearest and farthest the band's outer edge may lie, in neighbouring sides' lengths. Raising
    // `reach` takes in deeper bands, and risks an object beyond whose sides line up with the page's.
    double least = 0.03, reach = 0.3;
    // Of the outer edge's length, the share that must step. Lowering it takes in bands whose edge
    // meets something of its own shade, and lets text lines or a table's rule pass for an edge.
    double outer_edge = 0.75;
    // Of each neighbouring side's run through the band, the share that must step (at half the
    // threshold): the better of the two, and the worse, where the band's end meets its own colour.
    double run_on_better = 0.75, run_on_worse = 0.3;
    // Leaving the side's own edge, blurred over a few pixels, is where the step share falls below this.
    double left_the_side = 0.3;
    // Whether the band ends at the nearest edge the neighbouring sides run on to, rather than at the
    // strongest edge within reach. A deep search (a picture printed to a page's edge) meets edges
    // beyond the page, the desk's or the frame's, that step more than the picture's far edge.
    bool nearest = false;
};

// q with each side so moved where a band lies beyond it (gx, gy: the working image's gradients).
Corners extended_over_bands(Corners q, const cv::Mat &gx, const cv::Mat &gy, const BandSearch &b = {});

// Steps along a → b, a sample a working pixel (see step_at; -1 outside the image).
std::vector<int> step_profile(const cv::Point2d &a, const cv::Point2d &b, const cv::Mat &gx, const cv::Mat &gy,
                              double threshold);

// The share of [from, to) of a profile that steps (the commoner way), among samples in the image.
double stepping_share(const std::vector<int> &profile, size_t from, size_t to);

// Paper is among the brightest things in view: its interior, or at least the margin just inside
// its edges (a photo print's white border, a page's margins), against the frame's brightest 2 %.
double interior_brightness(const Corners &q, const cv::Mat &gray, double reference);

// The cells along each side of the interior grid the paper tests sample: 7 × 7 points.
constexpr int interior_grid_cells = 8;

// A 7 × 7 grid of points inside the quad (the interior at eighths along each side; with `cells`,
// (cells − 1)² points at the cells' corners), those that lie in a width × height image: where the
// interior tests below sample it.
std::vector<cv::Point> interior_grid(const Corners &q, int width, int height, int cells = interior_grid_cells);

// The share of the quad's interior grid (gray, full resolution) that is at least `dim` of the
// brightest tenth of it: the paper. A page is mostly paper, thin print on it, and a card with a
// photo or a stripe still half or more (the 21 annotated photos: 0.57 to 1.00); a picture in a
// white frame, a window's mullions round a street, is mostly not (0.14).
double paper_share(const Corners &q, const cv::Mat &gray, int cells = interior_grid_cells);

// The median HSV saturation of the quad's interior, read from the colour planes (0 for gray).
// Pages are printed on near-neutral paper; books, boxes and devices mostly are not.
double interior_saturation(const Corners &q, const cfocal_image &image);

// The share of `part`'s interior grid (gray, full resolution) that is at least `dim` of the
// brightest tenth of `whole`'s: how much of a strip beside a page is as bright as the page's paper.
double share_as_bright_as(const Corners &part, const Corners &whole, const cv::Mat &gray, double dim);

// The share of q's pixels (gray, at the size q is given in) darker by more than `contrast` than
// the mean of the `window` × `window` square round them: print, and the edges of what lies on it.
double ink_share(const Corners &q, const cv::Mat &gray, int window = 15, int contrast = 20);

// The HSV saturation of a colour (b, g, r; 0 for one darker than 8 in every channel).
double saturation_of(const cv::Vec3d &c);

// The colour of the frame's light: the mean colour (b, g, r) of the brightest twentieth of a 32 × 32
// grid over the frame, against which paper_share_in_colour judges what is neutral, so that paper
// under a warm lamp is still paper. (1, 1, 1) for a gray image.
cv::Vec3d frame_white(const cv::Mat &gray, const cfocal_image &image);

// As paper_share, counting only the paper that is near-neutral in the frame's light (`white`): HSV
// saturation, once each channel is divided by white's, at most `most_saturation`. A screen's bright
// picture, a coloured sign, the panes round a window's mullions are bright without being white.
// paper_share itself for a gray image.
double paper_share_in_colour(const Corners &q, const cv::Mat &gray, const cfocal_image &image, const cv::Vec3d &white,
                             double most_saturation, int cells = interior_grid_cells);

// The share of the quad's paper (gray, full resolution) that lies in its largest connected piece
// (8-connected): the interior seen square-on at most `longest` pixels along its longer side, a 25th
// in from each side, paper where it is at least 0.6 of its brightest tenth (as paper_share counts
// it). A page's paper is one piece round its print, or two or three where a cable or a picture
// band crosses it; a keyboard's pale keys are many pieces of one size. 1 where nothing is paper.
// q must be a convex quad (acceptable_shape), as getPerspectiveTransform needs.
double largest_paper_piece(const Corners &q, const cv::Mat &gray, int longest);

// The share of the quad's interior (seen as largest_paper_piece sees it) that is plain paper at
// least `depth` of the interior's shorter side from anything that is not: paper where it is at
// least 0.6 of its brightest tenth, plain where it is near-neutral in the light of every one of
// `whites` (as paper_share_in_colour judges it; any paper for a gray image). A page's margins and
// the paper between its print run deep; a window's white frame and mullions, a picture's white
// border, are thin lines round colour. q must be a convex quad (acceptable_shape).
double deep_plain_paper_share(const Corners &q, const cv::Mat &gray, const cfocal_image &image,
                              const std::vector<cv::Vec3d> &whites, double most_saturation, int longest, double depth);

}  // namespace cfocal::quad
