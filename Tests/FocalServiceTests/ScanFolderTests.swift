import Foundation
import Testing

@testable import FocalService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--scan-dir`: replicas that share a folder serve each other's scans, scans outlive a restart,
/// and only ids the server made are ever opened.
@Suite struct ScanFolderTests {
    static func folder() -> String {
        let path = NSTemporaryDirectory() + "focal-scans-" + UUID().uuidString
        return path
    }

    @Test func replicasSharingAFolderServeEachOthersScans() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await LiveServer { try! $0.useScanFolder(folder) }
        let second = try await LiveServer { try! $0.useScanFolder(folder) }
        let (body, type) = LiveServer.multipart([("page.jpg", "image/jpeg", try Scenes.jpeg(blur: 0))])
        let reply = try await first.request("POST", "/v1/scan", body: body, contentType: type)
        #expect(reply.status == 200, "\(reply.reason)")
        let url = try #require(
            ((reply.json["documents"] as? [[String: Any]])?.first?["scan"] as? [String: Any])?["url"] as? String)
        let fromFirst = try await first.request("GET", url)
        let fromSecond = try await second.request("GET", url)
        #expect(fromFirst.status == 200 && fromSecond.status == 200)
        #expect(fromFirst.body == fromSecond.body && !fromFirst.body.isEmpty, "the same bytes from either replica")
        // A replica started later (a restart) serves it too.
        let restarted = try await LiveServer { try! $0.useScanFolder(folder) }
        #expect(try await restarted.request("GET", url).body == fromFirst.body)

        // Private: the folder is 0700, each scan 0600, and no partial file is left.
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 1 && names[0].hasSuffix(".jpg"), "\(names)")
        let fileMode = try FileManager.default.attributesOfItem(atPath: folder + "/" + names[0])[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
    }

    @Test func onlyIdsTheServerMadeAreOpened() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = try await LiveServer { try! $0.useScanFolder(folder) }
        // A file that is there but was not named by the server, and paths out of the folder.
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/notes.jpg"))
        for id in ["notes", "notes.jpg", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fhostname", String(repeating: "A", count: 32)] {
            let reply = try await live.request("GET", "/v1/scans/" + id)
            // Percent-encoded paths are refused before routing (RequestPath); the rest find nothing.
            #expect(reply.status == (id.contains("%") ? 400 : 404), "\(id): \(reply.status)")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains(folder), "the folder is never named")
        }
    }

    @Test func scansExpireAndTheFolderKeepsToItsSize() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A lifetime far longer than the test: on a saturated machine the test has taken 25 s from
        // here to its first look, and the oldest scan must not expire on its own meanwhile.
        let store = try DirectoryScanStore(folder: folder, lifetime: 3600, maximumBytes: 25_000)
        var ids: [String] = []
        for index in 0..<4 {
            ids.append(try await store.keep([UInt8](repeating: UInt8(index), count: 10_000)))
            // Distinct modification times, oldest first.
            let past = time(nil) - 400 + index * 100
            var times = [timespec(tv_sec: past, tv_nsec: 0), timespec(tv_sec: past, tv_nsec: 0)]
            utimensat(AT_FDCWD, folder + "/" + ids[index] + ".jpg", &times, 0)
        }
        func kept() async -> [Bool] {
            var answers: [Bool] = []
            for id in ids { answers.append(await store.get(id) != nil) }
            return answers
        }
        // 40 KB written against a 25 KB cap: the oldest go as the writes take the folder over it,
        // not at the next sweep (between sweeps the folder reached 2.4 times its cap).
        #expect(await kept() == [false, false, true, true])
        store.sweep(now: Double(time(nil)))
        #expect(await kept() == [false, false, true, true])
        #expect(await store.get(ids[3]) == [UInt8](repeating: 3, count: 10_000))
        // Two hours later every scan has expired, and the sweep removes the files.
        store.sweep(now: Double(time(nil)) + 7200)
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder)).isEmpty)
    }

    @Test func aFolderThatCannotBeWrittenIsRefusedAtStartUp() {
        #expect(throws: ServiceError.self) {
            try DirectoryScanStore(folder: "/proc/focal-scans", lifetime: 60, maximumBytes: 1 << 20)
        }
    }
}
