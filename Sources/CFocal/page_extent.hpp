// Where a chosen page really ends, where the page network's quad stops short of it or runs on past
// it: a side along the frame's border moved in onto the page's own side (off_the_border), a side at
// an open book's gutter moved in to where the page's edges begin (cut_at_gutter), a side moved out
// across a picture printed to the page's edge (extended_across_picture). QuadSearch (quads.cpp)
// moves the sides of the quads it chooses with them. Private to the shim.
#pragma once

#include "internal.hpp"
#include "page_map_view.hpp"
#include "quad_candidates.hpp"
#include "quad_sides.hpp"

namespace cfocal::quad {

// A picture printed to a page's edges (a magazine page, a brochure's cover) is, to the page network,
// not page: its quad is the printed part beside the picture, a third of the page or less, which
// BandSearch's reach does not get across. Beyond that reach, the chosen quad's side moves out to the
// nearest edge parallel to it that both neighbouring sides, fitted to the image's edges, run on to
// (extended_across_picture). On the pages of scripts/eval/picture-pages.py (seed 1,
// with the paper judged on the network's quad, below): .high 0.625 → 0.971, .low 0.800 → 0.978;
// no other development still or clip moved.
struct PictureToTheEdge {
    // Nearest and farthest the picture's far edge may lie, in neighbouring sides' lengths: from
    // where BandSearch stops. Raising `reach` takes in deeper pictures (at 2 half of seed 1's stayed
    // cut, .high 0.718; 4.5 gave the same as 3) and costs more search on every chosen quad.
    double least = 0.3, reach = 3;
};

// An open book's page, or a page on another, whose region the network joins with what lies beside
// it out to the frame's border: the chosen quad's side lies on the border and its neighbouring sides
// run on, edgeless, through the other page (on the phone photos' book, a fifth of the quad's width).
// Where a neighbour shows no edge from the border up to a point and a clear one from there to its
// far corner, and the other neighbour agrees, the page ends there: the side moves in, and the quad
// is fitted again without the other page. A page that really runs out of view keeps its edges up
// to the border, and stays as it was.
struct FoldSearch {
    // Gradient that counts as a step, as support() uses.
    double threshold = 28;
    // How near the border a side must lie, in working pixels.
    double border = 4;
    // Nearest and farthest the page's end may lie from the border side, in neighbouring sides'
    // lengths. Raising `reach` lets a page that is a smaller part of the region be cut out of it.
    double least = 0.05, reach = 0.45;
    // Of one neighbour's stretch from the border to the cut, the most that may step. Raising it
    // cuts where the stretch beside the page shows edges too (text lines, a shadow along it).
    double edgeless = 0.2;
    // Of its stretch beyond the cut, the least that must step. Lowering it cuts pages whose own
    // edges are faint, and risks cutting where a hand or a shadow hides a side.
    double edged = 0.8;
    // The same for the other neighbour, which may be less clean: a page bends into the gutter, and
    // the straight side fitted to it leaves its edge there.
    double other_edgeless = 0.35, other_edged = 0.5;
    // How much further in the second look, on the sides fitted without the other page, may move
    // the side, in neighbouring sides' lengths.
    double settle = 0.1;
    // Farthest a neighbour that follows no edge may be turned about (a point near) its far corner
    // to find the page's own side, in degrees. A side fitted from the page's corner to the frame's,
    // across the page beside it, can be this far off; raising it lets text lines pass for a side.
    double swing = 20;
};

// How a quad's side along the frame's border is moved in onto a page's side just inside it
// (off_the_border).
struct BorderSearch {
    // How far in from the border the page's side is looked for, in the image's shorter sides (at
    // least four of the network's input pixels). Raising it finds sides further in, and lets a
    // line printed on a page that runs out of view pass for its side.
    double reach = 0.06;
    // Of `samples` places along the side, the share whose strongest step must lie within
    // `tolerance` pixels of one line.
    int samples = 40;
    double least_on_line = 0.6, tolerance = 2;
    // The least the network's outline map must average along the line found, and by how much more
    // than along the border. Lowering them moves sides onto lines the network does not take for a
    // page's outline (a table's rule, a shadow).
    double least_outline = 0.2, outline_margin = 0.05;
};

// What the searches read of one frame's search.
struct PageExtentScene {
    const cv::Mat &full;     // the frame in grey at full resolution
    const cv::Mat &gx, &gy;  // the working image's gradients (Sobel of its smoothed grey)
    double scale;            // working pixels to a full-resolution pixel
    cv::Size working_size;   // the working image's
    const NetworkView &view;
};

// q (working pixels) with a side moved out across a picture printed to the page's edge
// (PictureToTheEdge); q as it is where no side moves. `first_radius` is how wide q's sides are
// searched when first fitted (fitted).
Corners extended_across_picture(const Corners &q, double first_radius, const PageExtentScene &scene);

// A refined quad (full resolution) with its side along the border moved in where an open book's
// gutter ends the page (FoldSearch); `radius` as fitted's first.
Corners cut_at_gutter(const Corners &refined, double radius, const PageExtentScene &scene);

// q (full resolution) with each side along the frame's border moved in onto the page's own side
// just inside it (BorderSearch).
Corners off_the_border(const Corners &q, const PageExtentScene &scene);

}  // namespace cfocal::quad
