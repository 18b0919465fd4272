import Focal
import Foundation
import Testing

/// Each kind of bad input gives its own error naming the file and the reason, and never a crash.
@Suite struct ErrorTests {
    func expectError(
        _ kind: FocalError.Kind, path: String?, _ body: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("expected \(kind), got success", sourceLocation: sourceLocation)
        } catch let error as FocalError {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            if let path {
                #expect(error.path == path, sourceLocation: sourceLocation)
                #expect(error.description.contains(path), "the message names the file: \(error)", sourceLocation: sourceLocation)
            }
            #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected FocalError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func missingImage() {
        let path = "/nonexistent/focal/photo.jpg"
        expectError(.fileNotFound, path: path) { _ = try Frame(contentsOf: path) }
    }

    @Test func folderInsteadOfImage() {
        let folder = TemporaryFolder()
        expectError(.notAFile, path: folder.path) { _ = try Frame(contentsOf: folder.path) }
    }

    @Test func unreadableImage() throws {
        let folder = TemporaryFolder()
        let path = folder.file("secret.png")
        try SyntheticTestScenes.smoothScene().write(to: path)
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        if geteuid() == 0 {
            // root reads anything; a FIFO with no writer stands in as a file that cannot be read.
            let fifo = folder.file("pipe.png")
            mkfifo(fifo, 0o600)
            expectError(.notAFile, path: fifo) { _ = try Frame(contentsOf: fifo) }
        } else {
            expectError(.permissionDenied, path: path) { _ = try Frame(contentsOf: path) }
        }
    }

    @Test func corruptImageBytes() throws {
        let folder = TemporaryFolder()
        let path = folder.file("corrupt.jpg")
        try Data("this is not a JPEG at all, just text".utf8).write(to: URL(fileURLWithPath: path))
        expectError(.decodeFailed, path: path) { _ = try Frame(contentsOf: path) }
        // A real JPEG cut to its first bytes.
        let jpeg = try SyntheticTestScenes.smoothScene().encoded(as: .jpeg)
        let truncated = folder.file("truncated.jpg")
        try Data(jpeg.prefix(40)).write(to: URL(fileURLWithPath: truncated))
        expectError(.decodeFailed, path: truncated) { _ = try Frame(contentsOf: truncated) }
    }

    @Test func zeroSizeImage() throws {
        let folder = TemporaryFolder()
        let path = folder.file("empty.png")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        expectError(.emptyInput, path: path) { _ = try Frame(contentsOf: path) }
        expectError(.emptyInput, path: nil) { _ = try Frame(decoding: []) }
    }

    @Test func unknownImageExtension() throws {
        let folder = TemporaryFolder()
        let path = folder.file("picture.xyz")
        expectError(.unsupportedFormat, path: path) { try SyntheticTestScenes.smoothScene().write(to: path) }
        #expect(folder.contents.isEmpty)
    }

    @Test func imageIntoMissingFolder() throws {
        let path = TemporaryFolder().file("no/such/folder/out.png")
        expectError(.directoryNotFound, path: path) { try SyntheticTestScenes.smoothScene().write(to: path) }
    }

    @Test func videoErrors() throws {
        let folder = TemporaryFolder()
        expectError(.fileNotFound, path: folder.file("missing.mp4")) { _ = try VideoReader(path: folder.file("missing.mp4")) }
        let text = folder.file("notes.mp4")
        try Data(String(repeating: "not a video ", count: 200).utf8).write(to: URL(fileURLWithPath: text))
        expectError(.decodeFailed, path: text) { _ = try VideoReader(path: text) }
        let image = folder.file("still.png")
        try SyntheticTestScenes.smoothScene().write(to: image)
        // An image is a one-frame "video" to FFmpeg; it must open and give exactly one frame, not crash.
        let reader = try VideoReader(path: image)
        #expect(try reader.read() != nil)
        #expect(try reader.read() == nil)
    }

    @Test func videoIntoMissingFolderOrUnknownContainer() {
        let folder = TemporaryFolder()
        let missing = folder.file("nope/out.mp4")
        expectError(.directoryNotFound, path: missing) {
            _ = try VideoWriter(path: missing, width: 64, height: 48, framesPerSecond: 30)
        }
        let unknown = folder.file("out.notavideo")
        expectError(.unsupportedFormat, path: unknown) {
            _ = try VideoWriter(path: unknown, width: 64, height: 48, framesPerSecond: 30)
        }
        #expect(folder.contents.isEmpty)
    }

    @Test func unsupportedCodec() {
        let folder = TemporaryFolder()
        let path = folder.file("out.webm")  // WebM holds VP8/VP9/AV1 only
        expectError(.unsupportedCodec, path: path) {
            _ = try VideoWriter(path: path, width: 64, height: 48, framesPerSecond: 30, settings: .init(codec: .h264))
        }
        #expect(folder.contents.isEmpty, "no file left: \(folder.contents)")
    }

    @Test func oddSizeForH264IsAnArgumentError() {
        let folder = TemporaryFolder()
        expectError(.invalidArgument, path: folder.file("odd.mp4")) {
            _ = try VideoWriter(path: folder.file("odd.mp4"), width: 65, height: 48, framesPerSecond: 30)
        }
    }

    @Test func messagesReadAsSentences() {
        let error = FocalError(.fileNotFound, operation: "read image", path: "/tmp/a.png", reason: "no such file")
        #expect(error.description == "Cannot read image '/tmp/a.png': no such file.")
        #expect(error.localizedDescription == error.description)
    }
}
