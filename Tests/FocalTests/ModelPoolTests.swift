import Foundation
import Testing

@testable import Focal

/// The networks are parsed once and lent out: a service that builds a detector per request must
/// not parse a 4.7 MB text model on each (it did, while the page model was already pooled).
@Suite struct ModelPoolTests {
    @Test func aTextModelGivenBackIsLentAgainNotParsedAgain() throws {
        // A copy of its own, so that the text tests running beside this one borrow from another pool.
        let shipped = try ModelFile.locate(TextModel.fileName, unless: nil, what: "text model", option: "")
        let copy = NSTemporaryDirectory() + "focal-pool-\(UUID().uuidString).onnx"
        try FileManager.default.copyItem(atPath: shipped, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }

        let first = try TextModel.borrow(path: copy)
        let second = try TextModel.borrow(path: copy)
        #expect(first !== second, "one model per detector at a time")
        TextModel.giveBack(first)
        let third = try TextModel.borrow(path: copy)
        #expect(third === first, "the idle model is lent again")

        // A detector gives its model back when it goes.
        TextModel.giveBack(second)
        TextModel.giveBack(third)
        var options = DetectorOptions(accuracy: .high)
        options.text.modelPath = copy
        var detector: Detector? = try Detector(type: .text, options: options)
        let lent = try TextModel.borrow(path: copy)
        #expect(lent === first || lent === second, "the detector holds one of the two, the pool the other")
        detector = nil
        let returned = try TextModel.borrow(path: copy)
        #expect((returned === first || returned === second) && returned !== lent, "the detector's model came back")
        _ = detector
    }
}
