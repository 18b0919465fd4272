import Foundation
import Testing

@testable import FocalService

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

        // Rotation: the file changes, reload() picks it up.
        try "third-key\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect((try? keys.reload().get()) == 1)
        let old = try await live.request(
            "POST", "/v1/detect", body: image, contentType: "image/jpeg", headers: ["Authorization": "Bearer third-key"])
        #expect(old.status == 200)
        // Revocation: a file emptied of keys, or deleted, revokes them all (the keys in use stayed
        // before, so a key could not be withdrawn without a restart).
        for revoke in ["emptied", "deleted"] {
            try "third-key\n".write(toFile: file, atomically: true, encoding: .utf8)
            #expect((try? keys.reload().get()) == 1)
            if revoke == "emptied" {
                try "\n# none\n".write(toFile: file, atomically: true, encoding: .utf8)
            } else {
                try FileManager.default.removeItem(atPath: file)
            }
            #expect((try? keys.reload().get()) == nil)
            let revoked = try await live.request(
                "POST", "/v1/detect", body: image, contentType: "image/jpeg", headers: ["Authorization": "Bearer third-key"])
            #expect(revoked.status == 401, "the file \(revoke): \(revoked.status)")
        }
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstKey() throws {
        let file = NSTemporaryDirectory() + "focal-bom-keys-" + UUID().uuidString
        try Data([0xEF, 0xBB, 0xBF] + Array("first-key\nsecond-key\n".utf8)).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let keys = try APIKeys(path: file)
        #expect(keys.count == 2)
        // Before, the first key was read as "\u{FEFF}first-key", which no client sends.
        #expect(keys.accepts("first-key".utf8) && keys.accepts("second-key".utf8))
    }

    /// The key check read the path's prefix while the router matched `//v1/detect` too, so every
    /// route answered without a key when spelled with an extra slash. Every other spelling of a
    /// path is now refused before any route or key is looked at.
    @Test func noSpellingOfAPathGetsPastTheKeyCheck() async throws {
        let file = NSTemporaryDirectory() + "focal-spelling-keys-" + UUID().uuidString
        try "the-key\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let live = try await LiveServer { $0.apiKeys = try! APIKeys(path: file) }
        let image = [UInt8](try Scenes.jpeg(blur: 0))
        let spellings = [
            "//v1/detect", "///v1/detect", "//v1/scan", "//v1/flatten?corners=0,0,9,0,9,9,0,9", "/v1//detect",
            "/v1/detect/", "/v1/./detect", "/./v1/detect", "/x/../v1/detect", "/v1/%64etect", "/%2Fv1/detect",
            "/v1/detect%2F", "/v1\\detect", "/V1/detect", "v1/detect", "http://x/v1/detect", "*",
        ]
        for spelling in spellings {
            let connection = try RawConnection(port: live.port)
            connection.send(
                "POST \(spelling) HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(image.count)\r\n\r\n")
            connection.send(image)
            let (text, _) = await connection.answer(within: 20, until: "}\n")
            let status = statusCode(of: text)
            #expect([400, 401].contains(status), "\(spelling) without a key: \(text.prefix(200))")
        }
        for spelling in ["//v1/scans/" + String(repeating: "a", count: 32), "/v1/scans/../health", "//v1/health"] {
            let connection = try RawConnection(port: live.port)
            connection.send("GET \(spelling) HTTP/1.1\r\nHost: x\r\n\r\n")
            let text = await connection.answer(within: 5, until: "}\n").text
            #expect(text.hasPrefix("HTTP/1.1 400") || text.hasPrefix("HTTP/1.1 401"), "\(spelling): \(text.prefix(200))")
        }
        // The canonical spellings: open paths open, the rest behind the key.
        #expect(try await live.request("GET", "/v1/health/ready").status == 200)
        #expect(try await live.request("POST", "/v1/detect", body: Data(image), contentType: "image/jpeg").status == 401)
    }

    @Test func aMissingOrEmptyKeyFileIsRefusedAtStartUp() throws {
        #expect(throws: ServiceError.self) { try APIKeys(path: "/nonexistent/focal-keys") }
        let file = NSTemporaryDirectory() + "focal-empty-keys-" + UUID().uuidString
        try "# nothing\n\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: ServiceError.self) { try APIKeys(path: file) }
    }
}
