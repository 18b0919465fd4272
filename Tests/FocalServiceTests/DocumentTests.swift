import Focal
import Foundation
import Testing

@testable import FocalService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `/v1/documents`: multi-page documents kept in the scan store, built a request at a time through
/// any replica, and exported as one PDF.
@Suite struct DocumentTests {
    static func create(_ live: LiveServer) async throws -> String {
        let reply = try await live.request("POST", "/v1/documents")
        #expect(reply.status == 201, "\(reply.reason)")
        #expect(reply.headers["location"]?.hasPrefix("/v1/documents/") == true)
        return try #require(reply.json["id"] as? String)
    }

    static func pages(_ reply: LiveServer.Reply) -> [[String: Any]] { reply.json["pages"] as? [[String: Any]] ?? [] }

    static func addPage(_ live: LiveServer, _ id: String, _ image: Data, query: String = "") async throws -> LiveServer.Reply {
        try await live.request("POST", "/v1/documents/\(id)/pages" + query, body: image, contentType: "image/jpeg")
    }

    /// Two replicas sharing a folder: a document made on one is built and read on both, its
    /// pages' corners found where the rendered page is, changed, reordered, exported and deleted.
    @Test func aDocumentIsBuiltThroughEitherReplica() async throws {
        let folder = ScanFolderTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await LiveServer { try! $0.useScanFolder(folder) }
        let second = try await LiveServer { try! $0.useScanFolder(folder) }
        let id = try await Self.create(first)
        let added = try await Self.addPage(second, id, try Scenes.jpeg(blur: 0))
        #expect(added.status == 201, "\(added.reason)")
        let page = try #require(Self.pages(added).first)
        #expect(page["detected"] as? Bool == true)
        let corners = try #require(page["corners"] as? [[Double]])
        #expect(Scenes.cornerError(corners) < 4, "\(corners)")
        let pageID = try #require(page["id"] as? String)
        _ = try await Self.addPage(first, id, try Scenes.jpeg(blur: 0, seed: 5), query: "?enhance=gray&rotation=90")

        let moved = corners.map { "\($0[0] + 3),\($0[1] + 2)" }.joined(separator: ",")
        let patched = try await first.request("PATCH", "/v1/documents/\(id)/pages/\(pageID)?corners=\(moved)&enhance=bw")
        #expect(patched.status == 200, "\(patched.reason)")
        let read = try await second.request("GET", "/v1/documents/\(id)")
        let readPages = Self.pages(read)
        #expect(read.json["revision"] as? Int == 4, "created, two pages, one change")
        #expect(readPages.count == 2 && readPages[0]["enhance"] as? String == "bw" && readPages[0]["detected"] as? Bool == false)
        #expect(readPages[1]["rotation"] as? Int == 90 && readPages[1]["enhance"] as? String == "gray")
        let secondID = try #require(readPages[1]["id"] as? String)

        let reordered = try await second.request("PUT", "/v1/documents/\(id)/order?pages=\(secondID),\(pageID)")
        #expect(Self.pages(reordered).map { $0["id"] as? String } == [secondID, pageID])
        let image = try await first.request("GET", "/v1/documents/\(id)/pages/\(secondID)/image?size=300")
        let flat = try Frame(decoding: Array(image.body))
        #expect(max(flat.width, flat.height) <= 301 && flat.width > flat.height, "turned: \(flat.width)x\(flat.height)")
        let pdf = try await second.request("GET", "/v1/documents/\(id)/pdf")
        #expect(pdf.status == 200 && pdf.headers["content-type"] == "application/pdf")
        #expect(try PDFInfo.pageCount(of: pdf.body) == 2)
        // A page's photo is not a scan: the scans route never serves it.
        #expect(try await first.request("GET", "/v1/scans/\(pageID)").status == 404)
        #expect(try await first.request("GET", "/v1/documents/\(id)/pages/\(pageID)/source").body == (try Scenes.jpeg(blur: 0)))

        let removed = try await first.request("DELETE", "/v1/documents/\(id)/pages/\(pageID)")
        #expect(Self.pages(removed).count == 1)
        #expect(try await second.request("DELETE", "/v1/documents/\(id)").status == 204)
        #expect(try await first.request("GET", "/v1/documents/\(id)").status == 404)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        #expect(left.isEmpty, "the document and its photos are gone: \(left)")
    }

    /// Pages added at once through two replicas all land: each write is a compare-and-swap, and
    /// the one that loses reads again.
    @Test func concurrentChangesAreNotLost() async throws {
        let folder = ScanFolderTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let replicas = [
            try await LiveServer { try! $0.useScanFolder(folder) }, try await LiveServer { try! $0.useScanFolder(folder) },
        ]
        let id = try await Self.create(replicas[0])
        let image = try Scenes.jpeg(blur: 0)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 { group.addTask { try await Self.addPage(replicas[index % 2], id, image).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 201 }, "\(statuses)")
        let read = try await replicas[1].request("GET", "/v1/documents/\(id)")
        #expect(Self.pages(read).count == 8)
        #expect(read.json["revision"] as? Int == 9)
    }

    @Test func limitsAndBadRequestsAreRefusedSayingWhy() async throws {
        let live = try await LiveServer { $0.maximumDocumentPages = 1 }
        let id = try await Self.create(live)
        let image = try Scenes.jpeg(blur: 0)
        #expect(try await Self.addPage(live, id, image).status == 201)
        let over = try await Self.addPage(live, id, image)
        #expect(over.status == 413 && over.reason.contains("at most 1 pages"), "\(over.reason)")
        let pageID = try #require(Self.pages(try await live.request("GET", "/v1/documents/\(id)")).first?["id"] as? String)
        let cases: [(String, String, Int, String)] = [
            ("GET", "/v1/documents/" + String(repeating: "a", count: 32), 404, "no such document"),
            ("GET", "/v1/documents/not-an-id", 404, "no such document"),
            ("PATCH", "/v1/documents/\(id)/pages/\(pageID)?rotation=45", 400, "0, 90, 180 or 270"),
            ("PATCH", "/v1/documents/\(id)/pages/\(pageID)?corners=-50,0,900,0,900,500,0,500", 400, "outside"),
            ("PATCH", "/v1/documents/\(id)/pages/\(pageID)", 400, "send corners, enhance or rotation"),
            ("PATCH", "/v1/documents/\(id)/pages/\(String(repeating: "b", count: 32))?enhance=bw", 404, "has no page"),
            ("PUT", "/v1/documents/\(id)/order?pages=\(pageID),\(pageID)", 400, "each of the document's 1 pages once"),
            ("GET", "/v1/documents/\(id)/pages/\(pageID)/image?size=5", 400, "64…8192"),
            ("GET", "/v1/documents/\(id)/pages/\(pageID)/image?format=pdf", 400, "jpeg or png"),
        ]
        for (method, path, status, reason) in cases {
            let reply = try await live.request(method, path)
            #expect(reply.status == status && reply.reason.contains(reason), "\(method) \(path): \(reply.status) \(reply.reason)")
        }
        let text = try await live.request(
            "POST", "/v1/documents/\(id)/pages", body: Data("hello".utf8), contentType: "image/jpeg")
        #expect(text.status == 422 || text.status == 413, "\(text.status) \(text.reason)")
        let empty = try await Self.create(live)
        #expect(try await live.request("GET", "/v1/documents/\(empty)/pdf").status == 422)
    }

    /// A photo without a page keeps the whole photo, for a person to set the corners.
    @Test func aPhotoWithoutAPageKeepsTheWholePhoto() async throws {
        let live = try await LiveServer()
        let id = try await Self.create(live)
        let blank = try Frame(width: 400, height: 300, format: .bgr8, color: Color(white: 0.5))
        let reply = try await Self.addPage(live, id, Data(try blank.encoded(as: .jpeg, quality: 0.9)))
        let page = try #require(Self.pages(reply).first)
        #expect(page["detected"] as? Bool == false)
        #expect(page["corners"] as? [[Double]] == [[0, 0], [400, 0], [400, 300], [0, 300]])
        // Corners on the photo's outer edge, and a detected page's corner beyond it (where the sides
        // of a page running out of the frame meet), are taken onto the photo to flatten it.
        let pageID = try #require(page["id"] as? String)
        for size in ["", "?size=100"] {
            let image = try await live.request("GET", "/v1/documents/\(id)/pages/\(pageID)/image" + size)
            #expect(image.status == 200, "image\(size): \(image.reason)")
        }
        let beyond = Processing.inside(
            Quad(
                topLeft: Point(x: -3, y: 2), topRight: Point(x: 430, y: -1), bottomRight: Point(x: 405, y: 320),
                bottomLeft: Point(x: 1, y: 299)), width: 400, height: 300)
        #expect(beyond.corners.map { [$0.x, $0.y] } == [[-0.5, 2], [399.5, -0.5], [399.5, 299.5], [1, 299]])
    }

    /// A page's photo is served as the format its bytes are, not as the type the client claimed:
    /// a photo sent as `image/svg+xml` would otherwise run as a page of the server's origin.
    @Test func aPhotoIsServedAsWhatItIs() async throws {
        let live = try await LiveServer()
        let id = try await Self.create(live)
        let reply = try await live.request(
            "POST", "/v1/documents/\(id)/pages", body: try Scenes.jpeg(blur: 0), contentType: "image/svg+xml")
        let page = try #require(Self.pages(reply).first?["id"] as? String)
        let source = try await live.request("GET", "/v1/documents/\(id)/pages/\(page)/source")
        #expect(source.headers["content-type"] == "image/jpeg")
        #expect(source.headers["content-security-policy"]?.contains("sandbox") == true)
        let small = try await live.request("GET", "/v1/documents/\(id)/pages/\(page)/source?size=300")
        let shown = try Frame(decoding: Array(small.body))
        #expect(small.headers["content-type"] == "image/jpeg" && shown.width == 300 && shown.height < 300)
    }

    /// The scanner page is served at / with a strict policy, needs no key (the API it calls does),
    /// and serves only its own files.
    @Test func theScannerPageIsServed() async throws {
        let file = NSTemporaryDirectory() + "focal-keys-\(UUID().uuidString)"
        try "page-test-key\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let live = try await LiveServer { $0.apiKeys = try! APIKeys(path: file) }
        let page = try await live.request("GET", "/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(String(decoding: page.body, as: UTF8.self).contains("/scanner/app.js"))
        for name in ["app.js", "api.js", "camera.js", "editor.js", "scanner.css"] {
            let reply = try await live.request("GET", "/scanner/" + name)
            #expect(reply.status == 200 && !reply.body.isEmpty, "\(name): \(reply.status)")
        }
        #expect(try await live.request("GET", "/scanner/app.js").headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try await live.request("GET", "/scanner/missing.js").status == 404)
        // Only files read from the page's folder at start-up; dot segments never reach a route
        // (RequestPath refuses them, see HostileInputTests).
        #expect(try await live.request("GET", "/scanner/Package.swift").status == 404)
        #expect(try await live.request("GET", "/scanner/a/b").status == 401, "not a page file: a key is needed")
        #expect(try await live.request("POST", "/v1/documents").status == 401)
        let keyed = try await live.request("POST", "/v1/documents", headers: ["Authorization": "Bearer page-test-key"])
        #expect(keyed.status == 201)
    }

    /// The memory store's compare-and-swap: a write against an old revision loses.
    @Test func aStaleRevisionLoses() async throws {
        let store = MemoryScanStore(capacity: 4)
        #expect(await store.putDocument("d", record: [1], replacing: nil))
        #expect(await !store.putDocument("d", record: [2], replacing: nil), "it exists")
        #expect(await store.putDocument("d", record: [3], replacing: 1))
        #expect(await !store.putDocument("d", record: [4], replacing: 1), "revision 1 is gone")
        #expect(await store.document("d") == StoredDocument(record: [3], revision: 2))
    }
}
