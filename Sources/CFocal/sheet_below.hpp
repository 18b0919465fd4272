// The sheet a page lies on, cut off the page's quad: a page on a stack of papers, whose region the
// page network joins with the sheets below it. QuadSearch (quads.cpp) cuts each quad the network
// proposes before choosing among them. Private to the shim.
#pragma once

#include "internal.hpp"
#include "page_map_view.hpp"
#include "quad_candidates.hpp"

#include <functional>
#include <vector>

namespace cfocal::quad {

// When a strip along one side of the chosen quad is cut off as the sheet a page lies on
// (cut_off_sheets_below, below). The page map covers both sheets, but where the outline map
// draws the page's side across the sheet below and the page map marks the strip beyond it less
// page, the strip goes. On the stacked photos (scripts/eval/stack-photos.py, seeds 1 and 2) it cut
// a sheet off two scenes at .high (JI 0.636 → 0.753, 0.731 → 0.825) and three at .low (0.754 →
// 0.998, 0.662 → 0.762, 0.743 → 0.860); at .low it also mended a card filling the frame (0.826 →
// 0.971), a page under standing objects (0.676 → 0.780), the facade clips of seed 5 (0.978 → 0.989)
// and those of seed 83 (0.976 → 0.978). Nothing else moved, on any development or held-apart set
// of stills (the real photos, occluded, bowed, grey, blank), nor on clips of seeds 7 and 13. The thresholds
// were set on the stacks of seeds 1 and 2 and on what looser ones cut wrongly (a table's lower rule,
// a card's magnetic stripe, an ID card's header band, a page's part beyond a box standing on it).
// On seeds 4, 5 and 6, made after and scored once, eleven scenes of 60 (both accuracies) gained, up
// to 0.611 → 0.876, and none lost. A deep strip needing less drop (0.7.10) cut a sheet off three
// more scenes at .low (stacks 4, 5, 6: 0.834 → 0.992, 0.745 → 0.923, 0.666 → 0.923) and one at .high
// (stacks 4: 0.690 → 0.823), and on the held-apart stacks of seed 3 one at .high (0.789 → 0.936);
// nothing else moved on any set (make dev-sets SETS=all).
struct SheetBelow {
    // The outline map's least mean along the cut (its middle four fifths, outline_between): about
    // how much of the cut it must draw. Lowering it cuts at the rules of a table printed across a
    // page, which the map half draws.
    double least_drawn = 0.5;
    // How much less page the page map must see in the strip than in the rest. Lowering it cuts
    // the margin below a table off a page, or the part of a sheet beyond an object standing on it.
    double least_page_drop = 0.3;
    // The same for a strip of at least `deep_share` of the quad's area. The page map fades over a
    // cell or two at the quad's side, which lowers a thin strip's mean more than a deep one's, so a
    // deep strip needs less drop. Lowering `least_deep_page_drop` (or `deep_share`) cuts more of the
    // sheets pages lie on, and more white margins round the print of a banknote or a card (0.079
    // of one's area, 0.227 less page).
    double least_deep_page_drop = 0.2, deep_share = 0.12;
    // The share of the cut, and of its last tenth at one end or the other, that must step either
    // way (the page's edge, or its shadow on the sheet below; step_at at `step`, below support()'s
    // 28: paper on paper steps faintly). A rule printed on a page stops short of the page's sides.
    double least_stepping = 0.7, end = 0.1, step = 20;
    // How deep the strip may be, as a share of the quad across from the side: a thinner strip is
    // more often a page's own border, a deeper one the page itself.
    double least_depth = 0.08, most_depth = 0.45;
    // The strip must be paper (paper_share) and grey (interior_saturation): a header band printed
    // to a card's edge is coloured, and extended_over_bands has just taken it in.
    double least_paper = 0.6, most_saturation = 0.3;
    // How far from parallel to the side a cut may run (the sine of the angle).
    double most_sine = 0.15;

    // Where the image shows the cut clearly and the maps only faintly (the outline map draws the
    // page's side over the sheet below at 0.3–0.45, the page map marks both sheets alike), a cut is
    // made on the image's evidence (cfocal_quad_options.cut_sheets_on_clear_edges, at .high), with
    // no page drop but that the strip is not more page than the rest. Each threshold below kept
    // off the development sets what it names (tried with it left out, at both accuracies):
    // - the quad's own outline must lie on edges (support() at 28) for `least_edges_around`: on a
    //   white sheet on a pale desk, whose sides are faint, the foot of an object standing on the
    //   sheet steps as clearly as a page's side (standing objects, 0.720 → 0.549);
    // - the outline map must draw the cut for `least_drawn_on_clear_edges`;
    // - the strip must be `least_share_on_clear_edges` of the quad or more: the white margin round
    //   a banknote's print is less (0.994 → 0.924);
    // - the cut must step for `least_stepping_on_clear_edges` of its length and of an end: a bowed
    //   receipt's crease steps at 0.75 of an end (four receipts, 0.960–0.997 → 0.748–0.865);
    // - the strip must be paper for `least_paper_on_clear_edges`: a card's back with its magnetic
    //   stripe is cut at the stripe's band otherwise (eight scenes, 0.936–0.998 → 0.676–0.712);
    // - the page left must be plain paper, as a page's own quad is judged (SheetBelowScene::
    //   plain_paper), for `least_rest_paper_on_clear_edges` (0.7.29): a picture
    //   printed to a page's edges steps as clearly as a page's side on the sheet below, and the
    //   page's paper beside it went as that sheet (pictures-6 / 8 at .high, the parts left 0.14 to
    //   0.27 plain paper, one of them a pale cyan picture 0.88 paper by brightness alone; the pages
    //   left on the stacked sets' clear cuts, 0.76 or more).
    // Raising any of them cuts fewer sheets below; lowering it cuts what it names off pages.
    double least_edges_around = 0.5, least_drawn_on_clear_edges = 0.3, least_share_on_clear_edges = 0.1;
    double least_stepping_on_clear_edges = 0.8, least_paper_on_clear_edges = 0.9;
    double least_rest_paper_on_clear_edges = 0.5;
};

// What the sheet-below search reads of one frame's search.
struct SheetBelowScene {
    const cfocal_image &image;
    const cv::Mat &full;     // the frame in grey at full resolution
    const cv::Mat &gx, &gy;  // the working image's gradients (Sobel of its smoothed grey)
    double scale;            // working pixels to a full-resolution pixel
    const NetworkView &view;
    // Whether a cut may also be made on the image's clear edges where the maps are faint
    // (cfocal_quad_options.cut_sheets_on_clear_edges, SheetBelow's `…_on_clear_edges`).
    bool cuts_on_clear_edges;
    // Whether a quad has a document's shape (acceptable_shape with the search's options).
    std::function<bool(const Corners &)> acceptable;
    // The working image's long straight edges, found on first use and kept for the frame.
    std::function<const std::vector<Line> &()> straight_edges;
    // The share of a quad (full resolution) that is plain paper in the frame's light, as the search
    // judges a page's own quad (QuadSearch::plain_paper_share, PlainPaper in quads.cpp).
    std::function<double(const Corners &)> plain_paper;
};

// q (working pixels) without the sheets it lies on, one strip at a time (a sheet can show along
// two sides); q as it is where none shows.
Corners cut_off_sheets_below(Corners q, const SheetBelowScene &scene);

}  // namespace cfocal::quad
