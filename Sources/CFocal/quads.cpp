// Document and rectangle detection.
//
// The textbook recipe (Canny, contours, approxPolyDP, largest 4-gon) fails on real scenes because
// the page's outline merges with edges in the background and text blocks win. Here no single
// binary map has to be right:
//   1. candidates come from several maps at a working size (Canny at two thresholds, closed;
//      brightness thresholds), each contour's convex hull reduced to a quad two ways;
//   2. every candidate is scored by gradient support along all four sides with consistent
//      polarity (the page brighter, or darker, than what surrounds it), weakest side weighted most;
//   3. the winners are refined at full resolution: edge points found along each side's normal
//      with sub-pixel peaks, a robust line fitted per side, corners at the lines' intersections,
//      or where curved sides meet on a bowed page (quad_sides.cpp).
// With the page network (Sources/Focal/Models/page-detector.onnx) its regions and outline give candidates too,
// and it scores every candidate. QuadSearch, at the end of the file, runs these as named stages, and the
// rules that choose among candidates live beside it; quad_candidates.hpp makes quads from hulls, lines
// and maps, quad_evidence.hpp reads the image's edges and paper, page_map_view.hpp reads the network's
// maps, sheet_below.hpp cuts the sheets a page lies on off its quad, page_extent.hpp moves a chosen
// quad's sides to where the page really ends (off the frame's border, at a book's gutter, across a
// picture printed to its edge), and quad_sides.hpp fits the chosen quads' sides at full resolution.
#include "internal.hpp"
#include "page_extent.hpp"
#include "page_map_view.hpp"
#include "quad_candidates.hpp"
#include "quad_evidence.hpp"
#include "quad_sides.hpp"
#include "sheet_below.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#ifdef CFOCAL_CANDIDATE_LOG
#include <cstdio>
#include <cstdlib>
#endif

using namespace cfocal;

using namespace cfocal::quad;

namespace {

struct Candidate {
    Corners corners;
    double score = 0;
    bool learned = false;  // scored by the page network: no colour test, ranked with its edges' support
    bool coarse = false;   // drawn from the network's map: refined over a network cell, not a working pixel
    double rank = -1;      // order of preference when not the score itself
    double agreement = -1; // the page network's agreement (network_agreement), where it was asked
    double edges = -1;     // how much of its outline lies on edges (Support::score), where rank() asked
    bool on_another = false;  // kept as a page lying on another, in place of a quad round both (enclosing)
    bool laid_within = false; // taken out of the quad round both sheets it lies on (laid_within)
    bool shape_not_asked = false;  // chosen, but outside the caller's aspect ratios: not reported (ShapeSelection)
    bool on_image_lines = false;   // joined from the image's straight edges: chosen on its own rank only (ImageLines)
    bool frame_itself = false;     // the whole frame as the page (FrameItself): reported as it is
};

// When the page network overrules a candidate's edges in favour of a candidate around it.
struct NetworkPreference {
    // How much more the network must agree with the quad around (network_agreement). Raising it
    // leaves more parts of pages (cut by a cable or a pen across them, with four clear sides)
    // reported in place of the page; lowering it lets the network's coarser regions at .low, which
    // can take a page's neighbour in, overrule a page's clear edges.
    double margin = 0.15;
    // How much of the quad around must lie on edges (Support::score). Raising it keeps a page's part
    // where the page's own sides are faint; lowering it lets a region that leaks into the desk win.
    // A cable across a page breaks both sides it crosses: at 0.75 the packing list with the cable
    // laid across it (the occluded phone photos) was reported cut at the cable, its whole outline
    // on edges for 0.725 (JI 0.40 → 1.00 at 0.7; nothing else moved on the photos or the clips).
    double least_support = 0.7;
};

// When a quad around another takes its place because the network's outline map runs on past the
// inner quad's side (QuadSearch::outlined_around): a cable laid across a page among clutter makes
// the page's part above it a quad with four clear edges, and the pens and fruit on the page lower
// the network's agreement with the whole page below NetworkPreference's margin (the phone photos'
// table page with a highlighter, a pen, an orange and the cable on it, scripts/eval/occlude-photos.py
// clutter: 0.399 → 1.00 at .high; no other still or clip frame of the development sets moved, at
// 0.2 to 0.5 and 0.6 to 0.7 below).
struct OutlineAround {
    // How little of one of the inner quad's sides the map may draw. Raising it lets the map's faint
    // trace along a page's real side count as undrawn, and a page give way to it and its neighbour.
    double most_drawn_cut = 0.3;
    // How much of every side of the quad around the map must draw. Lowering it lets a quad around a
    // page and something beside it, whose far side the map draws only in part, take the page's place.
    double least_drawn_around = 0.6;
};

// When a page lying on another page is kept rather than the outline around both sheets
// (QuadSearch::lies_on_another). On the stacked photos (scripts/eval/stack-photos.py) it keeps the
// laid page on one scene each of seeds 1 and 3, which the outline around the stack had taken
// (JI 0.74 → 0.99 and 0.996 at .high, seed 1's at .low too); nothing else moved on the development
// photos or clips. The thresholds were set before those were scored.
struct PageOnAStack {
    // How much of the page's outline must lie on edges (Support::score). Lowering it lets a part of
    // a page cut off by a cable or a fold, whose sides are mostly edges, stand for the page.
    double least_edges = 0.9;
    // How much of it the network's outline map must draw (drawn_outline). Lowering it lets a table
    // or a photo printed on a page, which has edges all round, stand for the page.
    double least_drawn = 0.9;
    // The outline around both sheets is refused only while less than this of it lies on edges.
    // Raising it refuses pages that really enclose a figure with a clear outline of its own.
    double most_edges_around = 0.5;

    // Or, whatever the edges of the outline around both sheets and however faintly the network
    // draws the page's sides over the sheet below (0.7.10; on the stacked photos of seeds 1, 2, 4
    // and 6, four scenes at .high 0.617–0.742 → 0.987–0.996, two at .low 0.619 / 0.786 → 0.988 /
    // 0.989): the page's outline lies on edges for `least_edges_towards_a_side`, two or three of
    // its sides run inside the outline around (further than `reach` of its size from its sides:
    // the page is pushed towards a corner or a side of the sheet below, which shows along them),
    // and the page covers `least_share` of it. A figure printed inside a page runs inside along
    // all four sides; a cable and a pen across a page cut off a part of it, not half of it (a
    // card cut so, edges 0.95 all round, covered a third of its quad: 0.996 → 0.332 without
    // `least_share`). Lowering them keeps more such parts and figures in place of their page;
    // raising `reach` misses pages whose sheet below shows as a thin strip (at 0.03, two of the
    // scenes above).
    double least_edges_towards_a_side = 0.95, reach = 0.02, least_share = 0.5;

    // The same where only one of the page's sides runs inside the outline around (0.7.15: the sheet
    // below shows along one side, or as thin wedges along the others), if the network's outline map
    // draws that side for more than `least_drawn_alone` (drawn_sides). A cable or a pen across a
    // page cuts off a part with one side inside the page's quad too, and the map leaves that cut
    // undrawn (0.00 on the phone photos' lined page with a cable across it at .low, which was cut
    // there without it: 0.998 → 0.646). On the stacked photos of seeds 2, 4 and 5 at .high the side
    // was drawn 0.37, 0.72 and 0.42 (0.641 → 0.935, 0.815 → 0.989, 0.637 → 0.876); no other
    // development still or clip moved. Lowering it lets parts of pages cut off by a cable stand for
    // the page; raising it leaves pages on a sheet that shows along one side to the quad around both.
    double least_drawn_alone = 0.3;
};

// When a page laid on a stack is taken out of the quad round both sheets, which was chosen
// (QuadSearch::laid_within): the network's region and agreement cover both sheets, and the page's
// own quad, which the network likes less, is found among the candidates inside it. Its sides
// inside the quad round it lie on a step of the image for all their length, and end at a corner
// inside it beyond which no edge runs on: a cable or a pen across a page runs on over the rest of
// the page and the desk, and a band printed across a page from side to side has no corner inside.
// PageOnAStack keeps such a page where it wins on its own rank; this takes it where it does not (the
// network agreeing with it 0.3 to 0.7, with the quad round both 0.9). On the stacked photos
// (scripts/eval/stack-photos.py, 0.7.21), seeds 2, 5 and 6 at .high 0.818 / 0.842 / 0.804 → 0.850 /
// 0.896 / 0.916 (seed 2's with SecondLookGate sparing the page), seeds 1, 2, 4, 5 and 6 at .low
// 0.794 / 0.721 / 0.803 / 0.790 / 0.748 → 0.810 / 0.780 / 0.824 / 0.809 / 0.851 (19 stills, none
// lost); held apart, seed 3 0.802 → 0.804 at .high; no other development or held-apart set moved.
// Where the page's own quad is not among the candidates, the quad round both stays
// (scripts/eval/candidates.py tells those stills apart).
struct PageLaidWithin {
    // The least the network must agree with the page laid on top (network_agreement). Raising it
    // leaves more stacked pages to the quad round both sheets; lowering it lets parts of pages the
    // network sees no page in stand for the page.
    double least_agreement = 0.28;
    // How much of the quad round both the page covers, at least and at most. Raising `most_share`
    // lets a bowed page's chord, a little inside its curved side, take its place (at 0.86 a bowed
    // photo at .low, 0.990 → 0.947; the stacked pages taken cover 0.53 to 0.80).
    double least_share = 0.5, most_share = 0.85;
    // How much of each of the page's sides inside the quad round both must step (Stepping), where
    // it steps most within `reach` of the working image's longer side either way at each end (the
    // candidates come from the network's map, a few working pixels off the page's edge). Lowering
    // it lets the edges of text blocks and figures stand for a page's side.
    double least_stepping = 0.75, reach = 0.01;
    // The gradient a step must reach (step_at) for the stepping above and for the run-on below
    // (PageBesideOneStrip's too). Lowering it lets fainter edges count. At 20, SheetBelow's step
    // for paper on paper, for the sides' stepping alone (2026-12-05, the run-on at 28): a stacked
    // page on stacks-2 was taken out of the quad round both (the set 0.908 → 0.928 at .high), and
    // the right page of the open book with a cable across it out of the book's (occluded-cable's
    // `book.png` 0.968 → 0.956); no other development set moved. Not kept for one still each way.
    double step = 28;
    // How far inside the quad round both the page's inner corner must lie, of that quad's size (the
    // square root of its area). Lowering it lets a card's part below its magnetic stripe, whose
    // sides at .low lie a little inside the card's quad, take the card's place (0.998 → 0.711).
    double least_corner_depth = 0.04;
    // How much the image may step along a side's line beyond the page's inner corner (from 2 % to
    // 17 % of the side's length beyond it). Raising it lets a part of a page that a cable or a
    // straight shadow cuts off take the page's place. Lowering it keeps the quad round both sheets
    // where the sheet below is printed with text or a table whose lines run on from the page's side
    // (0.5 until 0.7.31: stacks-2 / 4 / 5 at .high 0.840 / 0.912 / 0.893, 0.861 / 0.949 / 0.908 now,
    // stacks-4 at .low 0.824 / 0.858: stacks-4's still 00 steps on for 0.63, stacks-2's 04 for
    // 0.76; no still of the occluded sets moved).
    double most_run_on = 0.8;
    // The least share of the page that must be plain paper (paper_share_in_colour). Lowering it lets
    // a table or a picture printed on a page, with clear sides of its own, take the page's place
    // (a framed table with a dark header on jscanify's test4.jpg, 0.65 of it paper: 0.995 → 0.47 at
    // 0.2). Raising it leaves more stacked pages printed with tables to the quad round both sheets:
    // 0.72 until 0.7.32, when stacks-5's still 00 (0.71 plain paper) and stacks-8's 02 were among
    // them (.high 0.908 / 0.862 → 0.924 / 0.869).
    double least_paper = 0.68;
    // The most of the frame the quad round both may cover (0.7.42). Beyond it, that quad is the
    // frame's own rectangle or a page filling it, and what lies beside the page inside it is the
    // page's own end: a scanned receipt's heading above a boxed table of items, or its summary box
    // below, has clear sides and plain paper beyond them, as a page on a stack has. On the real
    // receipts (dev-sets.py's receipts) at .high three frame-filling receipts were cut so, 0.715 /
    // 0.821 / 0.741 → 0.995 / 0.981 / 0.998 (set 0.933 → 0.945); at .low stacks-4 0.879 → 0.883;
    // nothing else of the development sets moved. Raising it cuts more frame-filling receipts at a
    // box printed on them; lowering it leaves more stacked pages whose sheet below fills most of
    // the frame to the quad round both (at 0.8, stacks-7 at .high 0.956 → 0.933; 0.95 as 0.9).
    double most_frame_covered = 0.9;
};

// The same where only one of the page's sides runs inside the quad round both sheets: the sheet
// below shows along one end of the page, and the page shares its other three sides with the quad
// round both (the sheet pushed out straight beyond the page's top or bottom). Its inside side steps
// all along (PageLaidWithin::least_stepping) and, beyond both its ends, along its line, nothing
// steps: the page's side ends at its corners, where the quad round both runs on over the desk, while
// a cable, a straight shadow or an object's foot across a page runs on beyond them (0.24 on a
// standing-objects scene whose cylinder's foot lines up with a row of the page's table). The strip
// cut off is plain paper (the sheet below), not a picture printed across the page's end. Tried
// only where no candidate lies laid within as PageLaidWithin asks (two or three sides inside), which
// say more: a quad with one side inside can join a page to the sheet below it. On the stacked
// photos at .high (0.7.34) stacks-1 / 2 / 8 0.860 / 0.861 / 0.869 → 0.877 / 0.892 / 0.900 (pages
// 0.81 → 0.98, 0.81 → 1.00, 0.54 → 0.66, 0.84 → 1.00, 0.67 → 0.82; their sides ran on beyond their
// ends for 0.00 to 0.05), at .low six stacked pages gained 0.06 to 0.21 and one standing-objects
// scene lost 0.643 → 0.495 (a table's rule across a page the quad round both already missed).
struct PageBesideOneStrip {
    // The least share of each neighbouring side the page keeps (the strip cut off is at most 0.4 of
    // the quad round both deep). Lowering it lets a cable laid slantwise across a page cut it there
    // (one side kept 0.47 to 0.48 on a photo each of the cluttered and laid-cable sets, which then
    // lost 0.4).
    double least_kept = 0.6;
    // How much the image may step along the inside side's line beyond each of its ends (from 2 % to
    // 17 % of the side's length beyond). Raising it lets a page be cut at a line that runs on
    // across the desk (0.24 at a cylinder's foot on standing-7's `standing07`: 0.790 → 0.646 at 0.3).
    double most_run_on = 0.15;
    // The least share of the strip cut off that must be plain paper (paper_share_in_colour: the
    // stacked pages' strips were 0.94 to 1.00). Lowering it lets a picture or a band printed across
    // a page's end be cut off as if it were another sheet.
    double least_strip_paper = 0.6;
    // How near (of the quad round both's size) the page's corners must lie to the quad's sides it
    // shares, as SidesRunOn::near asks of a quad and the one around it (the network's coarse quads).
    double near = 0.03;
};

// When a candidate around another is refused because it is the frame's own rectangle: `least_sides`
// of its sides lie along the image's border, none of the quad inside it does, and the network likes
// it no better than that quad. A page wholly in view on a desk, a large dark picture printed across
// it, got a second look whose maps joined the page's side to the frame's edges; the quad so made,
// the page and the desk round it out to the frame, scored within 0.08 of the page and took its
// place in enclosing() (pictures-8's `03` at .high: 0.672 until 0.7.35, 0.998 since; nothing else
// of the development sets moved at either accuracy, fill-4 and fill-10's pages filling the frame
// among them). A page filling the frame round a table or a picture printed on it is liked better
// than what it holds and still takes its place.
struct FrameAround {
    // How many of the quad around's sides must lie along the border. Raising it to 3 let a second
    // such quad, two sides along the border, take the page's place (0.694).
    int least_sides = 2;
    // How near the image's border, in working pixels, both ends of a side must lie for the side to
    // lie along it. Raising it takes quads whose sides run just inside the frame for the frame's.
    double border = 2;
};

// When a candidate around another is refused because the network's outline map draws it less.
struct OutlinePreference {
    // How much less of the quad around the outline map must draw (drawn_outline) than of the quad
    // inside. Raising it lets more quads around a page that the map does not draw (the page and the
    // sheet it lies on, or a bowed page and the wallpaper's stripe beside it) take the page's place;
    // lowering it keeps parts of a page whose outline the map draws a little better than the page's.
    double margin = 0.2;
};

// When a quad gives way to one inside it that it only runs on beyond along one side, over
// something that is neither paper nor outlined: an object standing across the sheet's edge (a
// cylinder or a box on a white sheet on a pale desk; scripts/eval/standing-objects.py), whose
// silhouette the network takes into the page's region and whose far side becomes the quad's. The
// inner quad shares that side's two corners with it and keeps most of both neighbouring sides, or,
// where the object hides one of the page's corners, all of one and most of the other (a wedge); the
// quad's pieces of those sides beyond it lie on no edge (they cross the desk or the object, not the
// page's side), and the strip beyond is darker than paper. Only a quad chosen on its own rank gives
// way: one that enclosing() reached outwards was preferred there by the network or the edges (a page
// with a picture printed to its edge, a page whose far part lies in an object's shadow). On blank
// sheets under objects, .high, seeds 4 and 7: 0.814 / 0.908 / 0.881 → 0.989 / 0.982 / 0.998 (CHANGELOG 0.7.16).
struct ObjectsBeside {
    // How much lower the inner quad may rank (QuadSearch::rank). Raising it lets the inner quad win
    // on more frames, and lets parts of pages whose faint sides the edges miss stand for the page.
    double most_rank_lost = 0.05;
    // The least and the most of each neighbouring side the inner quad keeps. Lowering `least_kept`
    // lets deeper strips be cut off: a picture printed to a page's edge is 45-65 % of it.
    double least_kept = 0.6, most_kept = 0.95;
    // Or the strip is a wedge: an object standing across a sheet's corner hides it, the network's
    // quad runs out round the object's far side at that corner only, and the inner quad shares a
    // third corner with the quad (it keeps all of one neighbouring side, up to
    // `most_kept_of_a_whole_side`: its corner may lie a little beyond the quad's) while keeping at
    // most `most_kept_at_the_deep_end` of the other (0.7.38: blank sheets at .high, seeds 4, 6, 8
    // and 9, 0.955 / 0.910 / 0.893 / 0.940 → 0.961 / 0.936 / 0.899 / 0.953, at .low seed 9 0.922 →
    // 0.927 and fill-10 0.977 → 0.981; lost, standing-4's `standing05` at .high 0.922 → 0.863, a
    // cut under a cylinder's foot). Raising `most_kept_of_a_whole_side` lets the inner quad reach
    // out past the quad (at 1.05, scene 04 of blank sheets of seed 6 on a desk of plain noise: a
    // side slanted out through a cylinder standing across it, 0.928 → 0.876); lowering it to 1.0
    // refuses shared corners the search placed a pixel apart (blank-4's `standing00` and blank-9's
    // `standing03` stay 0.856 and 0.889). Raising `most_kept_at_the_deep_end` cuts thin slanted
    // slivers off sheets whose side an object hides (at 0.95, scene 04 of seed 9 on plain noise:
    // 0.996 → 0.963).
    double most_kept_of_a_whole_side = 1.02, most_kept_at_the_deep_end = 0.9;
    // How much of the quad's side pieces beyond the inner quad may step (Stepping, both together,
    // by length). Raising it cuts off strips whose sides are the page's own, faint ones.
    double most_stepping = 0.3;
    // How much of the strip may be as bright as `dim` of the inner quad's paper. Raising it cuts off
    // pale paper: a page's part in shadow or lit less.
    double most_paper = 0.3, dim = 0.85;
    // How near (of the quad's size) the inner quad's corners must be to the shared side's. Raising
    // it lets quads whose shared side the search placed less alike give way: at 0.02 (until 0.7.37)
    // the quad of a page with a picture printed over its top left corner ran on up over the wooden
    // desk to the frame's top edge, its corners 0.02 to 0.03 from the page's own (pictures-3's `03`
    // at .high: 0.813 → 0.995); it also lets a quad cut under a cylinder's foot take the place of
    // one nearer the page's side hidden behind it (standing-4's `standing04`, 0.906 → 0.857).
    double near = 0.03;
    // Where the option asks (`lenient_on_unprinted_sheets`, .high), how much lower an inner quad
    // holding less than `least_print` print (ink_share at the working size) may rank. Raising
    // `most_rank_lost_unprinted` lets blank sheets' quads win over more of the objects beside them;
    // raising `least_print` counts more printed pages as blank. On a blank sheet the network has no
    // print to tell the page from the objects standing on it, and its quad round both ranked 0.05
    // to 0.12 above the sheet's own on most of the blank sheets' misses (blank sheets at .high,
    // seeds 4, 8 and 9: 0.951 / 0.920 / 0.960 → 0.958 / 0.942 / 0.969 at 0.12; 0.08 gains 0.928 on
    // seed 8, 0.2 0.938). On a printed page, a strip cut under a cylinder's foot or along its base
    // is the page's (standing-6's `standing09` and standing-7's `standing11`, 0.960 / 0.811 →
    // 0.876 / 0.732 with no print asked for). Printed pages hold 0.036–0.073 ink, the blank sheets
    // (their objects' feet and shadows inside) up to 0.023: at 0.02 seed 8 gains only 0.928, at
    // 0.045 standing-7 loses 0.812 → 0.805. At .low, whose working image is half as large, blank-8
    // lost (0.936 → 0.932): not asked there.
    double most_rank_lost_unprinted = 0.12, least_print = 0.03;
    // How many times a quad may give way to one inside it in turn, each judged against the quad it
    // gives way from, and every one ranked within the bounds above of the outermost quad's rank.
    // Where objects stand across a sheet's far side and hide it, the network's quad runs round them,
    // and the quad inside it first is cut along their tops, still running on over them; the sheet's
    // own quad lies one step further in (0.7.65: `cylinder-and-box-over-the-top-side.png` of the
    // tests' standing objects, whose quad a white-sheet fine-tune ran along the box's top: 0.805 →
    // 0.99; blank-8 0.955 → 0.981 with that network). Raising it peels more strips off.
    int most_steps = 2;
    // How much of the strip may be as bright as paper where the inner quad is joined from the image's
    // own lines, or is a second step in: such a quad's cut side is any straight edge, a box's upright
    // side or a shadow's edge across the sheet as well as the foot of what stands on it, and only a
    // strip with no paper in it is the objects' (the sheet's own quads cut so: 0.000 to 0.020;
    // those cut along a box's side or a shadow, paper beside the box in the strip: 0.08 to 0.29).
    // Raising it lets those cuts through; at `most_paper` (0.3) blank-7, held apart, lost 0.05.
    double most_paper_cut_on_lines = 0.05;
    // Tried and not kept (0.7.61, a temporary build): where no inner quad keeps the quad's
    // neighbouring sides, an unprinted inner quad sharing only the near side (its other sides the
    // network's own, not the quad's), 0.4 to 0.9 of the quad, plain paper (0.9 or more), and what
    // the quad takes in beyond it darker than paper, the largest such taking the quad's place; the
    // image's lines' quads allowed as the inner one. Run on blank-8's `standing00` alone it found the
    // sheet (0.674 → 0.986), but it lowered eight of the ten blank sets at .high (blank-7 0.980 →
    // 0.932, blank-noise-13 0.993 → 0.935; their mean 0.969 → 0.953): a sheet's quad takes in the
    // objects standing on it as a matter of course (its corners hidden under them count), and the
    // plain-paper quad inside it is then the sheet's visible part, not the sheet. Only the quad's
    // own sides running on past the inner quad, as above, tell an object beside the sheet from one
    // standing on it.
};

// When a quad gives way to one around it that shares its far side and whose two other sides run
// on from its own along the image's edges: the quad is the part of a page that a picture printed
// across it, or a card's black stripe on a dark desk, cuts off. To the network the picture is not
// page, and its region stops there; the page's sides run on through the picture as edges against
// the desk. The quad around must be one the network half agrees with. Judged after the paper check
// (on the network's own quad), before bands and pictures at the page's edge are reached across
// (PictureToTheEdge: that search stops at the nearest edge, the picture's far side, and reaches three
// times the sides' length). On the development sets at .high, a magazine page with a picture across
// its middle 0.225 → 0.997 (pictures-3) and an ID card cut at its black stripe 0.717 → 0.998 (fill-4,
// as the set's PNG; saved as JPEG the rule does not fire); at
// .low a clip of seed 13 0.962 → 0.975; held apart, pictures-2 and blank-7 one page each (CHANGELOG
// 0.7.17); nothing else moved. One side stepping faintly where the cut is even (0.7.23): at .high
// pictures-1 / 3 0.971 / 0.784 → 0.979 / 0.856, blank-6 0.890 → 0.896; nothing else moved at
// either accuracy, held apart included. Shared corners 0.03 of the quad's size apart, not 0.02
// (0.7.24): at .high pictures-6 / 7 0.764 / 0.870 → 0.829 / 0.924, at .low held-apart pictures-2
// 0.795 → 0.856; lost, the clips of seed 7 at .high 0.986 → 0.985 and stacks-8 at .low 0.846 →
// 0.843. A fainter side barely stepping where the quad around is more than twice as deep (0.7.27):
// at .high pictures-3 / 6 0.912 / 0.912 → 0.974 / 0.955, nothing else moved; at .low no development
// set moved, held-apart pictures-2 0.865 → 0.858 (a quad around out to the frame's top corners).
struct SidesRunOn {
    // The least share of each neighbouring side's piece beyond the quad that must step (Stepping).
    // Lowering it lets a quad grow over something lined up with the page (a sheet below pushed
    // straight along it, a second card in a row); raising it keeps more pages cut where the
    // picture's grey meets the desk's.
    double least_stepping = 0.6;
    // Or, where the quad around is cut evenly (each neighbouring side keeps within `most_uneven` of
    // the other's share), the least share that must step on the fainter side, the other stepping
    // `least_stepping`: a dark picture band printed across a page on a dark desk leaves one of the
    // page's sides beside it a faint step (0.18 to 0.26 on the quads round pictures-3's inner table,
    // its other side 0.96; since 0.7.27 such deep strips pass as faint sides, below). It now judges
    // the strips shallower than what they run on from (the quad keeps more than
    // `most_kept_for_a_faint_side`), where a page filling the frame on a dark desk steps 0.36
    // (fill-4's inner-lines page, 0.714 → 0.947 as it grows), and what is not page steps less: a
    // box standing across a blank sheet's side 0.25 (blank-6's `standing06`, the quad grew round the
    // box: 0.973 → 0.831) and a sheet below lined up with a page 0.32 (stacks-8's `09` at .low).
    // 0.33 since 0.7.33 (0.25 before): at .high blank-6 0.898 → 0.910 and held-apart stacks-3 0.835
    // → 0.873, at .low stacks-8 0.843 → 0.846; nothing else moved. Lowering either lets a quad grow
    // over a sheet lined up below the page or an object beside it on one side; raising `most_uneven`
    // lets it grow over a slanted run of the desk beyond a page's end (pictures-1's table page, kept
    // 0.70 and 0.99).
    double least_fainter_stepping = 0.33, most_uneven = 0.1;
    // Where the quad keeps at most `most_kept_for_a_faint_side` of each neighbouring side (the quad
    // around is more than twice as deep), the fainter side, cut evenly, need step only
    // `least_faint_stepping`: a picture printed across most of a page on a white desk leaves the
    // paper's side beside it a faint step or none (pictures-6's page, 0.08; pictures-3's band page,
    // 0.17), while a sheet lined up below a page, or a table's ruled side, adds a strip shallower than
    // what it runs on from (quads keeping 0.56 to 0.85 grew wrongly at 0.05 on stacks-2 / 7 and
    // pictures-7 / 8). Raising `most_kept_for_a_faint_side` lets shallower strips grow over faint
    // sides; raising `least_faint_stepping` keeps more band pages on white desks cut.
    double most_kept_for_a_faint_side = 0.5, least_faint_stepping = 0.05;
    // The most of each neighbouring side the quad may already cover: the quad around adds a strip of
    // at least a tenth. Raising it lets thinner strips be added, which the band search handles.
    double most_kept = 0.9;
    // The least score of the quad around, in minimum confidences. Raising it leaves more pages cut
    // at a picture, which the network does not take for page; lowering it lets quads the network
    // sees little page in grow out. 0.7 since 0.7.28 (0.8 before): a dark picture over three
    // quarters of a page leaves the network's quad round the whole page 0.445 (0.74 confidences),
    // whose sides step all along beyond the page's part above the picture (pictures-5 at .high
    // 0.927 → 0.988; nothing else moved at either accuracy, held apart included).
    double least_score = 0.7;
    // How near (of the quad around's size) the quads' shared corners must be. The quads round a
    // whole page are the network's, coarse, while the page's part beside the picture has its sides
    // fitted to the image's edges: on pictures-6 / 7's band pages their shared corners lie further
    // apart than 0.02 (0.7.24: at 0.02 the text above or below the band was reported). Raising it
    // lets a quad give way to one whose far side is another line (at 0.04 a document grew over the
    // desk on 17 frames of a clip of seed 13 at .low: 0.978 → 0.974).
    double near = 0.03;
    // How many times a quad may give way to one around it in turn. Each adds a strip of at least a
    // tenth of the neighbouring sides (most_kept), so a few steps reach any page.
    int most_steps = 4;
};

// Paper that is plain in the frame's light (QuadSearch::choose, paper_share_in_colour): besides being
// mostly bright (`least_paper`), a page's quad must be partly near-neutral paper. A screen showing
// a pale picture, a coloured sign with white lettering, a window's white frame round a street are
// bright without it: on the page-like frames of scripts/eval/page-like-scenes.py (seed 1), false
// pages at .high 5 → 2 of 24 (two windows and a sign), at .low 4 → 2 (the windows), and on those of
// seed 2, held apart, 9 / 8 → 7 / 5; no page of the development or held-apart sets lost. A keyboard
// with pale keys stays, as plain as paper (PaperInOnePiece refuses it). A screen showing a pale
// green picture, the brightest thing in its frame, was its own white and so neutral; where the
// frame's white is too coloured to be light's (`most_white_saturation`), paper must be plain in the
// raw colours as well (0.7.22: page-like seeds 1 and 4 at .high 1 and 2 → 0 and 2 false pages, at
// .low 1 and 2 → 0 and 1; no page of any development or held-apart set moved).
struct PlainPaper {
    // The most saturated bright paper may look, once each channel is divided by the frame's white
    // (frame_white). Raising it lets more coloured screens and signs pass for paper; lowering it
    // refuses paper lit differently from the frame's brightest things.
    double most_saturation = 0.3;
    // The least share of the quad's interior grid that must be such paper. Raising it refuses more
    // pages with large pictures printed on them (0.2 lost a magazine page with a picture band at
    // .low: 1.00 → 0.25) and more coloured things.
    double least_share = 0.1;
    // The most saturated the frame's white (frame_white) may be and be taken for the colour of its
    // light alone. Camera white balance leaves paper's light near neutral: the brightest things of
    // every development and held-apart still with a document are at most 0.31 saturated (a page
    // beside a large coloured picture), most below 0.18; on the page-like frames, where a screen or
    // a sign is the brightest thing, up to 0.95 (scripts/eval/frame-whites.py). Beyond it, paper
    // must be plain in the raw colours too (a screen showing a pale green picture: white 0.37).
    // Raising it lets a bright coloured screen that is the frame's white pass for paper; lowering
    // it judges pages in a tinted light by their raw colour as well.
    double most_white_saturation = 0.33;
};

// A page mostly picture (QuadSearch::paper_enough): a photograph printed over two thirds of a page
// leaves less than `least_paper` (0.35) of it paper, as little as a window's white frame and pale
// shapes leave of a window. The page's paper is plain, near-neutral paper nearly all of it; much
// of the window's is pale colour. Of every network quad with 0.25 to 0.35 paper that the
// development sets' searches judged (scripts/eval/paper-shares.py development, at .high / .low): on
// frames without a document (the page-like windows and signs of seeds 1, 3 and 4) at most 0.71 /
// 0.69 of the paper is plain; the pages' own quads 0.53 / 0.41 to 0.94, most 0.8 or more (the
// others, on band pages and a page with graphics, stay refused).
struct PictureOnPaper {
    // The least paper share (paper_share) of a page mostly picture. Raising it refuses more pages
    // with large photographs; lowering it lets more framed pictures be weighed.
    double least_paper_of_picture = 0.25;
    // The least share of that paper which must be plain (plain_paper_share over paper_share).
    // Lowering it lets windows with pale coloured shapes through; raising it refuses pages whose
    // paper is tinted by the light.
    double least_plain_of_paper = 0.8;
    // The grid (cells along each side) on which a quad the 7 × 7 grid refuses is counted again,
    // where the option asks (`recount_picture_pages`, .high). 49 points are few for a page whose
    // photograph leaves thin margins: pictures-4's low-contrast page, 15 to 17 of 49 points paper,
    // is 0.36 to 0.39 paper on 225. Raising it costs more on each quad so doubted. At .low four
    // windows more pass (on the page-like frames of seeds 2, 10, 14, 19: 0.30 to 0.38 paper on
    // the finer grid, 0.71 to 0.81 of it plain, where the page's own is 0.67 to 0.74).
    int finer_cells = 16;

    // Whether a quad with `paper` paper share and `plain` plain paper share is mostly paper (at
    // least `least_paper` of it), or a page mostly picture whose paper is plain.
    bool paper_enough(double paper, double plain, double least_paper) const {
        return paper >= least_paper || (paper >= least_paper_of_picture && plain >= least_plain_of_paper * paper);
    }
};

// Paper in one piece (QuadSearch::choose, largest_paper_piece): a page's paper runs round its print
// in one piece, or in two or three where a cable, a pen or a picture band crosses it. A keyboard's
// pale keys are as plain as paper but many pieces of one size, each the gaps' darkness apart.
// Measured on the quads reported (scripts/eval/dev-sets.py, .high): the pages of every development
// set keep 0.43 or more of their paper in one piece (a picture band across a page, 0.43; a cable,
// 0.51); the keyboards of the page-like frames of seeds 1, 3 and 4, 0.02 to 0.13.
struct PaperInOnePiece {
    // The least share of the quad's paper its largest piece must hold. Raising it refuses pages cut
    // in more places (by cables, pens, bands); lowering it lets keyboards with fewer keys through.
    double least_share = 0.25;
    // The longest side, in pixels, at which the quad's interior is seen square-on. Raising it sees
    // narrower gaps between keys and costs more (at 256, about 0.8 ms on one core; at 160, 0.3).
    // At 160 the page-like sets' keyboards keep at most 0.13 of their paper in one piece; at 128,
    // where their gaps blur into the keys, one keeps 0.19.
    int longest = 160;
};

// Paper is among the brightest things in view (QuadSearch::paper_enough, interior_brightness: the
// median of the quad's interior or of the margin just inside its sides, over the frame's brightest
// 2 %). A keyboard's dark body is paper to the other tests, which judge a quad's paper against its
// own brightest tenth, where the gaps between its keys catch the light. On the development stills
// the network quads that pass every other paper test and are the page (JI 0.9 or more against the
// annotation) are 0.64 or more (a page laid on a stack of other sheets; 19 in 20 of them 0.74 or
// more); the dark keyboards reported on the page-like frames of seeds 6 to 13
// (scripts/eval/page-like-scenes.py), 0.12 to 0.27, and a dark blue sign, 0.32.
struct PaperAmongTheBrightest {
    // The least interior brightness a page's quad must have. Raising it refuses more pages in shade
    // beside something brighter (a lamp, a window, a white desk in the sun); lowering it lets darker
    // things with pale lines on them (keyboards, grilles) through.
    double least = 0.4;
};

// Paper runs deep (QuadSearch::paper_enough, deep_plain_paper_share): a page's margins and the paper
// round its print are broad; a window's white frame and mullions, a picture's white border, are thin
// lines round colour, and all the plain paper such a quad has. On the development stills, of the
// network quads that pass every other paper test and are the page, the least share of deep plain
// paper is 0.077 (a page with a large graphic printed over its corner; the next 0.11, most 0.25 or
// more). The false pages 0.7.38 reported on the page-like frames of seeds 6 to 13
// (scripts/eval/page-like-scenes.py): windows and framed pictures with coloured panes, 0.00 to 0.08,
// half of them below 0.05; those whose panes are pale enough to pass for plain paper, or whose quad
// takes in a strip of pale desk beside them, 0.3 to 0.7, and stay.
struct DeepPaper {
    // How far from anything not plain paper a point must lie to count, as a share of the interior's
    // shorter side. Raising it asks for broader margins (narrow receipts and pages crowded with print
    // fall short); lowering it lets thicker window frames count.
    double depth = 0.02;
    // The least share of the quad's interior that must be deep plain paper, set below the least
    // page's 0.077 with room for pages not yet seen. Raising it refuses more pages mostly picture
    // and more windows; lowering it lets more windows and framed pictures through.
    double least_share = 0.05;
    // The plain paper share (plain_paper_share, the 7 × 7 grid) from which a quad's paper is taken
    // to run deep without looking: the look costs about 1 ms a quad (a tracked page in a stream is
    // judged every frame). Of the 2,287 quads judged on the development stills and the page-like
    // frames of seeds 1 to 13, every one with 0.3 or more plain had 0.057 or more deep. Lowering it
    // looks on fewer quads; raising it looks on more, pages among them.
    double plain_without_looking = 0.5;
};

// When the outline map's lines are skipped at `.low` (CFOCAL_OUTLINE_LINES_WHERE_UNDRAWN). They cost
// about 1 ms at .low's 320 px (HoughLinesP over the outline band, 0.75 ms), a fifth of its frame,
// and change nothing where the region's quad is already outlined all round: the sample clip's page
// (drawn 1.0 on every frame) keeps .low's speed. Where a cable, a shadow or an object leaves the
// region short of a side they mend it: at .low the laid cable over the phone photos 0.838 → 0.877,
// standing objects 0.787 → 0.821 (CHANGELOG 0.7.8).
struct OutlineLinesGate {
    // How much of the likeliest region quad the outline map must draw (drawn_outline) for the lines
    // to be skipped. Lowering it skips them on more frames (faster) and keeps fewer of the quads that
    // mend a region cut short; 0.8 lost half the laid cable's gain.
    double least_drawn = 0.95;
};

// Quads joined from the image's own straight edges, as candidates beside the network's, where the
// network's likeliest quad does not lie on the image's edges all round (cfocal_quad_options'
// image_lines_where_unedged: .high). An object standing on a sheet is, to the network, part of the
// page, and its region runs up round the object and over the desk behind it, while the sheet's
// visible sides still run straight on the desk and meet where the object hides their corner. A
// page's quad lies on edges nearly all round (the sample clip's frames: 1.00); the network's
// likeliest quad on the standing-objects scenes 0.09–0.58. Such quads are scored by the network's
// agreement alone (the edges' own score lifted a table printed on a page over the page: the phone
// photos' `inner-lines-dark-background` 0.998 → 0.890) and are chosen on their own rank only: no
// page laid within the quad round a stack (PageLaidWithin), no page beside an object (ObjectsBeside)
// and no quad around another (enclosing, SidesRunOn) is taken from them, since the image's lines
// also join a table, a figure or a book's page inside a page into quads (the phone photos' table:
// 0.999 → 0.50 with them taken within). On the development sets at .high (0.7.40): standing objects
// of seeds 1, 2, 4, 6 and 8 0.828 / 0.924 / 0.851 / 0.893 / 0.854 → 0.847 / 0.946 / 0.857 / 0.906 /
// 0.856, blank sheets of seeds 6, 8 and 9 0.936 / 0.899 / 0.953 → 0.938 / 0.920 / 0.960; lost,
// blank-4 0.961 → 0.951 (a quad along the left side of a cylinder and a box standing over the
// sheet's corner, whose wedge ObjectsBeside had cut off) and stacks-7 0.959 → 0.956; held apart,
// blank sheets of seeds 5 and 7 0.901 / 0.952 → 0.915 / 0.967. No false page more. At .low (off)
// they lost more than they gained: the development mean 0.914 → 0.911, six more false pages.
struct ImageLines {
    // The least edge support (Support::score) of the network's likeliest quad for the image's lines
    // to be skipped. Raising it joins lines on more frames (a few milliseconds each, most of it
    // finding the lines) and lets them compete with pages the network already found (0.8 tried,
    // 2026-12-05: the standing and blank development sets the same to 0.001).
    double least_edges = 0.7;
    // How many of the image's longest straight edges are joined (quads_from_lines: every pair of
    // near-parallel pairs). Raising it finds sides broken into shorter pieces, at the cost of
    // quads to judge that grows with its fourth power (30 tried, 2026-12-05: standing-7 0.834 →
    // 0.848 at .high, the other standing and blank development sets within 0.001).
    int lines = 20;
    // The least share of plain paper (plain_paper_share) a quad so joined must have, above what a
    // network quad must (PlainPaper): lines join slivers of windows and frames into quads whose
    // paper tests pass by a hair (a window's mullion and frame on page-like-7's `19-window`, plain
    // paper 0.10, 0.41 as bright as the brightest, deep paper 0.07). Lowering it lets such slivers
    // be reported as pages; the quads gained on the standing objects are 0.5 or more plain paper.
    double least_plain = 0.5;
};

// Which shapes the search weighs, where the caller asks for fewer. A narrower range of aspect ratios
// than the detector's default selects among documents: a page outside it is chosen as ever, over
// the quads it overlaps, and then not reported (judged on the candidate chosen, before bands and
// pictures printed to its edges are added to it). Searched within the narrower range alone, the page
// is no candidate, and a quad across part of it is reported in its place (a receipt 0.4 wide for 1
// tall, asked for at most 0.35, gave a quad from one of its corners across to the middle of its
// top side, agreement 0.79: DetectorTests.aspectRatioRangeSelectsShapes).
struct ShapeSelection {
    // The narrowest shape the search weighs (an aspect ratio, shorter side over longer, at most 1):
    // it weighs every shape from it to a square, or from the least the caller asks where that is
    // below `narrowest_asked`. Lowering it lets narrower quads (a strip of a page, a cable's edge)
    // compete with the pages they lie on (at 0.2, a page with a picture printed on it lost to a
    // narrower quad: pictures-3 at .high 0.990 → 0.923).
    double least_aspect = 0.3;
    // The detector's default least aspect ratio (DetectorOptions.minimumAspectRatio, 0.2 since
    // 0.7.47: receipts run to 1 : 5). A caller asking for no narrower shapes than this gets the
    // search above, and of shapes narrower than it weighs, only the frame itself is reported, where
    // the image is the document (FrameItself: a long receipt scanned and cropped to its edges, 0.25
    // to 0.30; the real cropped receipts, receipts-cropped, at .high 0.575 → 0.998). A caller
    // asking for narrower shapes gets a search that weighs them.
    double narrowest_asked = 0.2;
};

// Which of the two later looks stands on a frame in which the first look found nothing at all,
// where an empty-frame model is given (.high: the second look at 96, the empty-frame look at 192;
// AccuracyProfile.emptyFrameLookPageModelInput has the figures). 96's coarse maps, added to the
// first look's, fill a window's panes or a framed picture, which is then reported as a page; at 192
// the network sees the frame round them. But a receipt scanned to fill the image, which the first
// look passes over, 96 finds whole and 192 does not. So 96 looks first, and what it finds stands
// where it covers most of the frame; elsewhere the look at 192 is taken, and what it finds (or
// nothing) replaces 96's. False pages at .high on the development page-like sets 11 → 3 of 264
// frames, the real receipts kept (0.945).
struct EmptyFrameLook {
    // The least of the frame 96's quad must cover to stand. Raising it sends more frame-filling
    // pages to the look at 192, which misses many; lowering it lets more of 96's windows stand
    // (0.6 to 0.9 gave the same figures on the receipts, the page-like sets, grey and clips-7).
    double least_frame_covered = 0.8;
};

// The frame itself as the page (QuadSearch::frame_itself). A scan, or a photo cropped to the page,
// shows none of the page's sides, so no quad from the network's maps or the image's edges finds them,
// and the network, which learned pages with sides, agrees with the whole frame only in part, or draws
// a part of it as the page. Where the search keeps nothing, the frame is scored by its share of plain
// paper (plain_paper_share) where the network agrees with it enough: at .high the two real receipts
// scanned to fill the image that nothing was found on (the network 0.49 and 0.71 with the frame) are
// found, while on the development frames in which nothing was found (the page-like sets, the clips'
// empty frames, the facades) it agreed with the frame at most 0.19. Where a quad is kept and the
// option asks (`frame_over_doubted_quads`, .high), the frame replaces it if the network agrees with
// the frame by the margin more than the quad scores: a card's part below its black stripe (0.63
// against 0.96), a scanned receipt's quad a little inside its border. `dev-sets.py --accuracy high`:
// receipts 0.945 → 0.984 (56 → 58 of 58 found), the phone photos' pages cropped as scans
// (scans-phone-1…3) 0.672 / 0.744 / 0.727 → 0.861 / 0.890 / 0.825; no other development set moved, nor
// the false pages, at either accuracy.
struct FrameItself {
    // The least the network must agree with the whole frame (network_agreement). Lowering it reports
    // the frame on more frames where the network sees a page only in part, and nears what it gives
    // frames with no page (0.19).
    double least_agreement = 0.3;
    // The agreement at which the frame's plain paper share counts in full; below it, in proportion.
    // Lowering it lets a frame of paper the network doubts (an ID card's back, a card behind its
    // black stripe: 0.30) pass the minimum confidence.
    double full_agreement = 0.5;
    // How much more the network must agree with the frame than the quad kept scores for the frame to
    // replace it (as NetworkPreference's margin for a quad around). Lowering it gives a page on a pale
    // desk, whose region the network runs on into the desk, the whole frame more often.
    double margin = 0.15;

    // Or, at .high, however much better than the frame the network likes the quad kept (0.7.47):
    // where that quad cuts across a page scanned to fill the image. The network then draws a block
    // of the page (a receipt's lines below its heading, or cut slantwise through its text) and the
    // quad's sides cross print and paper instead of lying on edges; beyond one of them lies paper as
    // bright as the page's, printed as the page is. A page lying in view has a desk beyond its sides,
    // and a white desk holds no print. The real receipts at .high: 0.984 → 0.992 (three scans cut
    // so, 0.729 / 0.803 / 0.935 → 0.980 / 0.993 / 0.998); no other development set moved.
    //
    // The most of the quad's outline that lies on the image's edges (Support::score). Raising it
    // lets the frame replace quads round pages laid on a sheet that fills the frame (stacked pages'
    // outlines lie on edges for 0.64 to 1.00).
    double most_cut_edges = 0.5;
    // The least the network must agree with the frame. Lowering it gives the frame in place of
    // pages the network sees within a frame it doubts.
    double least_cut_agreement = 0.5;
    // The least share of the frame that must be plain paper (plain_paper_share; the scans cut so:
    // 1.00). Lowering it lets a desk round the page count as the page.
    double least_frame_paper = 0.9;
    // How far beyond the quad's sides (of the working image's longer side) paper is looked for, how
    // bright it must be (of the working image's brightest, as PaperAmongTheBrightest), and on how
    // much of one side at least. Lowering `least_paper_beyond` lets a side with a pale desk beyond
    // it in patches count as a cut.
    double beyond = 0.0125, paper_brightness = 0.8, least_paper_beyond = 0.6;
    // How much print (ink_share) the frame beyond the quad must hold, of the quad's own. Lowering
    // it lets a page on a plain white desk (whose quad's sides, white on white, lie on no edge) give
    // way to the frame: at 0, the phone photos' A4 page on white in eleven sets, 0.98 → 0.22–0.47.
    double least_print_beyond = 0.5;
};

// How the network's view of the frame at a finer input (finer_view_model: .high's 224 on a still,
// after its 160) joins the first look's maps, before any candidate is found. The two sizes fail on
// different pages: at 160 the network paints a page and the sheet it lies on as one, and takes the
// body of an object standing on a white sheet into the page; at 224 it parts them better, but takes
// a picture printed on a page for a page of its own (224 alone: the development mean 0.944 → 0.932,
// README.md of Models/page-detector). Blended, at .high: the development sets 0.953 → 0.959 (49
// sets; standing-7 / 8 0.829 / 0.882 → 0.864 / 0.906, stacks-2 / 5 0.908 / 0.942 → 0.937 / 0.983,
// scans-phone-1 0.886 → 0.977 with every page found, pictures-5 0.963 → 0.985, occluded-shadow 0.962
// → 0.980; lost, stacks-7 0.960 → 0.927, scans-phone-2 0.948 → 0.923, occluded-pen 0.986 → 0.976),
// false pages 3 → 4 of 292 frames; held apart 0.938 → 0.945 (12 sets; standing-5 0.871 → 0.908,
// stacks-3 0.859 → 0.880; standing-3 0.907 → 0.893), false pages 3 → 2 of 158. Lost too, two of
// StackedPhotoTests' pages to the quad round both sheets (PageOnAStack no longer keeps them). The
// clips, searched as a stream, take no finer view, and a still whose first look is clear skips it
// (FinerViewGate).
struct FinerView {
    // The finer view's share of each map pixel. Raising it moves the maps towards the finer view's:
    // 0.2 gave the development sets 0.958 and kept the stacked pages, but lost a picture page and a
    // page with a cable across it of the tests (0.84 and 0.898), and held apart it gave 0.937; 0.5
    // gave 0.954 (pictures-6 lost a page to its picture). Inputs 192 and 256 at 0.3 gave 0.956 and 0.957.
    double share = 0.3;
};

// Which stills skip the finer view (FinerView): those in which the likeliest of the first look's
// own quads is one the network agrees with clearly and whose outline lies on the image's edges
// nearly all round (a page on a desk, its four sides in sight). What the finer view mends, a page
// and the sheet below painted as one or an object's body taken into a white sheet, shows in one
// or the other: on the development and held-apart sets three stills that skip it moved, none by
// more than 0.002 in JI, and no figure at three decimals (0.7.56).
// A still that skips it is spared the second network pass (the sample clip's frames at .high
// 14.6–14.8 → 7.5–7.9 ms); one that takes it pays for finding the first look's quads twice
// (FocalBenchmarks detect .build/dev-sets/sets/stacks-1, 1080 × 1920 stills: 29.4–30.8 → 31.2–31.3
// ms; standing-7, 640 × 480: 19.9–20.6 → 22.1–23.1 ms). Receipts, whose sides are faint, nearly all
// take it.
struct FinerViewGate {
    // The least network_agreement of the likeliest quad. Lowering it skips the finer view on more
    // stills and keeps more quads it would have moved (0.8, with least_edges 0.8, lost a page on a
    // white desk to a part of it, fill-4 0.973 → 0.949).
    double least_agreement = 0.9;
    // The least share of its outline on the image's edges (Support::score). Lowering it skips the
    // finer view on more stills and keeps more quads round a page and the sheet below it (0.8 and
    // 0.7: stacks-1 and stacks-5, 0.902 / 0.965 → 0.896 / 0.958).
    double least_edges = 0.9;
    // Where the option asks (cfocal_quad_options.finer_view_spares_filled_frames, .low), the most of
    // the frame the first look may paint page (its page map's mean) for the finer view to be taken
    // (0.7.68). A card's back scanned to its edges is page nearly all over to the first look (0.77
    // to 0.90 on the four scans below), and the frame itself is reported (FrameItself); .low's
    // finer view at 160, blended into its 96, drew the card's magnetic stripe and barcode as not
    // page, and the card was cut there or lost (scans-phone-1 / 2 / 3 at .low 0.895 / 0.990 / 0.974
    // → 0.808 / 0.949 / 0.831, two cards not found; with this gate as before). At .high, whose
    // finer view is 224 after 160, the gate cost more than it gave (development 0.9642 → 0.9636:
    // occluded-glare 0.989 → 0.971, fill-4 0.962 → 0.947). Lowering it skips the finer view on
    // more stills whose page fills much of the frame.
    double most_page_painted = 0.7;
};

// Which frames get a second look (QuadSearch::look_again, the network at another input): those in
// which nothing was found or the network agrees only weakly with what was, and in which the first
// look drew something page-like (QuadSearch::can_look_again). The second look finds pages whose
// region or outline the first look drew faintly or in part, never one it did not draw at all, and
// costs a second network pass (at .low, the network at 160 after 96: about 8 ms). On the
// development sets' frames given a second look, the least the first look drew where the second
// found a page was 0.12 (a facade clip's page region, its outline 0.37); a frame with no page on
// it and nothing page-like (the sample clip's first frames) draws under 0.04 in both maps.
struct SecondLookGate {
    // The least the first look's page or outline map must reach somewhere for a second look. Raising
    // it saves the second pass on more frames and gives up pages the first look drew faintly.
    double least_seen = 0.1;
    // A frame whose chosen quad the first look agrees with less than this (network_agreement) gets
    // the second look too, and what that finds replaces it: a white sheet on a pale desk under
    // standing objects, whose region the first look leaves patchy, or at .low a card held in a hand
    // with a cable across it. Raising it looks again on more frames (a pass more each) and lets the
    // second look's maps replace more quads: 0.75 lost blank sheets at .low (0.920 → 0.905) and
    // standing objects at .high (0.907 → 0.903), and 0.65 left most of 0.7's gains.
    double least_agreement = 0.7;
    // A page kept in place of the quad round it and the sheet below (PageOnAStack) gets no second
    // look where the network agrees with it for this or more: the network likes the quad round both
    // sheets better, and the second look's maps brought that quad back (0.7.15; on the stacked
    // photos of seeds 2 and 5 at .high, pages agreed with for 0.43 and 0.57 kept their place:
    // 0.935 → 0.997 and 0.876 → 0.995). Below it the network sees no page there: a
    // receipt's block below its title, kept so against the whole receipt (0.33 against 0.70),
    // gives way to the receipt on the second look (ReceiptTextTests). Raising it lets the second
    // look replace more pages on a stack; lowering it keeps more parts of pages that look laid on
    // the rest. A page taken out of the quad round both sheets (PageLaidWithin), whose evidence is
    // the image's and not the network's, gets no second look however little the network agrees
    // (0.7.21: on the stacked photos of seed 2 at .high one page agreed with for 0.30, 0.600 → 0.915).
    double least_agreement_on_another = 0.4;
};

// An image's own rectangle, through its outermost pixels' centres.
Corners whole(const cv::Size &size) {
    const double right = size.width - 1, bottom = size.height - 1;
    return {cv::Point2d(0, 0), cv::Point2d(right, 0), cv::Point2d(right, bottom), cv::Point2d(0, bottom)};
}

void write_quad(const Corners &q, double confidence, cfocal_quad &out) {
    for (int i = 0; i < 4; ++i) {
        out.x[i] = q[i].x;
        out.y[i] = q[i].y;
    }
    out.confidence = confidence;
}

// One search for documents in one frame, in named stages: the working image; the page network's
// candidates; candidates from the image's outlines (and where documents were a frame ago), scored
// by the network or by their edges; straight-line candidates when nothing convinced; ranking;
// choosing one per overlapping group; refining at full resolution.
class QuadSearch {
public:
    QuadSearch(const cfocal_image &image, const cfocal_quad_options &o) : image_(image), o_(o), searched_(o) {
        const ShapeSelection shapes;
        searched_.min_aspect_ratio = o.min_aspect_ratio < shapes.narrowest_asked ? o.min_aspect_ratio : shapes.least_aspect;
        searched_.max_aspect_ratio = 1;
        full_ = gray_of(image);
        luma_ = Halvings(full_);
        scale_ = std::min(1.0, double(std::max(64, int(o.working_size))) / std::max(full_.cols, full_.rows));
        if (scale_ < 1) resize_by(luma_, small_, scale_);
        else small_ = full_;
        cv::GaussianBlur(small_, smooth_, cv::Size(5, 5), 0);
        shorter_ = std::min(small_.cols, small_.rows);
        min_side_ = std::max(8.0, o.min_size * shorter_);
        min_area_ = min_side_ * min_side_ * std::max(0.2, searched_.min_aspect_ratio) * 0.5;
        cv::Sobel(smooth_, gx_, CV_16S, 1, 0);
        cv::Sobel(smooth_, gy_, CV_16S, 0, 1);
        bright_reference_ = percentile(smooth_, 0.98);
        give_up_ = std::max(0.0, (std::max(0.35, o.min_confidence) - 0.375) / 0.625);
        // With the page network, every candidate is scored by how much it agrees the quad is a
        // page: things that only look like pages (screens, windows, boxes) score low, and pages
        // whose edges are hidden or faint still get a quad from its region. Tracking still
        // confirms by edges alone.
        learned_ = o.page_model != nullptr && !o.priors_only;
    }

    // The network's page regions, and at .high quads on the straight stretches of its outline.
    // Where a finer view is given, the first look's quads are found again on its maps blended in,
    // unless the likeliest of them is clear without it (FinerViewGate).
    void network_candidates() {
        if (!learned_) return;
        first_look_ = page_maps_in(o_.page_model, image_, o_.page_model_input, o_.page_model_view, &luma_);
        network_candidates(first_look_);
        if (o_.finer_view_model == nullptr || sure_without_finer_view()) return;
        blend_finer_view();
        candidates_.clear();
        agreed_.clear();
        network_candidates(first_look_);
    }

    // Whether the likeliest of the first look's own quads needs no finer view (FinerViewGate).
    bool sure_without_finer_view() {
        const FinerViewGate gate;
        if (o_.finer_view_spares_filled_frames && cv::mean(first_look_.page)[0] > gate.most_page_painted) return true;
        rank();
        if (candidates_.empty()) return false;
        const Candidate &likeliest = candidates_.front();
        return likeliest.agreement >= gate.least_agreement && likeliest.edges >= gate.least_edges;
    }

    // The finer view's maps blended into the first look's (FinerView), and kept for a second look
    // at the same input.
    void blend_finer_view() {
        finer_view_ =
            at_first_look_size(page_maps_in(o_.finer_view_model, image_, o_.finer_view_input, o_.page_model_view, &luma_));
        const double share = FinerView{}.share;
        cv::addWeighted(first_look_.page, 1 - share, finer_view_->page, share, 0, first_look_.page);
        cv::addWeighted(first_look_.outline, 1 - share, finer_view_->outline, share, 0, first_look_.outline);
    }

    // Another look's maps interpolated to the first look's size, to be joined with its maps.
    PageMaps at_first_look_size(const PageMaps &other) const {
        PageMaps resized;
        cv::resize(other.page, resized.page, first_look_.page.size(), 0, 0, cv::INTER_LINEAR);
        cv::resize(other.outline, resized.outline, first_look_.outline.size(), 0, 0, cv::INTER_LINEAR);
        return resized;
    }

    // Whether the network agrees only weakly with a quad chosen from its first look (SecondLookGate),
    // counting a page kept in place of the quad round it and the sheet below as sure where the
    // network sees a page there at all (least_agreement_on_another), and one taken out of that quad
    // (PageLaidWithin) as sure.
    bool unsure_of(const std::vector<Candidate> &kept) const {
        return std::any_of(kept.begin(), kept.end(), [](const Candidate &k) {
            if (k.laid_within) return false;
            const SecondLookGate gate;
            const double least = k.on_another ? gate.least_agreement_on_another : gate.least_agreement;
            return k.learned && k.agreement >= 0 && k.agreement < least;
        });
    }

    // Whether a second look (look_again) is worth taking: a second model is given, this is a search,
    // and the first look saw something page-like somewhere (SecondLookGate).
    bool can_look_again() const {
        if (!learned_ || o_.second_look_model == nullptr || o_.priors_only) return false;
        double page = 0, outline = 0;
        cv::minMaxLoc(first_look_.page, nullptr, &page);
        cv::minMaxLoc(first_look_.outline, nullptr, &outline);
        return std::max(page, outline) >= SecondLookGate{}.least_seen;
    }

    // The network's candidates found again, and the image's outlines scored again, with the second
    // model's maps (the network at another input) added to the first look's, the greater of the
    // two at each pixel, for a frame in which the first look found nothing or only a quad it agrees
    // with weakly; with `empty_frame_look`, the empty-frame model's maps instead (EmptyFrameLook).
    // At one input the network sometimes draws a page's outline and leaves its region dark (a
    // motion-blurred page on a rough facade at 160), where another fills it. The greater of the two
    // keeps what the first look saw: a window onto a street that the first network fills, and the
    // search refuses, is not replaced by the second network's patchier view of it (PageModelTests'
    // window, which .low's network alone reports).
    void look_again(bool empty_frame_look) {
        cfocal_page_model *model = empty_frame_look ? o_.empty_frame_look_model : o_.second_look_model;
        const int input = empty_frame_look ? o_.empty_frame_look_input : o_.second_look_input;
        // .low's second look is its finer view (the same model at the same input): already seen.
        const bool seen = finer_view_ && model == o_.finer_view_model && input == o_.finer_view_input;
        second_look_ = seen ? *finer_view_ : at_first_look_size(page_maps_in(model, image_, input, o_.page_model_view, &luma_));
        PageMaps both;
        cv::max(first_look_.page, second_look_.page, both.page);
        cv::max(first_look_.outline, second_look_.outline, both.outline);
        search_again(both);
    }

    // The candidates found again on other maps: the network's own, and the image's outlines (as
    // the first look found them) scored again.
    void search_again(const PageMaps &maps) {
        candidates_.clear();
        agreed_.clear();
        network_candidates(maps);
        network_scored_outline_quads();
        rank();
    }

    // The whole frame as the page (FrameItself), or nothing: where nothing was kept, if the network
    // agrees with the frame enough, scored by its plain paper share where the network half agrees
    // with it, as an outline's edges lift the network's score (network_scored_outline_quads); where
    // a quad was kept, if the network agrees with the frame by the margin more than with it, or the
    // quad cuts across a page scanned to fill the image.
    std::optional<Candidate> frame_itself(const std::vector<Candidate> &kept) {
        if (!learned_ || o_.priors_only || (!kept.empty() && (!o_.frame_over_doubted_quads || !kept.front().learned)))
            return std::nullopt;
        const FrameItself p;
        const Corners q = whole(small_.size());
        const double agreement = agreement_with(q);
        if (agreement < p.least_agreement) return std::nullopt;
        Candidate c{q, agreement, true, false, -1, agreement};
        if (kept.empty()) {
            c.score = std::max(agreement, plain_paper_share(at_full(q)) * std::min(1.0, agreement / p.full_agreement));
        } else if (agreement < kept.front().score + p.margin && !cuts_across_a_scan(kept.front().corners, q, agreement)) {
            return std::nullopt;
        }
        c.frame_itself = true;
        c.shape_not_asked = !aspect_within(q, o_);
        if (c.score < o_.min_confidence) return std::nullopt;
        return c;
    }

    // Whether q, kept, cuts across a page scanned to fill the image, `frame`, which the network
    // agrees with for `frame_agreement` (FrameItself's cut): q's sides lie on few edges (measured
    // here: choose() moves a kept quad's sides after rank() measured its edges), paper lies beyond
    // one of them, and the frame is paper printed beyond q as within it.
    bool cuts_across_a_scan(const Corners &q, const Corners &frame, double frame_agreement) {
        const FrameItself p;
        if (frame_agreement < p.least_cut_agreement || support(q, gx_, gy_, 28).score >= p.most_cut_edges ||
            !paper_beyond_a_side(q))
            return false;
        const double frame_area = area(frame), inside = std::min(area(q), frame_area);
        if (frame_area - inside < 1) return false;
        const double ink_inside = ink_share(q, small_);
        const double ink_beyond =
            std::max(0.0, ink_share(frame, small_) * frame_area - ink_inside * inside) / (frame_area - inside);
        return ink_beyond >= p.least_print_beyond * ink_inside && plain_paper_share(at_full(frame)) >= p.least_frame_paper;
    }

    // Whether, just beyond one of q's sides (away from the image's border), paper as bright as the
    // page's lies along `least_paper_beyond` of it or more (FrameItself).
    bool paper_beyond_a_side(const Corners &q) const {
        const FrameItself p;
        const double longer = std::max(small_.cols, small_.rows), border = 0.02 * longer;
        const cv::Point2d centre = (q[0] + q[1] + q[2] + q[3]) * 0.25;
        for (int k = 0; k < 4; ++k) {
            const cv::Point2d a = q[k], b = q[(k + 1) % 4];
            cv::Point2d out(a.y - b.y, b.x - a.x);
            out *= p.beyond * longer / std::max(1e-9, cv::norm(out));
            if (out.dot((a + b) * 0.5 - centre) < 0) out = -out;
            int looked = 0, paper = 0;
            for (int i = 1; i < 20; ++i) {
                const cv::Point2d at = a + (b - a) * (i / 20.0) + out;
                if (at.x < border || at.y < border || at.x > small_.cols - 1 - border || at.y > small_.rows - 1 - border)
                    continue;
                ++looked;
                if (smooth_.at<uchar>(cv::Point(at)) >= p.paper_brightness * bright_reference_) ++paper;
            }
            if (looked >= 8 && paper >= p.least_paper_beyond * looked) return true;
        }
        return false;
    }

    bool has_empty_frame_look() const { return o_.empty_frame_look_model != nullptr; }

    // Whether c covers most of the frame (EmptyFrameLook).
    bool fills_the_frame(const Candidate &c) const {
        return share_of_frame(c.corners) >= EmptyFrameLook{}.least_frame_covered;
    }

    // How much of the frame q (working coordinates) covers.
    double share_of_frame(const Corners &q) const { return area(q) / double(small_.total()); }

    // Whether the second look saw the frame at a larger input than the first (.low's 160 after 96).
    // An empty-frame look is not counted: its maps (.high's 192) join the first look's only.
    bool second_look_is_finer() const { return o_.second_look_input > o_.page_model_input; }

    // The candidates found again from the second look's maps alone, for a frame in which nothing was
    // found with the two looks' maps combined, where the second look is the finer one. At .low's 96 a
    // small page in a busy frame (a photo print held up before a dark coat, a few dozen network
    // pixels) leaks into what is beside it, and the greater of the two maps keeps the leak; at 160
    // the print stands apart (the evaluation clips of seed 7 at .low: 0.938 → 0.959, one clip 0.672
    // → 0.801; no other frame of any set moved, none of the empty ones gained a page). Only frames
    // with nothing found search again, so what either look found stands as before; at .high the
    // second look is the coarser one, and its view alone would report what the search refused (a
    // window onto a street, PageModelTests).
    void look_at_finer_maps_alone() { search_again(second_look_); }

    // Candidates from the network's maps (network_candidates above).
    void network_candidates(const PageMaps &maps) {
        view_ = network_view(maps, small_.size());
        for (const auto &q : network_quads(view_, min_area_))
            if (acceptable(q)) {
                const double agreement = agreement_with(q);
                candidates_.push_back({q, agreement, true, true, -1, agreement});
            }
        // Where a page's region leaks into a pale desk or a shadow, its hull takes the leak in,
        // while the outline still runs straight along the page's side (on the phone photos, the
        // white page on a white desk, the receipt on one and the card whose side meets a shadow:
        // 0.80, 0.93 and 0.90 → 0.98, 0.99 and 0.99 at .high).
        if (o_.page_outline_lines == CFOCAL_OUTLINE_LINES_NEVER) return;
        if (o_.page_outline_lines == CFOCAL_OUTLINE_LINES_WHERE_UNDRAWN && region_outlined_all_round()) return;
        std::vector<Corners> lined;
        quads_from_lines(outline_lines(view_, min_side_, 8), min_side_, small_.size(), lined);
        // Lines also meet in quads the map does not outline, and a page region's agreement can
        // still be high: on a white receipt scanned on white (SROIE 297), sides along its text,
        // drawn 0.32, agreement 0.80, and the text on that quad's flattened page cut at its side.
        // The phone photos' chosen quads are drawn 0.52 (the held card, fingers over a side) to 0.93.
        for (const auto &q : lined)
            if (acceptable(q) && drawn_outline(q, view_) >= 0.4) {
                const double agreement = agreement_with(q);
                candidates_.push_back({q, agreement, true, true, -1, agreement});
            }
    }

    // The network-scored candidate it agrees with most, or null where there is none.
    const Candidate *likeliest_network_quad() const {
        const Candidate *likeliest = nullptr;
        for (const auto &c : candidates_)
            if (c.learned && (likeliest == nullptr || c.agreement > likeliest->agreement)) likeliest = &c;
        return likeliest;
    }

    // Whether the page region's likeliest quad (the greatest agreement) has its outline drawn all
    // round, where the outline's lines would find the quad the region gave (OutlineLinesGate).
    bool region_outlined_all_round() const {
        const Candidate *likeliest = likeliest_network_quad();
        return likeliest != nullptr && drawn_outline(likeliest->corners, view_) >= OutlineLinesGate{}.least_drawn;
    }

    // Brightness thresholds and closed edge maps (skipped by a tracker confirming known documents,
    // priors_only), and where documents were a frame ago; scored by the network where there is one.
    void outline_candidates() {
        outline_quads_ = outline_quads();
        if (!learned_) {
            score_by_edges(outline_quads_);
            return;
        }
        network_scored_outline_quads();
    }

    // The quads of the brightness thresholds and edge maps, and the priors, at the working size.
    std::vector<Corners> outline_quads() {
        std::vector<Corners> quads;
        if (!o_.priors_only) {
            cv::Mat binary, edges;
            double otsu = cv::threshold(smooth_, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
            quads_from_mask(binary, min_area_, quads);
            cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
            for (double high : {otsu, otsu * 0.5}) {
                // From the gradients already taken (Canny would take the same Sobel twice more).
                cv::Canny(gx_, gy_, edges, high * 0.5, high);
                if (high == otsu) strong_edges_ = edges.clone();
                cv::dilate(edges, edges, kernel);
                quads_from_mask(edges, min_area_, quads);
            }
            // Pages are usually the brightest large thing in view: threshold high in the histogram too.
            cv::threshold(smooth_, binary, std::min(250.0, otsu + (255 - otsu) * 0.35), 255, cv::THRESH_BINARY);
            cv::morphologyEx(binary, binary, cv::MORPH_OPEN, kernel);
            quads_from_mask(binary, min_area_, quads);
        }
        for (int i = 0; o_.priors != nullptr && i < o_.prior_count; ++i) {
            Corners q;
            for (int k = 0; k < 4; ++k)
                q[k] = rescaled(cv::Point2d(o_.priors[i].x[k], o_.priors[i].y[k]), 1, scale_);
            quads.push_back(q);
        }
        return quads;
    }

    // outline_quads_ as candidates, scored by the network's current view. A quad whose edges are
    // clear and paper-like keeps the edges' score where the network half agrees: in blur or at a
    // size the network sees poorly, the edges still find the page, and the network still vetoes
    // what is not one.
    void network_scored_outline_quads() {
        for (const auto &q : outline_quads_) {
            if (!acceptable(q)) continue;
            double agreement = agreement_with(q);
            // Below half the minimum the edges could not lift it to the minimum: skip their score.
            if (agreement < 0.5 * o_.min_confidence) continue;
            double score = std::max(agreement, edge_score(q) * std::min(1.0, agreement / 0.5));
            candidates_.push_back({q, score, true, false, -1, agreement});
        }
    }

    // Pages whose outline merges with other edges in every map still have straight sides. Without
    // the network only, and only when no outline convinced: the search costs more than the rest.
    void line_candidates() {
        if (o_.priors_only || learned_) return;
        double best = 0;
        for (const auto &c : candidates_) best = std::max(best, c.score);
        if (best >= 0.85) return;
        std::vector<Corners> quads;
        quads_from_lines(long_lines(strong_edges_, min_side_, std::max(1, int(o_.straight_edge_count))), min_side_, small_.size(), quads);
        score_by_edges(quads);
    }

    // Quads joined from the image's own straight edges where the network's likeliest quad does not
    // lie on edges all round (ImageLines), scored by the network's agreement.
    void image_line_candidates() {
        if (!learned_ || o_.priors_only || o_.image_lines_where_unedged == 0) return;
        const ImageLines p;
        const Candidate *likeliest = likeliest_network_quad();
        if (likeliest == nullptr || support(likeliest->corners, gx_, gy_, 28).score >= p.least_edges) return;
        std::vector<Line> lines = straight_edges();
        if (int(lines.size()) > p.lines) lines.resize(p.lines);
        std::vector<Corners> quads;
        quads_from_lines(lines, min_side_, small_.size(), quads);
        for (const auto &q : quads) {
            if (!acceptable(q)) continue;
            const double agreement = agreement_with(q);
            if (agreement < 0.5 * o_.min_confidence) continue;
            Candidate c{q, agreement, true, false, -1, agreement};
            c.on_image_lines = true;
            candidates_.push_back(c);
        }
    }

    // Among quads the network agrees on about equally, the one whose sides lie on real edges wins:
    // the network's map is only a few pixels precise, the image's edges are precise.
    void rank() {
        for (auto &c : candidates_) {
            if (c.learned && c.score >= o_.min_confidence) c.edges = support(c.corners, gx_, gy_, 28).score;
            c.rank = c.edges >= 0 ? c.score * (0.8 + 0.2 * c.edges) : c.score;
        }
        std::sort(candidates_.begin(), candidates_.end(), [](const Candidate &a, const Candidate &b) { return a.rank > b.rank; });
    }

    // The best of each overlapping group, at most `limit`, in rank order.
    std::vector<Candidate> choose(int limit) {
#ifdef CFOCAL_CANDIDATE_LOG
        log_candidates();
#endif
        std::vector<Candidate> kept;
        // The maps give many pages several times over, and enclosing() takes several candidates to
        // one: a quad already judged is kept or refused again, or overlaps itself where it was kept.
        std::vector<Corners> judged;
        const SheetBelowScene sheet_below = sheet_below_scene();
        for (auto c : candidates_) {
            if (int(kept.size()) >= limit) break;
            if (c.score < o_.min_confidence) continue;
            const Corners first = c.corners;
            c = enclosing(c);
            // A page laid on a stack first: the strip of sheet below beside it, cut off as a wedge
            // where an object's would be, no longer held a page laid within (stacks-8's `05` at
            // .low, 0.941 → 0.676 with ObjectsBeside's wedges asked first).
            c = laid_within(c);
            if (c.corners == first) {
                const Candidate inner = within_what_stands_beside(c);
                if (inner.corners != c.corners) c = laid_within(inner);
            }
            if (std::find(judged.begin(), judged.end(), c.corners) != judged.end()) continue;
            judged.push_back(c.corners);
            c.shape_not_asked = !aspect_within(c.corners, o_);
            if (o_.max_interior_saturation < 1 && !c.learned &&
                interior_saturation(at_full(c.corners), image_) > o_.max_interior_saturation)
                continue;
            // Judged on the network's own quad, before bands and pictures printed to the edge (not
            // paper) are added to it, and so before that search is paid for.
            // A quad joined from the image's lines must be plainer paper than the network's own.
            const double least_plain = c.on_image_lines ? ImageLines{}.least_plain : PlainPaper{}.least_share;
            if (c.learned && !paper_enough(at_full(c.corners), least_plain)) continue;
            // A part of a page cut off at a picture printed across it is, to the network, a page.
            // A page taken out of the quad round both sheets is not grown back to it.
            if (c.learned && !c.laid_within) c = run_on_past_what_cuts_it(c);
            // The network's quad stops at a band or a picture printed to the document's edge; its
            // edges do not.
            if (c.learned)
                c.corners = extended_across_picture(extended_over_bands(c.corners, gx_, gy_), first_fit_radius(c.coarse),
                                                    page_extent_scene());
            if (c.learned) c.corners = cut_off_sheets_below(c.corners, sheet_below);
            bool overlaps = false;
            for (const auto &k : kept)
                if (iou(k.corners, c.corners) > 0.3) overlaps = true;
            if (!overlaps) kept.push_back(c);
        }
        return kept;
    }

    // q (full resolution) with its sides fitted to the image's edges where they show: searched wide
    // first (first_fit_radius), then narrowly around the edges found.
    Corners refined(const Corners &q, bool coarse) const { return fitted(q, full_, first_fit_radius(coarse)); }

    // How far from a candidate's sides their edges are first searched, in full-resolution pixels:
    // candidates are only as precise as the working image, or the network's cell (coarse).
    double first_fit_radius(bool coarse) const {
        return coarse ? std::max(4.0, 1.2 * std::max(full_.cols, full_.rows) / double(o_.page_model_input))
                      : std::max(4.0, 2.5 / scale_);
    }

    // Whether the network's quad q (full resolution) is paper enough to be a page: mostly paper,
    // or a page mostly picture (PictureOnPaper); partly plain paper (PlainPaper); its paper largely
    // in one piece (PaperInOnePiece); among the brightest things in view (PaperAmongTheBrightest);
    // some of its plain paper broad, not thin lines only (DeepPaper). The network, pretrained on
    // photographs, takes a picture in a white frame for a page printed with one. Raising
    // `least_paper` rejects more pages that are mostly a dark picture; lowering it lets framed
    // pictures through. `least_plain` is the plain paper share asked (PlainPaper, or ImageLines for
    // a quad joined from the image's lines).
    bool paper_enough(const Corners &q, double least_plain) {
        const double least_paper = 0.35;
        const PictureOnPaper picture;
        const double paper = paper_share(q, full_);
        if (paper < std::min(least_paper, picture.least_paper_of_picture)) return false;
        const double plain = plain_paper_share(q);
#ifdef CFOCAL_CANDIDATE_LOG
        log_paper(q, paper, plain);
#endif
        if (!picture.paper_enough(paper, plain, least_paper) &&
            !(o_.recount_picture_pages && paper_enough_recounted(q, least_paper)))
            return false;
        if (plain < least_plain ||
            largest_paper_piece(q, full_, PaperInOnePiece{}.longest) < PaperInOnePiece{}.least_share)
            return false;
        if (interior_brightness(at_working(q), smooth_, bright_reference_) < PaperAmongTheBrightest{}.least)
            return false;
        const DeepPaper deep;
        return plain >= deep.plain_without_looking ||
               deep_plain_paper_share(q, full_, image_, plain_whites(), PlainPaper{}.most_saturation,
                                      PaperInOnePiece{}.longest, deep.depth) >= deep.least_share;
    }

    // Whether q (full resolution) is mostly paper, or a page mostly picture, with its paper and plain
    // paper counted on PictureOnPaper's finer grid.
    bool paper_enough_recounted(const Corners &q, double least_paper) {
        const PictureOnPaper picture;
        const double paper = paper_share(q, full_, picture.finer_cells);
        return picture.paper_enough(paper, plain_paper_share(q, picture.finer_cells), least_paper);
    }

    // The lights in which plain paper must look neutral: the frame's white, and where that is too
    // saturated to be the light's colour, a neutral white of its level too (PlainPaper).
    std::vector<cv::Vec3d> plain_whites() {
        const cv::Vec3d white = frame_white_once();
        if (saturation_of(white) <= PlainPaper{}.most_white_saturation) return {white};
        const double level = std::max({white[0], white[1], white[2]});
        return {white, cv::Vec3d(level, level, level)};
    }

#ifdef CFOCAL_CANDIDATE_LOG
    // Developers' builds only (scripts/eval/paper-shares.py): each network quad paper_enough judges
    // past its first test, appended to the file FOCAL_PAPER_LOG names, one line each (paper share,
    // plain paper share, largest paper piece, the corners at full resolution, then the interior's
    // brightness and its share of deep plain paper).
    void log_paper(const Corners &q, double paper, double plain) {
        const char *path = std::getenv("FOCAL_PAPER_LOG");
        FILE *log = path != nullptr ? std::fopen(path, "a") : nullptr;
        if (log == nullptr) return;
        std::fprintf(log, "%.4f %.4f %.4f", paper, plain, largest_paper_piece(q, full_, PaperInOnePiece{}.longest));
        for (const auto &corner : q) std::fprintf(log, " %.1f %.1f", corner.x, corner.y);
        std::fprintf(log, " %.4f %.4f", interior_brightness(at_working(q), smooth_, bright_reference_),
                     deep_plain_paper_share(q, full_, image_, plain_whites(), PlainPaper{}.most_saturation,
                                            PaperInOnePiece{}.longest, DeepPaper{}.depth));
        std::fprintf(log, "\n");
        std::fclose(log);
    }
#endif

    // The share of the quad q (full resolution) that is paper plain in the frame's light
    // (paper_share_in_colour, PlainPaper), and, where the frame's white is too saturated to be the
    // light's colour, in its raw colours too: the less of the two.
    double plain_paper_share(const Corners &q, int cells = interior_grid_cells) {
        double share = 1;
        for (const auto &white : plain_whites())
            share = std::min(share,
                             paper_share_in_colour(q, full_, image_, white, PlainPaper{}.most_saturation, cells));
        return share;
    }

    // The frame's white (frame_white), found once a search, when a candidate is first judged.
    const cv::Vec3d &frame_white_once() {
        if (!frame_white_) frame_white_ = frame_white(full_, image_);
        return *frame_white_;
    }

    // What the searches for where a page ends (page_extent.hpp) read of this search.
    PageExtentScene page_extent_scene() const { return {full_, gx_, gy_, scale_, small_.size(), view_}; }

    // What cut_off_sheets_below reads of this search.
    SheetBelowScene sheet_below_scene() {
        return {image_, full_, gx_, gy_, scale_, view_, o_.cut_sheets_on_clear_edges != 0,
                [this](const Corners &q) { return acceptable(q); },
                [this]() -> const std::vector<Line> & { return straight_edges(); },
                [this](const Corners &q) { return plain_paper_share(q); }};
    }

    // The working image's long straight edges (a Canny map of its own, fainter than the outline
    // search's: paper on paper), found once a search.
    const std::vector<Line> &straight_edges() {
        if (!straight_edges_) {
            cv::Mat edges;
            cv::Canny(gx_, gy_, edges, 30, 60);
            straight_edges_ = long_lines(edges, 0.5 * min_side_, 30);
        }
        return *straight_edges_;
    }

    // Each chosen quad at full resolution, its sides moved onto the image's edges where they show.
    void report(const std::vector<Candidate> &kept, cfocal_quad *out, int32_t *count) const {
        for (const auto &k : kept) {
            if (k.shape_not_asked) continue;  // ShapeSelection
            if (k.frame_itself) {
                write_quad(whole(full_.size()), std::min(1.0, k.score), out[*count]);
                *count += 1;
                continue;
            }
            Corners q = at_full(k.corners);
            // Where a side shows no edge, the quad stays as found.
            if (k.learned && o_.refine) q = off_the_border(q, page_extent_scene());
            if (o_.refine) q = refined(q, k.coarse);
            // Nor at a book's gutter, where the page beside it runs on out of view.
            if (k.learned && o_.refine) q = cut_at_gutter(q, first_fit_radius(k.coarse), page_extent_scene());
            if (o_.refine) q = joined_at_bowed_corners(q);
            write_quad(q, std::min(1.0, k.score), out[*count]);
            *count += 1;
        }
    }

private:
    bool acceptable(const Corners &q) const { return acceptable_shape(q, searched_, shorter_, small_.size()); }

    // The network's agreement with q (network_agreement), once for quads that differ by less than a
    // working pixel at each corner: the thresholds and edge maps find many pages several times over.
    double agreement_with(const Corners &q) {
        for (const auto &[known, value] : agreed_) {
            bool same = true;
            for (int k = 0; k < 4 && same; ++k) same = std::abs(known[k].x - q[k].x) < 1 && std::abs(known[k].y - q[k].y) < 1;
            if (same) return value;
        }
        const double value = network_agreement(q, view_);
        agreed_.emplace_back(q, value);
        return value;
    }

    // The network's outline map, on average, at 24 places along a → b's middle four fifths.
    double outline_between(const cv::Point2d &a, const cv::Point2d &b) const {
        return quad::outline_between(a, b, view_, scale_);
    }

    // The network's outline map at a point of the full-resolution image.
    double outline_at(const cv::Point2d &full) const { return quad::outline_at(full, view_, scale_); }

    // q with its corners where its sides bow (joined_where_sides_meet). With the network, its
    // outline map chooses the edge each curve is fitted to, searched wider (BowSearch's
    // outlined_reach). A side is taken as bowed only where no other edge runs along beyond its
    // curve and, with the network, where its outline map follows the curve at least as well as the
    // straight side: an edge inside a page can bow too (the border of a band printed along a book's
    // top). The map is asked first, as it is cheap.
    Corners joined_at_bowed_corners(const Corners &q) const {
        const OutlineAt outline = [this](const cv::Point2d &p) { return outline_at(p); };
        std::array<SideCurve, 4> sides = side_curves(q, full_, BowSearch{}, learned_ ? outline : OutlineAt{});
        const cv::Point2d inside = centre_of(q);
        for (auto &side : sides) {
            if (learned_ && side.bowed) side.bowed = outlined(side, true) >= outlined(side, false);
            if (side.bowed) side.bowed = !edge_runs_beyond(side, inside, full_);
        }
        return joined_where_sides_meet(q, sides);
    }

    // The network's outline map, on average, at 24 places along a side's middle four fifths: on its
    // curve, or on its straight line.
    double outlined(const SideCurve &side, bool curved) const {
        if (!curved) return outline_between(side.origin, side.origin + side.along * side.length);
        return mean_outline([&](double t) { return side.at(side.length * t); }, view_, scale_);
    }

#ifdef CFOCAL_CANDIDATE_LOG
    // Developers' builds only (scripts/eval/candidates.py): every candidate choose() is given, in
    // rank order, appended to the file FOCAL_CANDIDATE_LOG names, one line each (learned, score,
    // agreement, edges, rank, then the corners at full resolution), and a line "end" after them.
    void log_candidates() const {
        const char *path = std::getenv("FOCAL_CANDIDATE_LOG");
        FILE *log = path != nullptr ? std::fopen(path, "a") : nullptr;
        if (log == nullptr) return;
        for (const auto &c : candidates_) {
            std::fprintf(log, "%d %.4f %.4f %.4f %.4f", int(c.learned), c.score, c.agreement, c.edges, c.rank);
            for (const auto &corner : at_full(c.corners)) std::fprintf(log, " %.1f %.1f", corner.x, corner.y);
            std::fprintf(log, "\n");
        }
        std::fprintf(log, "end\n");
        std::fclose(log);
    }
#endif

    Corners at_working(const Corners &q) const { return rescaled(q, 1, scale_); }
    Corners at_full(const Corners &q) const { return rescaled(q, scale_, 1); }

    // The edges' own score for a quad (0 when it is no paper-like shape).
    double edge_score(const Corners &q) const {
        Support s = support(q, gx_, gy_, 28, give_up_);
        // A text block or a figure is darker inside than around it on every side; a page is
        // brighter than what it lies on along most of its outline.
        if (s.score < 0.35 || s.brighter_inside < 3) return 0.0;
        double brightness = interior_brightness(q, smooth_, bright_reference_);
        if (brightness < o_.min_interior_brightness) return 0.0;
        // Grey shapes need clearer edges than paper-white ones to count as documents.
        double paper = std::min(1.0, std::max(0.0, (brightness - o_.min_interior_brightness) / 0.2));
        return s.score * (0.85 + 0.15 * paper);
    }

    void score_by_edges(const std::vector<Corners> &quads) {
        for (const auto &q : quads) {
            if (!acceptable(q)) continue;
            double score = edge_score(q);
            if (score > 0) candidates_.push_back({q, score});
        }
    }

    // Whether the network agrees that d, around c, is the page, and c only a part of it: it agrees
    // with d clearly more, and d's sides lie on edges as well. Both matter: at .low the network's
    // coarser region can take a page's neighbour in (set 13, clip02: the true page 0.55, page and
    // neighbour 0.78, whose sides are on edges for 0.47 of their length). A d the network agrees
    // on that much scores at least the minimum confidence, so rank() has measured its edges.
    bool network_prefers(const Candidate &c, const Candidate &d) const {
        const NetworkPreference p;
        return c.agreement >= 0 && d.agreement >= std::max(o_.min_confidence, c.agreement + p.margin) &&
               d.edges >= p.least_support;
    }

    // Whether d, around c, is the page and c a part of it cut off by something lying across it (a
    // cable): the network's outline map leaves one of c's sides undrawn and draws every side of d,
    // which the network likes at least as well and whose outline lies on edges (OutlineAround).
    bool outlined_around(const Candidate &c, const Candidate &d) const {
        const OutlineAround p;
        if (!learned_ || c.agreement < 0 || d.agreement < c.agreement || d.edges < NetworkPreference{}.least_support)
            return false;
        const auto cut = drawn_sides(c.corners, view_), around = drawn_sides(d.corners, view_);
        return *std::min_element(cut.begin(), cut.end()) <= p.most_drawn_cut &&
               *std::min_element(around.begin(), around.end()) >= p.least_drawn_around;
    }

    // Whether the network agrees with d less than with c, and d's outline lies on the image's edges
    // clearly less than c's (all measured). Edges alone are not enough: a receipt's title block
    // has fainter sides than the block below it (ReceiptTextTests), and the network likes the
    // whole receipt better. Raising `most_lost` lets larger quads that take in a hand or a cable
    // win again; lowering it keeps a figure printed on a page from giving way to the page.
    static bool liked_less(const Candidate &c, const Candidate &d) {
        const double most_lost = 0.3;
        return c.agreement >= 0 && d.agreement >= 0 && d.agreement < c.agreement && c.edges >= 0 && d.edges >= 0 &&
               d.edges < c.edges - most_lost;
    }

    // Whether the network likes d, around c, no better than c and its outline map draws d clearly
    // less: d is c with something beside it that the map does not take for the page's outline
    // (the sheet a page lies on; at .low, the desk beside a page the box over its corner leaves
    // dark). A figure printed inside a page is not drawn by the map, so the page still takes its
    // place; nor is a page's part that a cable cuts off liked better than the page.
    bool outlined_less(const Candidate &c, const Candidate &d) const {
        return learned_ && c.agreement >= 0 && d.agreement >= 0 && d.agreement <= c.agreement &&
               drawn_outline(d.corners, view_) < drawn_outline(c.corners, view_) - OutlinePreference{}.margin;
    }

    // Whether c is a page lying on another page and d the outline around both sheets: c's four sides
    // lie on the image's edges and the network's outline map draws them, while d's sides mostly lie
    // on no edge (they run from the sheet below onto the page above). A figure printed inside a page
    // has edges all round too, but the outline map does not draw it, and the page around it has
    // edges of its own. Or c's outline lies on edges all round and c lies towards a corner or a side
    // of d, covering half of it or more (PageOnAStack's second rule).
    bool lies_on_another(const Candidate &c, const Candidate &d) const {
        const PageOnAStack p;
        if (!learned_ || d.edges < 0) return false;
        if (c.edges >= p.least_edges && d.edges < p.most_edges_around &&
            drawn_outline(c.corners, view_) >= p.least_drawn)
            return true;
        return c.edges >= p.least_edges_towards_a_side && area(c.corners) >= p.least_share * area(d.corners) &&
               lies_towards_a_side_of(c.corners, d.corners);
    }

    // Whether two or three of c's sides run inside d (PageOnAStack::reach), and so c lies towards a
    // corner or a side of it; or one does, and the outline map draws it (least_drawn_alone).
    bool lies_towards_a_side_of(const Corners &c, const Corners &d) const {
        const auto within = sides_within(c, d, PageOnAStack{}.reach * std::sqrt(area(d)));
        const auto inside = std::count(within.begin(), within.end(), true);
        if (inside == 2 || inside == 3) return true;
        if (inside != 1) return false;
        const auto drawn = drawn_sides(c, view_);
        const int side = int(std::find(within.begin(), within.end(), true) - within.begin());
        return drawn[side] > PageOnAStack{}.least_drawn_alone;
    }

    // How much of each of the outer quad's side pieces beyond the inner one steps (Stepping): what
    // ObjectsBeside and SidesRunOn read, the one as no side there, the other as the page's side.
    std::array<double, 2> stepped_beyond(const CutAlongASide &cut) const {
        return {stepping(cut.beyond[0][0], cut.beyond[0][1], gx_, gy_, 28).fraction(),
                stepping(cut.beyond[1][0], cut.beyond[1][1], gx_, gy_, 28).fraction()};
    }

    // c, or the page laid on a stack that c is the quad round (PageLaidWithin, or else
    // PageBesideOneStrip), in c's place and with its score.
    Candidate laid_within(const Candidate &c) {
        if (!learned_ || c.on_another || share_of_frame(c.corners) > PageLaidWithin{}.most_frame_covered) return c;
        const Candidate *page = best_lying_within(c, &QuadSearch::lies_laid_within);
        if (page == nullptr) page = best_lying_within(c, &QuadSearch::lies_beside_one_strip);
        if (page == nullptr) return c;
        Candidate laid = *page;
        laid.score = c.score;
        laid.rank = c.rank;
        laid.on_another = true;
        laid.laid_within = true;
        return laid;
    }

    // Of the candidates inside c that `lies` says lie on the stack c is the quad round, the one
    // ranked highest: the network's agreement and the edges' support together (rank()). By the
    // agreement alone (until 0.7.34), a page's quad joined to the sheet below's strip beside it,
    // which the network sees as more page, won over the page's own (agreement 0.75 against 0.51,
    // whose outline lies on edges all round): at .high stacks-1 / 4 0.848 / 0.949 → 0.860 / 0.954
    // (0.847 → 0.965, 0.955 → 0.998), nothing else moved.
    const Candidate *best_lying_within(const Candidate &c, bool (QuadSearch::*lies)(const Corners &, const Corners &)) {
        const PageLaidWithin p;
        const double around = area(c.corners);
        const Candidate *page = nullptr;
        for (const auto &e : candidates_) {
            const double a = area(e.corners);
            if (e.on_image_lines || e.agreement < p.least_agreement || (page != nullptr && e.rank <= page->rank) ||
                a < p.least_share * around || a > p.most_share * around)
                continue;
            // Nearly all of e inside c; measured only for the few the cheap tests above leave.
            if (overlap_area(e.corners, c.corners) >= 0.95 * a && (this->*lies)(e.corners, c.corners)) page = &e;
        }
        return page;
    }

    // Whether the page q lies on a stack whose quad round both sheets is `around` with one side inside
    // it (PageBesideOneStrip).
    bool lies_beside_one_strip(const Corners &q, const Corners &around) {
        const PageLaidWithin laid;
        const PageBesideOneStrip p;
        const auto within = sides_within(q, around, PageOnAStack{}.reach * std::sqrt(area(around)));
        if (std::count(within.begin(), within.end(), true) != 1) return false;
        // The geometry first: the image's steps are searched over a band round each line.
        const auto cut = cut_along_a_side(q, around, p.near * std::sqrt(area(around)));
        if (!cut || std::min(cut->kept[0], cut->kept[1]) < p.least_kept) return false;
        const int k = int(std::find(within.begin(), within.end(), true) - within.begin());
        const cv::Point2d a = q[k], b = q[(k + 1) % 4];
        const double reach = laid.reach * std::max(small_.cols, small_.rows);
        if (best_stepping(a, b, reach) < laid.least_stepping) return false;
        const Corners ends = where_sides_end(q);
        if (stepping_beyond(ends[(k + 1) % 4], ends[k], reach) > p.most_run_on ||
            stepping_beyond(ends[k], ends[(k + 1) % 4], reach) > p.most_run_on)
            return false;
        return plain_paper_share(at_full(cut->strip)) >= p.least_strip_paper && plain_paper_share(at_full(q)) >= laid.least_paper;
    }

    // Whether the page q lies on a stack whose quad round both sheets is `around` (PageLaidWithin):
    // two or three of its sides run inside it and meet at a corner inside it, step all along, and
    // do not run on beyond that corner; and q is mostly plain paper.
    bool lies_laid_within(const Corners &q, const Corners &around) {
        const PageLaidWithin p;
        const double size = std::sqrt(area(around));
        const auto within = sides_within(q, around, PageOnAStack{}.reach * size);
        const auto inside = std::count(within.begin(), within.end(), true);
        if (inside != 2 && inside != 3) return false;
        const double reach = p.reach * std::max(small_.cols, small_.rows);
        // Fitted only once a corner lies inside: most candidates have none.
        std::optional<Corners> ends;
        for (int k = 0; k < 4; ++k) {
            const int before = (k + 3) % 4, after = (k + 1) % 4;
            if (!within[before] || !within[k] || distance_to_sides(q[k], around) < p.least_corner_depth * size) continue;
            if (!ends) ends = where_sides_end(q);
            if (stepping_beyond((*ends)[before], (*ends)[k], reach) > p.most_run_on ||
                stepping_beyond((*ends)[after], (*ends)[k], reach) > p.most_run_on)
                return false;
        }
        if (!ends) return false;  // no inner corner
        for (int k = 0; k < 4; ++k)
            if (within[k] && best_stepping(q[k], q[(k + 1) % 4], reach) < p.least_stepping) return false;
        return plain_paper_share(at_full(q)) >= p.least_paper;
    }

    // How much a → b steps (Stepping) where it steps most, each end moved up to `reach` across it.
    double best_stepping(const cv::Point2d &a, const cv::Point2d &b, double reach) const {
        const cv::Point2d along = b - a;
        const double length = cv::norm(along);
        if (length < 4) return 0;
        const cv::Point2d across(-along.y / length, along.x / length);
        double best = 0;
        for (double from = -reach; from <= reach + 1e-9; from += 1.5)
            for (double to = -reach; to <= reach + 1e-9; to += 1.5)
                best = std::max(best, stepping(a + across * from, b + across * to, gx_, gy_, PageLaidWithin{}.step).fraction());
        return best;
    }

    // Where the sides of q (working pixels) end, for asking what runs on beyond its corners
    // (PageLaidWithin::most_run_on, PageBesideOneStrip::most_run_on): where the option asks
    // (`run_on_from_fitted_corners`, .high), q fitted to the image's edges as a page's quad is
    // reported. The network's quad stops a cell or two short of a corner, and the line beyond it
    // then runs on along the page's own side (stacks-1's `04` at .high, 0.88 beyond its inner corner
    // from the network's quad).
    Corners where_sides_end(const Corners &q) const {
        return o_.run_on_from_fitted_corners ? at_working(refined(at_full(q), true)) : q;
    }

    // How much the line from `from` through `corner` steps beyond the corner (PageLaidWithin).
    double stepping_beyond(const cv::Point2d &from, const cv::Point2d &corner, double reach) const {
        const cv::Point2d along = corner - from;
        return best_stepping(corner + along * 0.02, corner + along * 0.17, reach / 2);
    }

    // c, or a candidate inside it that c only runs on beyond over an object beside the page
    // (ObjectsBeside): the best ranked such, and so on inwards (`most_steps`).
    Candidate within_what_stands_beside(const Candidate &c) const {
        Candidate inner = c;
        for (int step = 0; step < ObjectsBeside{}.most_steps; ++step) {
            const Candidate next = one_within_what_stands_beside(inner, c.rank, step > 0);
            if (next.corners == inner.corners) break;
            inner = next;
        }
        return inner;
    }

    // One step of within_what_stands_beside: the best ranked candidate inside c that c runs on
    // beyond, ranked below the outermost quad's rank by at most what ObjectsBeside allows.
    Candidate one_within_what_stands_beside(const Candidate &c, double outer_rank, bool again) const {
        const ObjectsBeside p;
        const double most_lost =
            o_.lenient_on_unprinted_sheets ? std::max(p.most_rank_lost, p.most_rank_lost_unprinted) : p.most_rank_lost;
        const Candidate *inner = nullptr;
        for (const auto &e : candidates_) {
            if (e.score < o_.min_confidence || e.rank > outer_rank || e.rank < outer_rank - most_lost ||
                e.corners == c.corners)
                continue;
            const double most_paper = again || e.on_image_lines ? p.most_paper_cut_on_lines : p.most_paper;
            // Print is looked for last, on the few quads that would otherwise be taken.
            if ((inner == nullptr || e.rank > inner->rank) && stands_beside(e, c, most_paper) &&
                (e.rank >= outer_rank - p.most_rank_lost || ink_share(e.corners, small_) < p.least_print))
                inner = &e;
        }
        return inner != nullptr ? *inner : c;
    }

    // Whether c runs on beyond inner along one side over something neither paper nor edged
    // (ObjectsBeside).
    bool stands_beside(const Candidate &inner, const Candidate &c, double most_paper) const {
        const ObjectsBeside p;
        const auto cut = cut_along_a_side(inner.corners, c.corners, p.near * std::sqrt(area(c.corners)));
        if (!cut) return false;
        const double deep_end = std::min(cut->kept[0], cut->kept[1]), shallow_end = std::max(cut->kept[0], cut->kept[1]);
        const bool strip = shallow_end <= p.most_kept;
        const bool wedge = shallow_end <= p.most_kept_of_a_whole_side && deep_end <= p.most_kept_at_the_deep_end;
        if (deep_end < p.least_kept || !(strip || wedge)) return false;
        const auto stepped = stepped_beyond(*cut);
        double stepped_length = 0, length = 0;
        for (int i = 0; i < 2; ++i) {
            const double piece = cv::norm(cut->beyond[i][1] - cut->beyond[i][0]);
            stepped_length += stepped[i] * piece;
            length += piece;
        }
        if (stepped_length > p.most_stepping * length) return false;
        return share_as_bright_as(at_full(cut->strip), at_full(inner.corners), full_, p.dim) <= most_paper;
    }

    // c, or the best ranked candidate around it that shares its far side and whose neighbouring
    // sides run on from c's along the image's edges (SidesRunOn), and so on outwards: a picture
    // printed across a page can cut it more than once, each edge across the page a candidate's side.
    Candidate run_on_past_what_cuts_it(Candidate c) const {
        for (int step = 0; step < SidesRunOn{}.most_steps; ++step) {
            const Candidate around = run_on_once(c);
            if (around.corners == c.corners) break;
            c = around;
        }
        return c;
    }

    // One step of run_on_past_what_cuts_it.
    Candidate run_on_once(const Candidate &c) const {
        const SidesRunOn p;
        for (const auto &d : candidates_) {
            if (d.on_image_lines || d.score < p.least_score * o_.min_confidence || d.corners == c.corners) continue;
            const auto cut = cut_along_a_side(c.corners, d.corners, p.near * std::sqrt(area(d.corners)));
            if (!cut || std::min(cut->kept[0], cut->kept[1]) <= 0 || std::max(cut->kept[0], cut->kept[1]) > p.most_kept)
                continue;
            const auto stepped = stepped_beyond(*cut);
            const bool both_step = std::min(stepped[0], stepped[1]) >= p.least_stepping;
            const double least_fainter = std::max(cut->kept[0], cut->kept[1]) <= p.most_kept_for_a_faint_side
                                             ? p.least_faint_stepping
                                             : p.least_fainter_stepping;
            const bool one_steps_cut_evenly = std::max(stepped[0], stepped[1]) >= p.least_stepping &&
                                              std::min(stepped[0], stepped[1]) >= least_fainter &&
                                              std::abs(cut->kept[0] - cut->kept[1]) <= p.most_uneven;
            if (!both_step && !one_steps_cut_evenly) continue;
            Candidate around = c;
            around.corners = d.corners;
            return around;
        }
        return c;
    }

    // Whether d, around c, is the frame's own rectangle rather than a document's outline (FrameAround).
    bool is_frame_around(const Candidate &c, const Candidate &d) const {
        return d.score <= c.score && sides_along_the_border(c.corners) == 0 &&
               sides_along_the_border(d.corners) >= FrameAround{}.least_sides;
    }

    // How many of q's sides (working coordinates) lie along the image's border (FrameAround).
    int sides_along_the_border(const Corners &q) const {
        int sides = 0;
        for (int i = 0; i < 4; ++i) sides += on_border(q[i], q[(i + 1) % 4], small_.size(), FrameAround{}.border);
        return sides;
    }

    // A document's outline, not a figure or photo printed inside it: an enclosing candidate that
    // scores nearly as well (within 0.08) takes c's place, and so on outwards, unless both the
    // network and the edges like it clearly less (liked_less: the card held in a hand with a cable
    // across the photo, network 0.83 and edges 0.74, went to a quad around card, hand and cable,
    // 0.78 and 0.37: JI 0.67 → 1.00; one clip of seed 7 at .low 0.950 → 0.941). So does one the
    // network agrees is a page where it does not agree on c, whatever c's edges: a cable or a pen
    // across a page draws a clear edge through it, and the part on either side has four clear
    // sides (half the table page on the phone photos with a cable across it: edges 0.996,
    // network 0.58; the whole page 0.83). Nor does one the network likes no better and whose
    // outline its map draws clearly less (outlined_less: a page laid on a sheet, whose quad around
    // both the map drew for 0.11 of its length and the page for all of it: JI 0.75 → 0.99), nor the
    // frame's own rectangle round a page wholly in view (is_frame_around, FrameAround).
    Candidate enclosing(Candidate c) const {
        for (bool moved = true; moved;) {
            moved = false;
            for (const auto &d : candidates_) {
                if (d.on_image_lines) continue;
                double a = area(c.corners), b = area(d.corners);
                if (!(b > 1.25 * a && overlap_area(c.corners, d.corners) > 0.97 * a &&
                      ((d.score >= std::max(o_.min_confidence, c.score - 0.08) && !liked_less(c, d)) ||
                       network_prefers(c, d) || outlined_around(c, d))))
                    continue;
                if (lies_on_another(c, d)) {
                    c.on_another = true;
                    continue;
                }
                if (is_frame_around(c, d)) continue;
                if (!outlined_less(c, d)) {
                    c = d;
                    moved = true;
                    break;
                }
            }
        }
        return c;
    }

    const cfocal_image &image_;
    const cfocal_quad_options &o_;
    cfocal_quad_options searched_;  // o_ with the shapes the search weighs (ShapeSelection)
    cv::Mat full_, small_, smooth_, gx_, gy_, strong_edges_;
    Halvings luma_;  // full_'s halvings, shared by small_ and the network's inputs
    double scale_ = 1, shorter_ = 0, min_side_ = 0, min_area_ = 0, bright_reference_ = 0, give_up_ = 0;
    bool learned_ = false;
    PageMaps first_look_;
    PageMaps second_look_;  // look_again()'s maps, at the first look's size
    std::optional<PageMaps> finer_view_;  // blend_finer_view()'s maps, at the first look's size
    std::vector<Corners> outline_quads_;  // outline_candidates()'s quads, scored again by look_again()
    NetworkView view_;
    std::vector<std::pair<Corners, double>> agreed_;  // agreement_with()'s quads so far
    std::vector<Candidate> candidates_;
    std::optional<std::vector<Line>> straight_edges_;  // straight_edges(), once found
    std::optional<cv::Vec3d> frame_white_;              // frame_white_once(), once found
};

}  // namespace

extern "C" {

cfocal_status cfocal_detect_quads(const cfocal_image *image, const cfocal_quad_options *options, cfocal_quad *out,
                                  int32_t capacity, int32_t *count) {
    return guarded("detect rectangles", [&] {
        validate(image, "detect rectangles");
        if (options == nullptr || out == nullptr || count == nullptr)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "detect rectangles: missing argument");
        *count = 0;
        QuadSearch search(*image, *options);
        search.network_candidates();
        search.outline_candidates();
        search.line_candidates();
        search.image_line_candidates();
        search.rank();
        const int limit = std::max(0, std::min(int(capacity), int(options->max_results)));
        std::vector<Candidate> kept = search.choose(limit);
        if ((kept.empty() || search.unsure_of(kept)) && limit > 0 && search.can_look_again()) {
            search.look_again(false);
            // What the second look finds replaces what the first found; where it finds nothing,
            // the first look's quads stand.
            std::vector<Candidate> again = search.choose(limit);
            // Where the first look found nothing at all, the empty-frame look's finds replace the
            // second look's unless that found a page filling the frame (EmptyFrameLook).
            if (kept.empty() && search.has_empty_frame_look() &&
                (again.empty() || !search.fills_the_frame(again.front()))) {
                search.look_again(true);
                again = search.choose(limit);
            }
            // Neither look found anything with their maps combined: the finer look alone may.
            if (again.empty() && kept.empty() && search.second_look_is_finer()) {
                search.look_at_finer_maps_alone();
                again = search.choose(limit);
            }
            if (!again.empty()) kept = std::move(again);
        }
        // A page scanned to fill the image: the frame itself (FrameItself).
        if (limit > 0) {
            if (auto frame = search.frame_itself(kept)) kept = {*frame};
        }
        search.report(kept, out, count);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_detect_quads_textbook(const cfocal_image *image, cfocal_quad *out, int32_t *count) {
    return guarded("detect rectangles (textbook)", [&] {
        validate(image, "detect rectangles");
        *count = 0;
        cv::Mat full = gray_of(*image);
        double scale = 500.0 / std::max(full.cols, full.rows);
        cv::Mat small, edges;
        resize_by(full, small, scale, cv::INTER_AREA);
        cv::GaussianBlur(small, small, cv::Size(5, 5), 0);
        cv::Canny(small, edges, 75, 200);
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(edges, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        std::sort(contours.begin(), contours.end(), [](const auto &a, const auto &b) {
            return cv::contourArea(a) > cv::contourArea(b);
        });
        for (size_t i = 0; i < std::min<size_t>(5, contours.size()); ++i) {
            std::vector<cv::Point> poly;
            cv::approxPolyDP(contours[i], poly, 0.02 * cv::arcLength(contours[i], true), true);
            if (poly.size() != 4) continue;
            Corners q;
            for (int k = 0; k < 4; ++k) q[k] = rescaled(cv::Point2d(poly[k]), scale, 1);
            q = order(q);
            if (!convex(q)) continue;
            write_quad(q, 1.0, *out);
            *count = 1;
            break;
        }
        return CFOCAL_OK;
    });
}
}
