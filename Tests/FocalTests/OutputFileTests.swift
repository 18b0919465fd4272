import Focal
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Outputs are written under a temporary name and renamed into place, but only over regular
/// files: `focal detect --json /dev/null`, run as root, once replaced the device with a file.
@Suite struct OutputFileTests {
    @Test func aPipeIsWrittenIntoAndStaysAPipe() throws {
        let folder = TemporaryFolder()
        let path = folder.file("pipe")
        try #require(mkfifo(path, 0o600) == 0)
        // A reader first, so that opening the pipe to write does not wait; the bytes fit its buffer.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try TextOutput.writeAtomically(Array("{\"frames\": []}\n".utf8), to: path)

        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "{\"frames\": []}\n")
        var info = stat()
        try #require(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced by a file")
        #expect(folder.contents == ["pipe"], "a temporary file was left: \(folder.contents)")
    }

    @Test func aSymbolicLinkKeepsPointingAtTheFileItNames() throws {
        let folder = TemporaryFolder()
        let target = folder.file("scan.json"), link = folder.file("latest.json")
        try TextOutput.writeAtomically(Array("old".utf8), to: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try TextOutput.writeAtomically(Array("new".utf8), to: link)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        #expect(folder.contents == ["latest.json", "scan.json"])
    }

    @Test func aRegularFileIsReplacedWhole() throws {
        let folder = TemporaryFolder()
        let path = folder.file("out.json")
        try TextOutput.writeAtomically(Array(repeating: UInt8(ascii: "a"), count: 1000), to: path)
        try TextOutput.writeAtomically(Array("short".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "short")
        #expect(folder.contents == ["out.json"])
    }
}
