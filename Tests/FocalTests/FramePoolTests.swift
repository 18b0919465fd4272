import Testing

@testable import Focal

@Suite struct FramePoolTests {
    static func gradient(width: Int = 64, height: Int = 48, format: PixelFormat = .yuv420) throws -> Frame {
        var frame = try Frame(width: width, height: height, format: format, color: Color(white: 0.2))
        try frame.fill([Point(x: 8, y: 8), Point(x: 40, y: 8), Point(x: 40, y: 30), Point(x: 8, y: 30)], color: .red)
        frame.timestamp = 1.5
        return frame
    }

    private static func address(_ frame: Frame) -> UnsafeMutableRawPointer { frame.planes[0].base }

    @Test func copiesArePrivateAndEqual() throws {
        let pool = FramePool(capacity: 2)
        let original = try Self.gradient()
        var copy = pool.writableCopy(of: original)
        #expect(copy == original)
        #expect(Self.address(copy) != Self.address(original))
        try copy.fill(.white)
        #expect(copy != original)
        #expect(original.pixel(x: 20, y: 20) == (try Self.gradient()).pixel(x: 20, y: 20))
    }

    @Test func recycledMemoryIsReusedForTheSameShapeOnly() throws {
        let pool = FramePool(capacity: 2)
        let original = try Self.gradient()
        let first = pool.writableCopy(of: original)
        let memory = Self.address(first)
        pool.recycle(consume first)
        #expect(pool.spareCount == 1)

        let other = pool.writableCopy(of: try Self.gradient(width: 32, height: 32))
        #expect(Self.address(other) != memory, "a 32x32 frame cannot use a 64x48 buffer")
        #expect(pool.spareCount == 1)

        let second = pool.writableCopy(of: original)
        #expect(Self.address(second) == memory)
        #expect(second == original, "the reused buffer holds the new pixels")
        #expect(pool.spareCount == 0)
    }

    @Test func sharedFramesAreNotRecycled() throws {
        let pool = FramePool(capacity: 2)
        let copy = pool.writableCopy(of: try Self.gradient())
        let stillHeld = copy
        pool.recycle(copy)
        #expect(pool.spareCount == 0, "another frame still shares these pixels")
        #expect(stillHeld == (try Self.gradient()))
        pool.recycle(try Self.gradient())
        #expect(pool.spareCount == 1)
    }

    @Test func keepsNoMoreThanItsCapacity() throws {
        let pool = FramePool(capacity: 2)
        let original = try Self.gradient()
        var frames = (0..<4).map { _ in pool.writableCopy(of: original) }
        while let frame = frames.popLast() { pool.recycle(consume frame) }
        #expect(pool.spareCount == 2)
    }

    /// The encoder borrows YUV frames instead of copying them; x264 copies them into its own
    /// buffers and lets go before append returns, so the frame can be recycled at once, and a
    /// frame the writer never released would never come back.
    @Test func framesComeBackFromTheEncoder() throws {
        let folder = TemporaryFolder()
        let writer = try VideoWriter(
            path: folder.file("pool.mp4"), width: 64, height: 48, framesPerSecond: 30, settings: .lowMemory)
        let pool = FramePool(capacity: 4)
        let original = try Self.gradient()
        for _ in 0..<5 {
            let frame = pool.writableCopy(of: original)
            try writer.append(frame)
            pool.recycle(consume frame)
            #expect(pool.spareCount == 1)
        }
        try writer.finish()
    }

    /// A renderer letterboxes into recycled canvases: whatever a canvas held before must be gone,
    /// bars and picture alike, and the result must equal a fresh letterbox.
    @Test(arguments: [PixelFormat.yuv420, .bgr8])
    func letterboxingIntoAReusedCanvasOverwritesIt(format: PixelFormat) throws {
        let source = try Self.gradient(width: 64, height: 48, format: format)  // red box at x 8…40, y 8…30
        var canvas = try Frame(width: 100, height: 100, format: format, color: .white)
        try source.letterbox(into: &canvas)
        #expect(canvas == (try source.letterboxed(width: 100, height: 100)))
        // 64×48 fits as 100×76 (75 rounded to even), centred 12 rows down.
        let black = try Frame(width: 1, height: 1, format: format, color: .black).pixel(x: 0, y: 0)
        let red = try Frame(width: 1, height: 1, format: format, color: .red).pixel(x: 0, y: 0)
        #expect(canvas.pixel(x: 50, y: 4) == black, "bar above")
        #expect(canvas.pixel(x: 50, y: 95) == black, "bar below")
        let inside = canvas.pixel(x: Int(24.0 * 100 / 64), y: 12 + Int(19.0 * 76 / 48))
        #expect(zip(inside, red).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(inside) is the red box")
        #expect(canvas.timestamp == source.timestamp)
    }
}
