import Focal
import Testing

@testable import FocalService

/// A worker keeps its detectors between jobs: a second request with the same type and options
/// gets the same detector, with its models already loaded.
@Suite struct WorkerDetectorTests {
    @Test func aWorkerReusesItsDetectorsAndOnlyItsUntrackedOnes() async throws {
        let pool = WorkerPool(workers: 1, queueDepth: 4)
        let options = DetectorOptions(accuracy: .low)
        let first = try await pool.run(timeout: 30) { () throws -> ObjectIdentifier in
            ObjectIdentifier(try WorkerDetectors.detector(.rectangle, options: options))
        }
        let second = try await pool.run(timeout: 30) { () throws -> ObjectIdentifier in
            ObjectIdentifier(try WorkerDetectors.detector(.rectangle, options: options))
        }
        #expect(first == second, "the same detector for the same options")
        let other = try await pool.run(timeout: 30) { () throws -> ObjectIdentifier in
            ObjectIdentifier(try WorkerDetectors.detector(.rectangle, options: DetectorOptions(accuracy: .high)))
        }
        #expect(other != first, "another detector for other options")
        let tracking = DetectorOptions(accuracy: .low, tracking: true)
        let tracked = try await pool.run(timeout: 30) { () throws -> [ObjectIdentifier] in
            // Both alive at once: a freed detector's address may be the next one's.
            let detectors = try (0..<2).map { _ in try WorkerDetectors.detector(.rectangle, options: tracking) }
            return detectors.map(ObjectIdentifier.init)
        }
        #expect(tracked[0] != tracked[1], "a tracking detector carries a stream's state and is never shared")
        #expect(WorkerDetectors.current == nil, "off the workers, nothing is kept")
    }
}
