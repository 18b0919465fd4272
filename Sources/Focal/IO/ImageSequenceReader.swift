#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Frames from still images: every image in a folder, or the files a glob pattern names, in
/// natural order (frame2 before frame10). Every frame takes the first image's size: images of
/// another size are fitted into it (letterboxed).
public final class ImageSequenceReader: FrameSource {
    /// The images, in natural order (`frame2` before `frame10`).
    public let paths: [String]
    /// The first image's width; later images are letterboxed to it.
    public let width: Int
    /// The first image's height.
    public let height: Int
    /// The rate given to the frames.
    public let framesPerSecond: Double
    public var frameCount: Int? { paths.count }
    private var index = 0
    private var first: Frame?

    /// - Parameters:
    ///   - pattern: a folder, or a glob such as `shots/*.jpg`.
    ///   - framesPerSecond: the rate to give the frames.
    public init(pattern: String, framesPerSecond: Double = 30) throws(FocalError) {
        self.framesPerSecond = framesPerSecond
        paths = try Self.imagePaths(matching: pattern)
        let firstFrame = try Frame(contentsOf: paths[0]).oriented()
        first = firstFrame
        width = firstFrame.width
        height = firstFrame.height
    }

    /// Whether `path` names a sequence rather than one file: a folder, or a glob (`*`, `?`), even
    /// one that names an image extension (`shots/*.jpg`).
    public static func namesSequence(_ path: String) -> Bool {
        path.contains("*") || path.contains("?") || namesFolder(path)
    }

    /// Whether `path` is a folder (or a link to one): of the sequences ``namesSequence(_:)`` names,
    /// the one read as every image it holds rather than as a pattern.
    public static func namesFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The images a folder holds, or a glob such as `shots/*.jpg` matches, in natural order
    /// (`frame2` before `frame10`); hidden files and files of no ``ImageFormat`` are left out.
    ///
    /// - Throws: `.fileNotFound` when there is none.
    public static func imagePaths(matching pattern: String) throws(FocalError) -> [String] {
        var found: [String] = []
        if namesFolder(pattern) {
            if let folder = opendir(pattern) {
                while let entry = readdir(folder) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if !name.hasPrefix("."), ImageFormat(path: name) != nil { found.append(pattern + "/" + name) }
                }
                closedir(folder)
            }
        } else {
            var matches = glob_t()
            defer { globfree(&matches) }
            if glob(pattern, 0, nil, &matches) == 0 {
                for i in 0..<Int(matches.gl_pathc) {
                    if let path = matches.gl_pathv[i], ImageFormat(path: String(cString: path)) != nil {
                        found.append(String(cString: path))
                    }
                }
            }
        }
        guard !found.isEmpty else {
            throw FocalError(
                .fileNotFound, operation: "read image sequence", path: pattern,
                reason: "no images match (\(ImageFormat.extensionsInWords))")
        }
        return found.sorted { $0.localizedNaturalLess(than: $1) }
    }

    public func nextFrame() throws(FocalError) -> Frame? {
        guard index < paths.count else { return nil }
        defer { index += 1 }
        var frame: Frame
        if index == 0, let first {
            frame = first
            self.first = nil
        } else {
            frame = try Frame(contentsOf: paths[index]).oriented()
            if frame.width != width || frame.height != height { frame = try frame.letterboxed(width: width, height: height) }
        }
        frame.timestamp = Double(index) / framesPerSecond
        return frame
    }
}

extension String {
    /// Compares with runs of digits as numbers: "frame2" before "frame10".
    func localizedNaturalLess(than other: String) -> Bool {
        var a = Substring(self), b = Substring(other)
        while let x = a.first, let y = b.first {
            if x.isNumber && y.isNumber {
                let da = a.prefix { $0.isNumber }, db = b.prefix { $0.isNumber }
                if let na = Int(da), let nb = Int(db), na != nb { return na < nb }
                a = a.dropFirst(da.count)
                b = b.dropFirst(db.count)
            } else {
                if x != y { return x < y }
                a = a.dropFirst()
                b = b.dropFirst()
            }
        }
        return a.count < b.count
    }
}
