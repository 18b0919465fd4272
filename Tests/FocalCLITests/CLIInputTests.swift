import Focal
import Foundation
import Testing

/// What a user gets for unusual input and options: usage errors that say what to type, messages
/// that name the file, library diagnostics as Focal's own warnings, Ctrl-C honoured, nothing left
/// behind on failure.
@Suite struct CLIInputTests {
    @Test(arguments: [
        (["overlay", "in.png", "-o", "out.png", "--quality", "500"], "--quality"),
        (["overlay", "in.png", "-o", "out.png", "--fps", "inf"], "--fps"),
        (["overlay", "in.png", "-o", "out.png", "--types", ""], "--types"),
        (["overlay", "in.png", "-o", "out.png", "--frames", "-5"], "--frames"),
        (["detect", "in.png", "--types", " , "], "--types"),
        (["detect", "in.png", "--max-features", "-1"], "--max-features"),
        (["scan", "in.png", "--max-documents", "-2"], "--max-documents"),
        (["serve", "--timeout", "-3"], "--timeout"),
    ])
    func optionsOutOfRangeAreUsageErrorsNamingTheOption(arguments: [String], option: String) throws {
        let run = try CLIRun(arguments)
        #expect(run.status == 2, "\(arguments): \(run.error)")
        #expect(run.error.contains(option), "\(run.error)")
        #expect(!run.error.contains("Missing value"), "a negative number is a value, not a missing one: \(run.error)")
    }

    @Test(arguments: ["detect", "overlay", "scan", "sharpest", "capture", "devices", "serve"])
    func helpReadsAsProseWithoutLineContinuationMarks(command: String) throws {
        let help = try CLIRun([command, "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("EXAMPLES") || command == "devices")
        #expect(!help.output.contains("\\"), "a backslash from the source's line continuations: \(help.output)")
    }

    @Test func aQuotedGlobOfImagesIsASequenceNotAMissingFile() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/shots", withIntermediateDirectories: true)
        for index in 1...3 {
            try Frame(width: 96, height: 64, format: .bgr8, color: Color(white: Double(index) / 4)).write(
                to: scratch.path + "/shots/\(index).jpg")
        }
        let run = try CLIRun([
            "overlay", scratch.path + "/shots/*.jpg", "-o", scratch.path + "/shots.mp4", "--fps", "10", "--types", "none",
        ])
        #expect(run.status == 0, "\(run.error)")
        var frames = 0
        let reader = try VideoReader(path: scratch.path + "/shots.mp4")
        while try reader.read() != nil { frames += 1 }
        #expect(frames == 3)
    }

    @Test func libraryDiagnosticsBecomeWarningsNamingTheFile() throws {
        let scratch = Scratch()
        var jpeg = try Frame(width: 320, height: 240, format: .bgr8, color: Color(white: 0.5)).encoded(as: .jpeg, quality: 0.9)
        // Damage the entropy-coded data, keeping the headers and the end-of-image marker.
        for index in (jpeg.count / 2)..<(jpeg.count / 2 + 64) { jpeg[index] = 0xFF }
        let path = scratch.path + "/damaged.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let run = try CLIRun(["detect", path])
        let lines = run.error.split(separator: "\n")
        #expect(!lines.isEmpty, "libjpeg reports the damage")
        for line in lines {
            #expect(line.hasPrefix("focal: warning: '\(path)': libjpeg: "), "raw library output: \(line)")
        }
    }

    @Test func flattenMapsTheGivenCornersToAFlatPage() throws {
        let scratch = Scratch()
        // A white page on a dark table, its corners known.
        var photo = try Frame(width: 640, height: 480, format: .bgr8, color: Color(white: 0.15))
        let corners = Quad(
            topLeft: Point(x: 150, y: 60), topRight: Point(x: 470, y: 80), bottomRight: Point(x: 450, y: 420),
            bottomLeft: Point(x: 130, y: 400))
        try photo.fill(corners.corners, color: .white)
        try photo.write(to: scratch.path + "/photo.png")
        let text = corners.corners.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: ",")
        let run = try CLIRun(["flatten", scratch.path + "/photo.png", "--corners", text, "-o", scratch.path + "/flat.png"])
        #expect(run.status == 0, "\(run.error)")
        let flat = try Frame(contentsOf: scratch.path + "/flat.png").converted(to: .gray8)
        // All page: no dark table left in it, even near the corners.
        for (x, y) in [(3, 3), (flat.width - 4, 3), (flat.width - 4, flat.height - 4), (3, flat.height - 4)] {
            #expect(flat.pixel(x: x, y: y)[0] > 200, "(\(x), \(y)) is \(flat.pixel(x: x, y: y)[0])")
        }
        let bad = try CLIRun(["flatten", scratch.path + "/photo.png", "--corners", "1,2,3", "-o", scratch.path + "/x.png"])
        #expect(bad.status == 2 && bad.error.contains("--corners"))
        let outside = try CLIRun([
            "flatten", scratch.path + "/photo.png", "--corners", "-50,60,470,80,450,420,130,400", "-o", scratch.path + "/x.png",
        ])
        #expect(outside.status == 1 && outside.error.contains("outside") && outside.error.contains("photo.png"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/x.png"))
    }

    /// A portable greymap was taken for a video by `focal overlay` ("the image2 container cannot
    /// hold libx264 video"): every format OpenCV reads is an image to every command.
    @Test func everyImageFormatOpenCVReadsIsAnImage() throws {
        let scratch = Scratch()
        var page = try Frame(width: 320, height: 240, format: .bgr8, color: Color(white: 0.2))
        try page.fill(
            [Point(x: 60, y: 40), Point(x: 260, y: 50), Point(x: 250, y: 200), Point(x: 70, y: 190)], color: .white)
        for name in ["frame.pgm", "frame.ppm", "frame.pnm", "frame.jp2", "frame.ras", "frame.hdr"] {
            let path = scratch.path + "/" + name
            try (name.hasSuffix(".pgm") ? try page.converted(to: .gray8) : page).write(to: path)
            let read = try Frame(contentsOf: path)
            #expect(read.width == 320 && read.height == 240, "\(name)")
            let overlay = try CLIRun(["overlay", path, "-o", scratch.path + "/out-\(name).png", "--types", "rectangle"])
            #expect(overlay.status == 0, "overlay \(name): \(overlay.error)")
            let detect = try CLIRun(["detect", path, "--json", "-"])
            #expect(detect.status == 0 && detect.output.contains("\"width\":320"), "detect \(name): \(detect.error)")
        }
        // A folder of greymaps is a sequence of images.
        try FileManager.default.createDirectory(atPath: scratch.path + "/shots", withIntermediateDirectories: true)
        for index in 1...3 { try page.converted(to: .gray8).write(to: scratch.path + "/shots/shot\(index).pgm") }
        let sequence = try CLIRun(["overlay", scratch.path + "/shots", "-o", scratch.path + "/shots.mp4", "--fps", "2"])
        #expect(sequence.status == 0, "\(sequence.error)")
        // OpenEXR is read only: writing one says so.
        #expect(throws: FocalError.self) { try page.write(to: scratch.path + "/frame.exr") }
    }

    /// A folder was opened as a video ("Cannot open video 'shots': Is a directory."); a quoted glob
    /// was one missing image. Both are usage errors that say which commands read many photos.
    @Test func detectOnAFolderOrAGlobSaysWhatReadsMany() throws {
        let scratch = Scratch()
        let shots = scratch.path + "/shots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        try Frame(width: 96, height: 64, format: .bgr8, color: Color(white: 0.5)).write(to: shots + "/1.jpg")
        for (input, what) in [(shots, "is a folder"), (shots + "/*.jpg", "is a pattern")] {
            let run = try CLIRun(["detect", input])
            #expect(run.status == 2, "\(input): \(run.status) \(run.error)")
            #expect(run.error.contains("'\(input)' \(what)"), "\(run.error)")
            #expect(run.error.contains("focal scan '\(input)' --out"), "\(run.error)")
        }
        let one = try CLIRun(["detect", shots + "/1.jpg"])
        #expect(one.status == 0, "\(one.error)")
    }

    /// A text file was "Cannot open video 'notes.txt': open video 'notes.txt': Invalid data…": the
    /// name twice, and a video assumed.
    @Test func aFileThatIsNeitherVideoNorImageIsNamedOnceAndSaysSo() throws {
        let scratch = Scratch()
        let notes = scratch.path + "/notes.txt"
        try Data("groceries: milk, bread\n".utf8).write(to: URL(fileURLWithPath: notes))
        for command in [["scan", notes, "--out", scratch.path + "/scans"], ["detect", notes], ["overlay", notes, "-o", scratch.path + "/o.mp4"]] {
            let run = try CLIRun(command)
            #expect(run.status == 1, "\(command[0]): \(run.status)")
            #expect(run.error.contains("Cannot read '\(notes)': it is neither a video nor an image"), "\(command[0]): \(run.error)")
            #expect(run.error.components(separatedBy: "notes.txt").count == 2, "the name once: \(run.error)")
        }
    }

    /// A symbolic link that leads to no file yet was replaced by a regular file; now the file it
    /// names is written, and a link into a missing folder is refused, naming the link.
    @Test func flattenWritesThroughALinkThatLeadsNowhereYet() throws {
        let scratch = Scratch()
        let photo = scratch.path + "/photo.png"
        try Frame(width: 200, height: 160, format: .bgr8, color: Color(white: 0.8)).write(to: photo)
        let corners = "10,10,190,10,190,150,10,150"
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/latest.jpg", withDestinationPath: "scans-1.jpg")
        let run = try CLIRun(["flatten", photo, "--corners", corners, "-o", scratch.path + "/latest.jpg"])
        #expect(run.status == 0, "\(run.error)")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path + "/latest.jpg")
        #expect(link == "scans-1.jpg", "the link stays a link")
        #expect(try Frame(contentsOf: scratch.path + "/scans-1.jpg").width == 180)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/gone.jpg", withDestinationPath: "/nonexistent-focal/x.jpg")
        let refused = try CLIRun(["flatten", photo, "--corners", corners, "-o", scratch.path + "/gone.jpg"])
        #expect(refused.status == 1 && refused.error.contains("gone.jpg") && refused.error.contains("does not exist"), "\(refused.error)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: scratch.path + "/gone.jpg")) != nil)
    }

    /// `focal scan --out` on a file or where no folder can be made printed an NSError dump.
    @Test func aScanFolderThatCannotBeMadeIsASentence() throws {
        let scratch = Scratch()
        let photo = scratch.path + "/photo.png"
        try Frame(width: 200, height: 160, format: .bgr8, color: Color(white: 0.8)).write(to: photo)
        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path + "/file"))
        for (out, says) in [
            (scratch.path + "/file", "is a file, not a folder"), (scratch.path + "/file/sub", "is a file, not a folder"),
            ("/proc/focal-scans", "cannot be made there"),
        ] {
            let run = try CLIRun(["scan", photo, "--out", out])
            #expect(run.status == 1, "\(out): \(run.status)")
            #expect(run.error.contains(says) && !run.error.contains("Domain="), "\(out): \(run.error)")
        }
    }

    @Test func sharpnessErrorsNameTheFile() throws {
        let scratch = Scratch()
        let path = scratch.path + "/tiny.png"
        try Frame(width: 2, height: 2, format: .gray8, color: Color(white: 0.5)).write(to: path)
        let run = try CLIRun(["sharpest", path])
        #expect(run.status == 1)
        #expect(run.error.contains("'\(path)'"), "\(run.error)")
    }

    @Test func aFailedScanLeavesNoFolder() throws {
        let scratch = Scratch()
        let input = scratch.path + "/not-a-video.mp4"
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: input))
        let run = try CLIRun(["scan", input, "--out", scratch.path + "/scans"])
        #expect(run.status == 1)
        #expect(run.error.contains(input), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/scans"))
    }

    @Test func interruptingAnImageOverlayWritesNothing() throws {
        let scratch = Scratch()
        // Large enough that the four detectors take seconds in any build (at 4000 × 3000, a debug
        // build on a fast machine finished in about 1.6 s, just after the interrupt).
        let input = scratch.path + "/large.png"
        var frame = try Frame(width: 8000, height: 6000, format: .bgr8, color: Color(white: 0.8))
        for index in 0..<80 {
            try frame.text(
                "line \(index) of a page", at: Point(x: 400, y: Double(200 + index * 70)), size: 40, color: .black, weight: 2)
        }
        try frame.write(to: input)
        let run = try CLIRun.interrupted(
            ["overlay", input, "-o", scratch.path + "/out.png", "--types", "rectangle,text,face,qr"], after: 1.5)
        #expect(run.wasRunning, "the overlay should still be detecting")
        #expect(run.status == 130, "\(run.error)")
        #expect(run.error.contains("interrupted"))
        #expect(scratch.contents == ["large.png"], "no output and no temporary file: \(scratch.contents)")
    }
}
