import Foundation
import Synchronization
import Testing

@testable import Focal

@Suite struct ReadAheadSourceTests {
    /// Numbered 8×8 frames (the number in the timestamp), counting how many were asked for, and
    /// failing at `failAt` if given.
    final class CountingSource: FrameSource, @unchecked Sendable {
        let width = 8, height = 8, framesPerSecond = 10.0
        let frameCount: Int?
        let failAt: Int?
        let produced = Atomic<Int>(0)

        init(count: Int, failAt: Int? = nil) {
            frameCount = count
            self.failAt = failAt
        }

        func nextFrame() throws(FocalError) -> Frame? {
            let index = produced.load(ordering: .relaxed)
            if index == failAt {
                throw FocalError(.decodeFailed, operation: "read video", path: "counting.mp4", reason: "damaged")
            }
            guard index < frameCount! else { return nil }
            produced.add(1, ordering: .relaxed)
            var frame = try Frame(width: 8, height: 8, format: .gray8)
            frame.timestamp = Double(index)
            return frame
        }
    }

    @Test func deliversEveryFrameInOrderThenEnds() throws {
        let source = CountingSource(count: 50)
        let ahead = ReadAheadSource(source, frames: 2)
        #expect(ahead.width == 8 && ahead.frameCount == 50 && ahead.framesPerSecond == 10)
        var times: [Double] = []
        while let frame = try ahead.nextFrame() { times.append(frame.timestamp ?? -1) }
        #expect(times == (0..<50).map(Double.init))
        #expect(try ahead.nextFrame() == nil, "stays at the end")
    }

    @Test func rethrowsTheSourcesErrorAfterTheFramesBeforeIt() throws {
        let ahead = ReadAheadSource(CountingSource(count: 50, failAt: 7), frames: 2)
        var count = 0
        #expect(throws: FocalError.self) {
            while try ahead.nextFrame() != nil { count += 1 }
        }
        #expect(count == 7)
    }

    @Test func readsNoFurtherAheadThanAskedAndStopsWhenTold() throws {
        let source = CountingSource(count: 1000)
        let ahead = ReadAheadSource(source, frames: 2)
        // Two frames queued and one in the reading thread's hands, waiting for room.
        let deadline = Date().addingTimeInterval(5)
        while source.produced.load(ordering: .relaxed) < 3, Date() < deadline { usleep(1000) }
        usleep(100_000)
        #expect(source.produced.load(ordering: .relaxed) == 3)
        _ = try ahead.nextFrame()
        ahead.stop()
        let afterStop = source.produced.load(ordering: .relaxed)
        usleep(50_000)
        #expect(source.produced.load(ordering: .relaxed) == afterStop, "the reading thread has let go")
        #expect(afterStop <= 4)
    }
}
