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

    /// `format` answers PNG (the same pixels as a lossless file) and a one-page PDF, as /v1/scan does.
    @Test func theFlatPageComesAsPNGOrPDFWhenAsked() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0)
        let base = "/v1/flatten?corners=" + Self.cornerText
        let png = try await live.request("POST", base + "&format=png", body: image, contentType: "image/jpeg")
        #expect(png.status == 200 && png.headers["content-type"] == "image/png", "\(png.reason)")
        #expect(ImageHeader(bytes: Array(png.body))?.format == .png)
        let jpeg = try await live.request("POST", base, body: image, contentType: "image/jpeg")
        let (a, b) = (try Frame(decoding: Array(png.body)), try Frame(decoding: Array(jpeg.body)))
        #expect(a.width == b.width && a.height == b.height, "one page, two encodings")
        let pdf = try await live.request("POST", base + "&format=pdf", body: image, contentType: "image/jpeg")
        #expect(pdf.status == 200 && pdf.headers["content-type"] == "application/pdf", "\(pdf.reason)")
        #expect(pdf.body.starts(with: Data("%PDF-".utf8)))
        #expect(try PDFInfo.pageCount(of: pdf.body) == 1)
        let bad = try await live.request("POST", base + "&format=gif", body: image, contentType: "image/jpeg")
        #expect(bad.status == 400 && bad.reason.contains("jpeg, png or pdf"), "\(bad.reason)")
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

    @Test func enhanceCleansTheScanUpAndAnUnknownModeSaysWhichThereAre() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0)
        let plain = try await live.request("POST", "/v1/flatten?corners=" + Self.cornerText, body: image, contentType: "image/jpeg")
        let bw = try await live.request(
            "POST", "/v1/flatten?enhance=bw&corners=" + Self.cornerText, body: image, contentType: "image/jpeg")
        #expect(bw.status == 200, "\(bw.reason)")
        let flat = try Frame(decoding: Array(plain.body)), binary = try Frame(decoding: Array(bw.body))
        #expect(binary.width == flat.width && binary.height == flat.height)
        // Black and white: nearly every pixel at one end or the other (JPEG rings a little at edges).
        var extremes = 0
        for y in 0..<binary.height {
            for x in 0..<binary.width {
                let value = binary.pixel(x: x, y: y)[0]
                if value < 40 || value > 215 { extremes += 1 }
            }
        }
        #expect(Double(extremes) > 0.97 * Double(binary.width * binary.height))

        let unknown = try await live.request(
            "POST", "/v1/flatten?enhance=sepia&corners=" + Self.cornerText, body: image, contentType: "image/jpeg")
        #expect(unknown.status == 400 && unknown.reason.contains("none, color, gray or bw"), "\(unknown.reason)")
        let scan = try await live.request("POST", "/v1/scan?enhance=sepia", body: image, contentType: "image/jpeg")
        #expect(scan.status == 400 && scan.reason.contains("none, color, gray or bw"), "\(scan.reason)")
    }

    @Test func aScanAsPDFIsOnePagePerDocument() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0)
        let reply = try await live.request("POST", "/v1/scan?format=pdf&enhance=color", body: image, contentType: "image/jpeg")
        #expect(reply.status == 200, "\(reply.reason)")
        #expect(reply.headers["content-type"] == "application/pdf")
        let text = String(decoding: reply.body, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-1.") && text.contains("%%EOF"))
        // libHaru writes each page object's type on a line of its own.
        let pages = text.split(whereSeparator: \.isNewline).filter { $0 == "/Type /Page" }.count
        #expect(pages == 1, "one page, not \(pages)")

        for (query, reason) in [("format=xml", "json or pdf"), ("format=pdf&inline=base64", "JSON answers")] {
            let refused = try await live.request("POST", "/v1/scan?" + query, body: image, contentType: "image/jpeg")
            #expect(refused.status == 400 && refused.reason.contains(reason), "\(query): \(refused.reason)")
        }
    }
}
