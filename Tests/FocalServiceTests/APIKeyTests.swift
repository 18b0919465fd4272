import FocalService
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--api-keys`: every /v1 endpoint but health needs a bearer key from the file; keys rotate by
/// re-reading it.
@Suite struct APIKeyTests {
    @Test func onlyAValidBearerKeyGetsIn() async throws {
        let folder = NSTemporaryDirectory() + "focal-keys-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/keys"
        try "# scanner apps\nfirst-key-0123456789\n\n  second-key-abcdef  \n".write(toFile: file, atomically: true, encoding: .utf8)
        let keys = try APIKeys(path: file)
        #expect(keys.count == 2)
        let live = try await LiveServer { $0.apiKeys = keys }
        let image = try Scenes.jpeg(blur: 0)

        for path in ["/v1/detect", "/v1/scan", "/v1/scans/0123abcd", "/v1/nothing-here"] {
            let reply = try await live.request("POST", path, body: image, contentType: "image/jpeg")
            #expect(reply.status == 401, "\(path) without a key: \(reply.status)")
            #expect(reply.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(reply.headers["content-type"] == "application/json")
        }
        for wrong in ["Bearer first-key-012345678", "Bearer first-key-01234567890", "Basic Zmlyc3Qta2V5", "Bearer "] {
            let reply = try await live.request(
                "POST", "/v1/detect", body: image, contentType: "image/jpeg", headers: ["Authorization": wrong])
            #expect(reply.status == 401, "\(wrong): \(reply.status)")
        }
        for right in ["Bearer first-key-0123456789", "bearer second-key-abcdef"] {
            let reply = try await live.request(
                "POST", "/v1/detect", body: image, contentType: "image/jpeg", headers: ["Authorization": right])
            #expect(reply.status == 200, "\(right): \(reply.status) \(reply.reason)")
        }
        #expect(try await live.request("GET", "/v1/health").status == 200, "health stays open")
        #expect(try await live.request("GET", "/metrics").status == 200, "metrics stay open")

        // Rotation: the file changes, reload() picks it up; an emptied file keeps the keys in use.
        try "third-key\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect((try? keys.reload().get()) == 1)
        let old = try await live.request(
            "POST", "/v1/detect", body: image, contentType: "image/jpeg", headers: ["Authorization": "Bearer first-key-0123456789"])
        #expect(old.status == 401)
        try "\n# none\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect((try? keys.reload().get()) == nil)
        let kept = try await live.request(
            "POST", "/v1/detect", body: image, contentType: "image/jpeg", headers: ["Authorization": "Bearer third-key"])
        #expect(kept.status == 200)
    }

    @Test func aMissingOrEmptyKeyFileIsRefusedAtStartUp() throws {
        #expect(throws: ServiceError.self) { try APIKeys(path: "/nonexistent/focal-keys") }
        let file = NSTemporaryDirectory() + "focal-empty-keys-" + UUID().uuidString
        try "# nothing\n\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: ServiceError.self) { try APIKeys(path: file) }
    }
}
