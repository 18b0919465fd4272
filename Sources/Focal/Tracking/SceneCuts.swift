/// Finds the cuts in a stream: the frames where one shot ends and an unrelated one begins, as
/// between the photos of a folder rendered as a sequence or at an edit in a video.
///
/// Tracking and outline steadying assume that each frame continues the one before. Across a cut
/// they would carry one page's track onto another photo's page, and a page seen in one photo
/// alone would never gather the detections a steadied outline asks for. Each frame is shrunk to a
/// small gray thumbnail; a cut is a thumbnail that differs from the previous one on average by
/// more than ``minimumDifference``. A moving camera changes a thumbnail this coarse far less than
/// a new photograph does.
struct SceneCuts: Sendable {
    /// The mean absolute difference of two consecutive thumbnails (0…255 grey levels) from which
    /// the second frame starts a new shot. Raising it takes only starker changes for cuts (two
    /// photos of white pages on one desk may then count as one shot); lowering it may cut a
    /// video where the camera swings fast or the light jumps.
    var minimumDifference = 20.0
    /// The thumbnail's size: coarse enough that motion, noise and compression barely move it.
    static let thumbnailWidth = 32, thumbnailHeight = 18

    private var previous: [UInt8]?

    /// Whether frame starts a new shot (the first frame of a stream does not: it starts the first).
    mutating func isCut(_ frame: Frame) throws(FocalError) -> Bool {
        let thumbnail = try Self.thumbnail(of: frame)
        defer { previous = thumbnail }
        guard let previous, previous.count == thumbnail.count else { return false }
        var total = 0
        for (a, b) in zip(previous, thumbnail) { total += abs(Int(a) - Int(b)) }
        return Double(total) / Double(thumbnail.count) > minimumDifference
    }

    /// The frame's luma, area-averaged to the thumbnail's size, row by row. It is sampled to 5×5
    /// pixels per thumbnail pixel first: averaging a 720p frame's every pixel cost 3 % of an
    /// overlay render at `.low`, and 25 samples smooth motion and noise out as well.
    static func thumbnail(of frame: Frame) throws(FocalError) -> [UInt8] {
        let sampled = try (frame.lumaPlane ?? frame).resized(
            width: 5 * thumbnailWidth, height: 5 * thumbnailHeight, interpolation: .nearest)
        var small = try sampled.resized(width: thumbnailWidth, height: thumbnailHeight)
        if small.format != .gray8 { small = try small.converted(to: .gray8) }
        return small.withUnsafeBytes { bytes in
            (0..<thumbnailHeight).flatMap { row in
                Array(bytes[(row * small.bytesPerRow)..<(row * small.bytesPerRow + thumbnailWidth)])
            }
        }
    }
}
