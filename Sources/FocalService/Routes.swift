import Focal
import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FocalServer {
    /// A path the service answers, the methods it takes there, and what answers them.
    struct Route: Sendable {
        var path: String
        var methods: [HTTPRequest.Method]
        var handler: @Sendable (Request, BasicRequestContext) async throws -> Response
    }

    /// Every route, defined once: the router serves exactly these, and any other method on one of
    /// these paths gets 405 with `Allow`.
    var routeTable: [Route] {
        [
            Route(path: "v1/health", methods: [.get, .head]) { request, _ in await health(request) },
            // Kubernetes' probes: live while the process answers; ready while it wants new requests.
            Route(path: "v1/health/live", methods: [.get, .head]) { request, _ in
                Self.answering(request, with: Self.json(200, Probe(status: "ok")))
            },
            Route(path: "v1/health/ready", methods: [.get, .head]) { request, _ in
                let status = await readiness()
                return Self.answering(request, with: Self.json(status == "ok" ? 200 : 503, Probe(status: status)))
            },
            Route(path: "metrics", methods: [.get, .head]) { request, _ in metricsAnswer(request) },
            Route(path: "/", methods: [.get, .head]) { request, _ in scannerFile("index.html", request) },
            Route(path: "scanner/:file", methods: [.get, .head]) { request, context in
                scannerFile(context.parameters.get("file") ?? "", request)
            },
            Route(path: "v1/detect", methods: [.post]) { request, _ in
                await answer("detect") { () async throws(ServiceError) -> Response in try await detect(request) }
            },
            Route(path: "v1/scan", methods: [.post]) { request, _ in
                await answer("scan") { () async throws(ServiceError) -> Response in try await scan(request) }
            },
            Route(path: "v1/flatten", methods: [.post]) { request, _ in
                await answer("flatten") { () async throws(ServiceError) -> Response in try await flatten(request) }
            },
            Route(path: "v1/scans/:id", methods: [.get]) { _, context in
                await answer("scans") { () async throws(ServiceError) -> Response in
                    try await storedScan(context.parameters.get("id") ?? "")
                }
            },
        ] + documentRoutes
    }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let table = routeTable
        router.add(middleware: JSONErrorMiddleware(routes: table.map { ($0.path, $0.methods) }))
        if let keys = configuration.apiKeys { router.add(middleware: APIKeyMiddleware(keys: keys)) }
        for route in table {
            for method in route.methods { router.on(RouterPath(route.path), method: method, use: route.handler) }
        }
        return router
    }

    private func scannerFile(_ name: String, _ request: Request) -> Response {
        guard let scannerPage else {
            return Self.error(404, "this server has no scanner page: its files were not found (see its log)")
        }
        return scannerPage.response(for: name, head: request.method == .head)
            ?? Self.error(404, "the scanner page has no file '\(name.prefix(60))'")
    }

    private func health(_ request: Request) async -> Response {
        let load = pool.load
        let status = await readiness()
        let response = Self.json(
            status == "ok" ? 200 : 503,
            Health(
                status: status, version: FocalVersion.string, workers: pool.workers, busy: load.running,
                waiting: load.waiting, unavailableTypes: unavailableTypes.isEmpty ? nil : unavailableTypes.map(\.rawValue)))
        return Self.answering(request, with: response)
    }

    private func metricsAnswer(_ request: Request) -> Response {
        let load = pool.load
        metrics.pool(running: load.running, waiting: load.waiting, totals: pool.totals)
        let headers: HTTPFields = [.contentType: "text/plain; version=0.0.4; charset=utf-8"]
        return Self.answering(
            request, with: Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.text()))))
    }

    private func detect(_ request: Request) async throws(ServiceError) -> Response {
        let detectRequest = try DetectRequest(query: Self.query(request), textModelPath: configuration.textModelPath)
        let uploads = try await uploads(of: request)
        guard uploads.count == 1 else { throw ServiceError(400, "send one image to detect (got \(uploads.count) files)") }
        let configuration = configuration
        let result = try await work { (deadline) throws(ServiceError) in
            try Processing.detect(uploads[0], request: detectRequest, limits: configuration, deadline: deadline)
        }
        metrics.framesProcessed(1)
        return Self.json(200, result)
    }

    private func scan(_ request: Request) async throws(ServiceError) -> Response {
        let query = Self.query(request)
        let inlineValue = query["inline"]
        guard inlineValue == nil || inlineValue == "base64" else {
            throw ServiceError(400, "inline must be base64 (or left out for scan URLs), not '\(inlineValue ?? "")'")
        }
        let enhancement = try Processing.enhancement(query["enhance"])
        let format = query["format"] ?? "json"
        guard format == "json" || format == "pdf" else {
            throw ServiceError(400, "format must be json or pdf, not '\(format.prefix(40))'")
        }
        guard format == "json" || inlineValue == nil else {
            throw ServiceError(400, "inline applies to JSON answers; a PDF carries its scans")
        }
        let uploads = try await uploads(of: request)
        let configuration = configuration
        if format == "pdf" {
            let (pdf, frames) = try await work { (deadline) throws(ServiceError) in
                try Processing.scanPDF(uploads, enhancement: enhancement, limits: configuration, deadline: deadline)
            }
            metrics.framesProcessed(frames)
            return Response(
                status: .ok, headers: [.contentType: "application/pdf", .contentDisposition: "inline; filename=\"scan.pdf\""],
                body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
        }
        let (found, frames) = try await work { (deadline) throws(ServiceError) in
            try Processing.scan(uploads, enhancement: enhancement, quality: 0.9, limits: configuration, deadline: deadline)
        }
        var documents: [ScanReport.Document] = []
        for document in found {
            documents.append(ScanReport.Document(document.scan, image: try await image(of: document, inline: inlineValue != nil)))
        }
        metrics.framesProcessed(frames)
        return Self.json(200, ScanReport(frames: frames, documents: documents))
    }

    /// Where a client finds a document's scan: inline, or kept in the scan store.
    private func image(of document: ScannedDocument, inline: Bool) async throws(ServiceError) -> ScanReport.Image {
        var image = ScanReport.Image(width: document.width, height: document.height, contentType: "image/jpeg")
        if inline {
            image.base64 = Data(document.jpeg).base64EncodedString()
        } else {
            let start = MonotonicClock.now()
            image.url = "/v1/scans/" + (try await scans.keep(document.jpeg))
            metrics.scanStore("write", seconds: MonotonicClock.now() - start)
        }
        return image
    }

    private func flatten(_ request: Request) async throws(ServiceError) -> Response {
        let (files, fields) = try await form(of: request)
        guard files.count == 1 else { throw ServiceError(400, "send one image to flatten (got \(files.count) files)") }
        let query = Self.query(request)
        guard let text = fields["corners"] ?? query["corners"] else {
            throw ServiceError(
                400,
                "send the corners as corners=x1,y1,x2,y2,x3,y3,x4,y4 (top-left, top-right, bottom-right, bottom-left), in the query or a form field"
            )
        }
        let quad = try Processing.corners(text)
        let enhancement = try Processing.enhancement(fields["enhance"] ?? query["enhance"])
        let format = try Processing.FlatFormat(fields["format"] ?? query["format"])
        let configuration = configuration
        let bytes = try await work { (deadline) throws(ServiceError) in
            try Processing.flatten(
                files[0], through: quad, enhancement: enhancement, format: format, limits: configuration, deadline: deadline)
        }
        var headers: HTTPFields = [.contentType: format.contentType]
        if format == .pdf { headers[.contentDisposition] = "inline; filename=\"scan.pdf\"" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func storedScan(_ id: String) async throws(ServiceError) -> Response {
        let start = MonotonicClock.now()
        let jpeg = try await scans.get(id)
        metrics.scanStore("read", seconds: MonotonicClock.now() - start)
        guard let jpeg else { throw ServiceError(404, "no such scan (\(scans.retention))") }
        return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
    }
}
