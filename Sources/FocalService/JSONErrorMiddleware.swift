import HTTPTypes
import Hummingbird

/// Every error the router or Hummingbird raises, answered with the service's JSON error body: an
/// unknown path is 404, a known path with a method it does not serve is 405 with `Allow`, and
/// any other error keeps its status (500 for errors without one, with no detail for the client).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Paths split into components; a component starting with ':' matches any one component.
    let routes: [(components: [Substring], methods: [HTTPRequest.Method])]

    init(routes: [(path: String, methods: [HTTPRequest.Method])]) {
        self.routes = routes.map { ($0.path.split(separator: "/"), $0.methods) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = methods(for: request.uri.path)
            guard !allowed.isEmpty else { return FocalServer.error(404, "no such endpoint: see docs/openapi.yaml") }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            return FocalServer.error(
                405, "\(request.method.rawValue) is not allowed here; use \(allow)", headers: [.allow: allow])
        } catch let error as HTTPError {
            return FocalServer.error(Int(error.status.code), error.body ?? error.status.reasonPhrase, headers: error.headers)
        } catch {
            serviceLog.error("\(request.method.rawValue) \(request.uri.path) failed: \(error)")
            return FocalServer.error(500, "the server failed to answer this request; its log has the details")
        }
    }

    private func methods(for path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/")
        return routes.filter { route in
            route.components.count == components.count
                && zip(route.components, components).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
        }.flatMap(\.methods)
    }
}
