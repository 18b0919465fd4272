import CFocal

/// What ``DetectorOptions/Accuracy`` means to every detector, in one table: the document search's
/// working size and page network, whether faces get their eyes and mouth, and which engine finds
/// text. The shim is told each of these, and derives none of them from another.
struct AccuracyProfile: Sendable {
    /// Long side of the image candidates are found on, in pixels.
    var workingSize: Int
    /// The page network's file (a resource of the library; ``ModelFile`` says where else it is
    /// looked for): one network at both accuracies since 0.7.68, `page-detector.onnx`: until 0.7.67
    /// `page-detector-high.onnx`, `.high`'s alone, while `.low` ran a network of the same layers
    /// trained on the recipe's 16 000 scenes only. `.high`'s was trained on more than twice the
    /// scenes, stacked sheets, objects standing on pages and pictures printed to their edges among
    /// them, its first encoder blocks cut to half their channels, then fine-tuned on the hard kinds,
    /// stacks' lower sheets as paper, white sheets under standing objects, scans and white-framed
    /// windows (`Models/page-detector/MODEL_CARD.md`). Tried at `.low`'s 96 in 0.7.26, before the
    /// cut and the fine-tunes, it lost the real phone photos (0.978 → 0.965); 0.7.65's network at
    /// 96 keeps them (0.973, 0.978 with the two rules below it brought to `.low`), raises `.low`'s
    /// development mean 0.903 → 0.927 and the held-apart one 0.879 → 0.926, and costs no more time
    /// (its cut blocks are cheaper than the old network's).
    var pageModelFile: String
    /// The page network's input along its shorter side (a multiple of 32). The network
    /// (EfficientNet-Lite0's first stages under a small decoder) was trained at 96 to 192. At
    /// `.high`, 160 rather than 128: a card held up in a portrait phone photo is a few dozen
    /// network pixels at 128 and was cut at the thumb (the eleven phone photos 0.992 at 160,
    /// 0.958 at 128), for 4 ms more a 720p frame. At `.low`, 96: the phone photos 0.983 against
    /// 0.932 at 128 (the same held card); the evaluation clips at seeds 13 / 7 0.966 / 0.938
    /// against 0.977 / 0.918; half the network's cost (`Models/page-detector/MODEL_CARD.md`; measured
    /// with `.low`'s own network, before 0.7.68).
    var pageModelInput: Int
    /// How the page network sees the frame: once, at about the frame's own proportions (160 × 288
    /// for 16:9 at `.high`, 96 × 160 at `.low`): squeezed to a square, a portrait photo's page or
    /// a small card in a wide frame is a strip a few cells across. The network before this one
    /// also looked at squares along the frame at `.high` (four passes for 16:9, 22 fps); this one,
    /// pretrained on photographs, sees as well in one pass.
    var pageModelView: cfocal_page_view
    /// The network's input for a second look at a frame in which the first found no document,
    /// its maps added to the first's (nil: none). At `.high`, 96: at 160 the network sometimes
    /// draws a page's outline and leaves its region dark (a motion-blurred page on a rough facade),
    /// which at 96 it fills (stills of the evaluation clips, seeds 7 and 5: 0.956 → 0.983 and
    /// 0.890 → 0.974; clips of seed 7 0.976 → 0.987, facades 0.984 → 0.992). At `.low`, 160, the
    /// network as `.high` sees the frame: a card held in a hand with a cable or pens across it,
    /// which `.low`'s 96 likes just below the minimum confidence, is found (the phone photos with a
    /// cable laid across 0.877 → 0.968, among clutter 0.854 → 0.938); 128 did as well as 160 on the
    /// facades it was chosen on (clips of seed 9 0.952 → 0.980 either way). It costs a second
    /// network pass (about 3 ms at 96, 8 at 160, a 720p frame) on each frame in which nothing was
    /// found, or only a quad the network agrees with weakly, and the first look drew something
    /// page-like (`SecondLookGate` in the shim); none on the sample clip's frames with its page;
    /// no empty frame of the evaluation clips gained a page. Where the second look is the finer one
    /// (`.low`) and nothing was found with the two looks' maps combined, its maps alone are searched
    /// once more: a small print before a dark coat, which 96 smears into the coat (the evaluation
    /// clips of seed 7 at `.low`, 0.938 → 0.959). Where the first look found nothing at all,
    /// `emptyFrameLookPageModelInput` may look once more after it.
    var secondLookPageModelInput: Int?
    /// The network's input for a third look at a frame in which the first found nothing at all and
    /// the second found nothing covering most of the frame (`EmptyFrameLook` in the shim); what it
    /// finds, or nothing, replaces the second look's (nil: no such look). At `.high`, 192: at 96 the
    /// coarse maps, added to the first look's, filled a window's panes or a framed picture as a
    /// page, and the page was reported (11 false pages on the 264 frames of the development
    /// page-like sets, 6 on the 144 held apart); at 192 the network sees the frame and mullions, and
    /// 3 and 1 remain (0.7.43). A receipt scanned to fill the image, which the first look passes
    /// over, 96 finds whole and 192 does not: 0.7.41 took the look at 192 in place of 96's and lost
    /// 10 of the 58 real receipts (dev-sets.py's receipts); 96's quad covering most of the frame
    /// stands. No development still set moved; the evaluation clips of seed 7 gained (0.979 → 0.984),
    /// the facades too (0.984 → 0.988). 128 left 8 false pages, 224 4 and 256 9. No look there at
    /// all left the same false pages but lost a grey camera frame's sheet (the development set grey
    /// 0.968 → 0.898) and the clips' gains. The pass at 192 costs about 1.8 times the first look's,
    /// after 96's 0.4, on frames with no page that the first look drew something page-like in: on
    /// 51 such frames of the page-like sets, 2.1–2.8 s → 4.0–4.3 s; none on the sample clip's. At
    /// `.low`, a look at 224 on its network added two false pages: none there.
    var emptyFrameLookPageModelInput: Int?
    /// The network's input for a finer view of a still image, blended into the first look's maps
    /// before any candidate is found (nil: none). At `.high`, 224: at 160 the network paints a page
    /// and the sheet of a stack it lies on as one page, and takes the body of an object standing on
    /// a white sheet into it; at 224 it parts them, but takes a picture printed on a page for a page
    /// of its own (224 alone: the development mean 0.944 → 0.932). Blended at 0.3 (`FinerView` in
    /// the shim), the development sets 0.953 → 0.959, the held-apart ones 0.938 → 0.945, and every
    /// still of `StandingObjectTests` found at `.high`. Only a
    /// detector without ``DetectorOptions/tracking`` takes it, and only on a still whose first look
    /// leaves its likeliest quad in doubt (`FinerViewGate` in the shim: the network agrees with it
    /// less than clearly, or its outline misses the image's edges): a page on a desk with its four
    /// sides in sight costs one network pass (the sample clip's frames 14.6 → 7.7 ms), a doubted
    /// still two as before, and its first quads found twice (1–3 ms more); a stream's searches
    /// keep the one pass. At `.low`, 160 since 0.7.68, on the one network (`.high`'s first look):
    /// `.low`'s development sets 0.9333 → 0.9402, the held-apart ones 0.9257 → 0.9387, false pages
    /// 16 → 10 and 6 → 5 (standing objects up to +0.05 a set, pictures-1 0.896 → 0.963), with
    /// ``sparesFilledFramesTheFinerView``; 128 gave 0.9339 and 0.9385 without it.
    var finerViewPageModelInput: Int?
    /// Whether a still whose first look paints most of the frame page skips the finer view
    /// (`FinerViewGate::most_page_painted` in the shim): a card's back scanned to its edges, whose
    /// stripe and barcode `.low`'s finer view draws as not page. At `.low` only: there it kept the
    /// scans as they were (without it scans-phone-1 / 3 0.895 / 0.974 → 0.808 / 0.831, two cards not
    /// found), while at `.high` it lost more than it gained (development 0.9642 → 0.9636).
    var sparesFilledFramesTheFinerView: Bool
    /// When quads on the straight stretches of the network's outline map are candidates too (about
    /// 1 ms a frame; mends page regions that leak into a pale desk or a shadow, or stop at a cable
    /// or an object standing on the page). At `.low`, only where the region's likeliest quad is not
    /// outlined all round: most frames with a page skip the cost, and the laid cable over the phone
    /// photos gained 0.838 → 0.877, standing objects 0.787 → 0.821 (always: the sample clip 5.3 →
    /// 7.0 ms a frame, and no more gained).
    var outlineLines: cfocal_outline_lines
    /// Whether a strip of sheet below a page is also cut off where the image's edges show the
    /// page's side clearly and the network's maps only faintly (`SheetBelow` in the shim). At
    /// `.high` only: it searches the image's lines (about 0.7 ms) on the frames whose page has an
    /// outline drawn inside it, a third of the sample clip's, which at `.low` cost 5 % of its speed.
    var cutsSheetsOnClearEdges: Bool
    /// Whether quads joined from the image's own straight edges compete with the network's where
    /// its likeliest quad does not lie on the image's edges all round (`ImageLines` in the shim): an
    /// object standing on a sheet, which the network takes for page. At `.high` standing objects
    /// gained up to 0.02 a set. At `.low` since 0.7.68: with `.low`'s own network the development
    /// mean fell 0.914 → 0.911 with six more false pages; with the one network it rose 0.927 →
    /// 0.933 with no more false pages (the blank sheets 0.011 to 0.023 a set, stacks-10 0.814 →
    /// 0.847, a scan filling a phone photo found; the most lost, standing-9 0.855 → 0.848). A page
    /// whose quad lies on edges (every frame of the sample clip) skips the search.
    var joinsImageLinesWhereUnedged: Bool
    /// Whether, on a sheet with no print, a quad within the network's that an object standing beside
    /// the sheet runs it on past may rank lower than on a printed page and still be taken
    /// (`ObjectsBeside` in the shim): a blank sheet gives the network nothing to tell it from the
    /// objects standing on it. At `.high` only: blank sheets gained up to 0.022 a set there (seeds 4,
    /// 8, 9), while at `.low`, whose working image is half as large, one was lost (0.936 → 0.932).
    var isLenientOnUnprintedSheets: Bool
    /// Whether the whole frame is reported in place of the quad kept where the network agrees with
    /// the frame clearly more (`FrameItself` in the shim): a page scanned to fill the image shows no
    /// side, and the network's quad on it is a part. At `.high` pages cropped as scans (`dev-sets.py`
    /// scans-phone-2) gained 0.744 → 0.890. At `.low` since 0.7.68: its own network at 96 saw a
    /// white desk round a page as page too, and a page on a white desk was lost to the frame (fill-4
    /// 0.965 → 0.955, stacks-7 0.815 → 0.780); with the one network no development page was, and
    /// the scans gained (scans-phone-2 / 3 0.978 / 0.970 → 0.990 / 0.974, the cropped receipts 0.983
    /// → 0.989), while held apart a page laid on a sheet that fills the frame went to the frame
    /// (stacks-3's `09`, 0.959 → 0.616). Where nothing is kept, both accuracies weigh the frame.
    var takesTheFrameOverDoubtedQuads: Bool
    /// Whether a network quad too little paper to be a page, counted on the shim's 7 × 7 grid, has
    /// its paper counted again on a 15 × 15 grid (`PictureOnPaper` in the shim): a page mostly
    /// photograph, with thin margins, falls between the grid's points. At `.high` only: the
    /// held-apart pictures-4's low-contrast page was found (0.884 → 0.966 the set, every page found;
    /// the one loss pictures-2, 0.980 → 0.976), while at `.low`, whose network proposes more windows
    /// and framed pictures, four windows more were taken for pages on the page-like frames and no
    /// page was gained.
    var recountsPicturePages: Bool
    /// Whether a page laid on a stack is asked whether its sides run on beyond its corners from its
    /// quad fitted to the image's edges rather than from the network's (`PageLaidWithin` in the
    /// shim): the network's quad stops a cell or two short of a corner, and the line beyond it runs
    /// on along the page's own side. At `.high` only: stacks-1 0.898 → 0.954 (a page 0.588 → 0.968)
    /// and, held apart, stacks-3 0.860 → 0.863, nothing else moved; at `.low`, whose network sees
    /// the frame at 96, a part of a bowed page held in a hand was taken for a page laid on a stack
    /// (held-apart bowed-13, 0.974 → 0.950) and stacks-7 lost 0.013.
    var asksRunOnFromFittedCorners: Bool
    /// Straight edges tried for quads when nothing else convinced: more at a larger working size,
    /// where a page's sides break into more pieces.
    var straightEdgeCount: Int
    /// Whether each face found is searched again for its eyes and mouth (two more cascades on
    /// the face's upper and lower part, about a third more time).
    var findsFaceLandmarks: Bool
    /// Whether text is found by PP-OCRv4's network (`ppocr-v4-det.onnx`, 0.2–0.7 s a frame) rather
    /// than the classical engine (about 12 ms a 720p frame in a stream).
    var usesTextNetwork: Bool

    static func of(_ accuracy: DetectorOptions.Accuracy) -> AccuracyProfile {
        switch accuracy {
        case .low:
            AccuracyProfile(
                workingSize: 320, pageModelFile: "page-detector.onnx", pageModelInput: 96,
                pageModelView: CFOCAL_PAGE_VIEW_PROPORTIONAL,
                secondLookPageModelInput: 160, emptyFrameLookPageModelInput: nil, finerViewPageModelInput: 160,
                sparesFilledFramesTheFinerView: true,
                outlineLines: CFOCAL_OUTLINE_LINES_WHERE_UNDRAWN,
                cutsSheetsOnClearEdges: false, joinsImageLinesWhereUnedged: true, isLenientOnUnprintedSheets: false,
                takesTheFrameOverDoubtedQuads: true, recountsPicturePages: false, asksRunOnFromFittedCorners: false,
                straightEdgeCount: 10,
                findsFaceLandmarks: false, usesTextNetwork: false)
        case .high:
            AccuracyProfile(
                workingSize: 640, pageModelFile: "page-detector.onnx", pageModelInput: 160,
                pageModelView: CFOCAL_PAGE_VIEW_PROPORTIONAL,
                secondLookPageModelInput: 96, emptyFrameLookPageModelInput: 192, finerViewPageModelInput: 224,
                sparesFilledFramesTheFinerView: false,
                outlineLines: CFOCAL_OUTLINE_LINES_ALWAYS,
                cutsSheetsOnClearEdges: true, joinsImageLinesWhereUnedged: true, isLenientOnUnprintedSheets: true,
                takesTheFrameOverDoubtedQuads: true, recountsPicturePages: true, asksRunOnFromFittedCorners: true,
                straightEdgeCount: 14,
                findsFaceLandmarks: true,
                usesTextNetwork: true)
        }
    }
}
