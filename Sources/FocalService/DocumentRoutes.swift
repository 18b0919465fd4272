import Focal
import HTTPTypes
import Hummingbird
import NIOCore

/// `/v1/documents`: multi-page documents kept in the scan store, so that any replica answers for
/// any document. Each change reads the record, changes it and writes it back only if no other
/// request wrote it meanwhile (compare-and-swap), trying again if one did.
extension FocalServer {
    var documentRoutes: [Route] {
        // Every handler below throws only ServiceError; Swift infers its closures as throwing any
        // error, so a stray one is a fault of the server's.
        func route(
            _ path: String, _ methods: [HTTPRequest.Method],
            _ handler: @escaping @Sendable (Request, Parameters) async throws -> Response
        ) -> Route {
            Route(path: path, methods: methods) { request, context in
                await answer("documents") { () async throws(ServiceError) -> Response in
                    do { return try await handler(request, context.parameters) } catch let error as ServiceError {
                        throw error
                    } catch {
                        throw ServiceError(internal: error, what: "the document request")
                    }
                }
            }
        }
        return [
            route("v1/documents", [.post]) { _, _ in try await createDocument() },
            route("v1/documents/:id", [.get, .delete]) { request, parameters in
                request.method == .delete
                    ? try await deleteDocument(parameters.get("id") ?? "")
                    : try await documentAnswer(parameters.get("id") ?? "")
            },
            route("v1/documents/:id/pages", [.post]) { request, parameters in
                try await addPages(request, to: parameters.get("id") ?? "")
            },
            route("v1/documents/:id/pages/:page", [.patch, .delete]) { request, parameters in
                try await changePage(request, parameters.get("page") ?? "", of: parameters.get("id") ?? "")
            },
            route("v1/documents/:id/pages/:page/image", [.get]) { request, parameters in
                try await pageImage(request, parameters.get("page") ?? "", of: parameters.get("id") ?? "")
            },
            route("v1/documents/:id/pages/:page/source", [.get]) { request, parameters in
                try await pageSource(request, parameters.get("page") ?? "", of: parameters.get("id") ?? "")
            },
            route("v1/documents/:id/order", [.put]) { request, parameters in
                try await reorder(request, parameters.get("id") ?? "")
            },
            route("v1/documents/:id/pdf", [.get]) { _, parameters in try await documentPDF(parameters.get("id") ?? "") },
        ]
    }

    private func createDocument() async throws(ServiceError) -> Response {
        let record = DocumentRecord(id: ScanID.make(), created: WallClock.seconds(), pages: [])
        guard try await scans.putDocument(record.id, record: record.encoded(), replacing: nil) else {
            throw ServiceError(500, "a new document's id was taken")
        }
        return documentResponse(201, record, revision: 1, headers: [.location: "/v1/documents/" + record.id])
    }

    private func documentAnswer(_ id: String) async throws(ServiceError) -> Response {
        let (record, revision) = try await readDocument(id)
        return documentResponse(200, record, revision: revision)
    }

    private func deleteDocument(_ id: String) async throws(ServiceError) -> Response {
        let (record, _) = try await readDocument(id)
        try await scans.removeDocument(id)
        for page in record.pages { try await scans.removePage(page.id) }
        return Response(status: .noContent)
    }

    /// Adds each image of the request as a page, at the end, with the settings of the query or
    /// the form (corners only with one image).
    private func addPages(_ request: Request, to id: String) async throws(ServiceError) -> Response {
        _ = try await readDocument(id)
        let (files, fields) = try await form(of: request)
        let settings = try PageSettings(fields.merging(Self.query(request)) { field, _ in field })
        guard settings.corners == nil || files.count == 1 else {
            throw ServiceError(400, "corners apply to one image; send the images one by one, or leave the corners out")
        }
        let configuration = configuration
        var pages = try await work { (deadline) throws(ServiceError) in
            try files.map { (upload) throws(ServiceError) in
                try Processing.newPage(upload, settings: settings, limits: configuration, deadline: deadline)
            }
        }
        for index in pages.indices { pages[index].id = try await scans.keepPage(files[index].bytes) }
        do {
            let (record, revision) = try await updateDocument(id) { (record) throws(ServiceError) in
                record.pages += pages
                try checkLimits(record)
            }
            metrics.framesProcessed(pages.count)
            return documentResponse(201, record, revision: revision)
        } catch {
            for page in pages { try? await scans.removePage(page.id) }
            throw error
        }
    }

    private func checkLimits(_ record: DocumentRecord) throws(ServiceError) {
        guard record.pages.count <= configuration.maximumDocumentPages else {
            throw ServiceError(413, "a document holds at most \(configuration.maximumDocumentPages) pages")
        }
        guard record.bytes <= configuration.maximumDocumentBytes else {
            throw ServiceError(413, "a document's images may take at most \(configuration.maximumDocumentBytes >> 20) MiB")
        }
    }

    /// PATCH: new corners, enhancement or rotation from the query; DELETE: the page goes.
    private func changePage(_ request: Request, _ pageID: String, of id: String) async throws(ServiceError) -> Response {
        let isDelete = request.method == .delete
        let settings = try PageSettings(Self.query(request))
        guard isDelete || !settings.isEmpty else {
            throw ServiceError(400, "send corners, enhance or rotation in the query to change the page")
        }
        let (record, revision) = try await updateDocument(id) { (record) throws(ServiceError) in
            guard let index = record.pages.firstIndex(where: { $0.id == pageID }) else {
                throw ServiceError(404, "document \(id) has no page \(pageID.prefix(40))")
            }
            if isDelete {
                record.pages.remove(at: index)
                return
            }
            var page = record.pages[index]
            if let quad = settings.corners {
                page.corners = try PageSettings.checked(quad, width: page.width, height: page.height)
                page.detected = false
            }
            page.enhance = settings.enhance ?? page.enhance
            page.rotation = settings.rotation ?? page.rotation
            record.pages[index] = page
        }
        if isDelete { try await scans.removePage(pageID) }
        return documentResponse(200, record, revision: revision)
    }

    /// PUT `?pages=id,id,…`: the same pages in a new order.
    private func reorder(_ request: Request, _ id: String) async throws(ServiceError) -> Response {
        guard let list = Self.query(request)["pages"] else {
            throw ServiceError(400, "send the new order as pages=ID,ID,… in the query, every page once")
        }
        let order = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let (record, revision) = try await updateDocument(id) { (record) throws(ServiceError) in
            guard order.count == record.pages.count, Set(order) == Set(record.pages.map(\.id)) else {
                throw ServiceError(
                    400, "pages must name each of the document's \(record.pages.count) pages once, in the new order")
            }
            let byID = Dictionary(uniqueKeysWithValues: record.pages.map { ($0.id, $0) })
            record.pages = order.compactMap { byID[$0] }
        }
        return documentResponse(200, record, revision: revision)
    }
}
