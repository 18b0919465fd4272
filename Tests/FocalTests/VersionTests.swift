import Focal
import Foundation
import Testing

@Suite struct VersionTests {
    /// The changelog's newest section is the version the library reports, so that a tag made from
    /// it names what the code says it is.
    @Test func theChangelogsNewestSectionIsTheLibrarysVersion() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.dropFirst(3).split(separator: " ").first.map(String.init) == FocalVersion.string)
        let parts = FocalVersion.string.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "not MAJOR.MINOR.PATCH")
    }
}
