import Focal
import FocalService
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `POST /v1/flatten`: an image and the corners a person adjusted, back as a flat scan.
@Suite struct FlattenTests {
    static let cornerText = Scenes.corners.corners.map { "\($0.x),\($0.y)" }.joined(separator: ",")

    @Test func theCornersGiveTheFlatPage() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0)
        let raw = try await live.request("POST", "/v1/flatten?corners=" + Self.cornerText, body: image, contentType: "image/jpeg")
        #expect(raw.status == 200, "\(raw.reason)")
        #expect(raw.headers["content-type"] == "image/jpeg")
        let flat = try Frame(decoding: Array(raw.body))
        // The rendered page is 425 x 550.
        let aspect = Double(flat.width) / Double(flat.height)
        let pageAspect = 425.0 / 550.0
        #expect(abs(aspect / pageAspect - 1) < 0.03, "\(flat.width)x\(flat.height)")

        var (form, type) = LiveServer.multipart([("page.jpg", "image/jpeg", image)])
        form = Data("--focal-test-boundary\r\nContent-Disposition: form-data; name=\"corners\"\r\n\r\n\(Self.cornerText)\r\n".utf8) + form
        let multipart = try await live.request("POST", "/v1/flatten", body: form, contentType: type)
        #expect(multipart.status == 200, "\(multipart.reason)")
        #expect(multipart.body == raw.body, "the same scan either way")
    }

    @Test func badCornersAreABadRequestSayingWhy() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0)
        let c = Scenes.corners.corners
        let cases: [(String, String?, String)] = [
            ("missing", nil, "send the corners"),
            ("seven numbers", "1,2,3,4,5,6,7", "eight numbers"),
            ("not numbers", "a,b,c,d,e,f,g,h", "eight numbers"),
            ("outside", "-40,\(c[0].y),\(c[1].x),\(c[1].y),\(c[2].x),\(c[2].y),\(c[3].x),\(c[3].y)", "outside"),
            ("crossed", "\(c[0].x),\(c[0].y),\(c[1].x),\(c[1].y),\(c[3].x),\(c[3].y),\(c[2].x),\(c[2].y)", "convex"),
            ("degenerate", "100,100,103,100,103,103,100,103", "degenerate"),
        ]
        for (name, corners, reason) in cases {
            let path = "/v1/flatten" + (corners.map { "?corners=" + $0 } ?? "")
            let reply = try await live.request("POST", path, body: image, contentType: "image/jpeg")
            #expect(reply.status == 400, "\(name): \(reply.status) \(reply.reason)")
            #expect(reply.reason.contains(reason), "\(name): \(reply.reason)")
            #expect(reply.headers["content-type"] == "application/json")
        }
    }
}
