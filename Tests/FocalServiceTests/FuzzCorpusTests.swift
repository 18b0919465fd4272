import Testing

@_spi(Fuzzing) import FocalService

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Replays the fuzz targets' committed corpora (Fuzz/Corpus) through the same entry points, in an
/// ordinary build: every valid seed is accepted, every input named `refuse-*` is refused with a
/// 4xx, and no input at all (crashes libFuzzer found, kept as regressions) is a server fault.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = corpus.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test(arguments: ["request-body", "image-upload", "video-upload", "request-head"])
    func everyCommittedInputIsAcceptedOrRefusedAsTheClientsError(target: String) throws {
        let entry: (UnsafeRawBufferPointer) -> ServiceError? =
            switch target {
            case "request-body": FuzzingEntryPoints.requestBody
            case "image-upload": FuzzingEntryPoints.imageUpload
            case "request-head": FuzzingEntryPoints.requestHead
            default: FuzzingEntryPoints.videoUpload
            }
        let inputs = try Self.inputs(target)
        #expect(inputs.filter { $0.name.hasPrefix("seed-") }.count >= 5, "the seeds of \(target) are missing")
        for input in inputs {
            let refusal = input.bytes.withUnsafeBytes(entry)
            if input.name.hasPrefix("seed-") {
                #expect(refusal == nil, "\(target)/\(input.name) was refused: \(refusal?.reason ?? "")")
            } else if input.name.hasPrefix("refuse-") {
                #expect(refusal.map { (400..<500).contains($0.status) } == true, "\(target)/\(input.name): \(String(describing: refusal))")
            } else {
                #expect((refusal?.status ?? 200) < 500, "\(target)/\(input.name): \(String(describing: refusal))")
            }
        }
    }
}
