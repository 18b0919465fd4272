import HTTPTypes
import Hummingbird
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The keys a client may present as `Authorization: Bearer <key>`, read from a file of one key
/// per line (blank lines and lines starting with `#` are skipped) and re-read on ``reload()``
/// (`focal serve` calls it on SIGHUP). Keys are never logged.
public final class APIKeys: Sendable {
    public let path: String
    private let keys: Mutex<[[UInt8]]>

    /// Reads the file; throws if it cannot be read or holds no key.
    public init(path: String) throws(ServiceError) {
        self.path = path
        keys = Mutex(try Self.read(path))
    }

    /// Re-reads the file. Keys are revoked by deleting their lines: a file that holds no key any
    /// more, or that is gone or unreadable, revokes every key (each request then gets 401) and
    /// the error says why, since a server that kept accepting keys its operator removed would be
    /// worse than one that refuses all until the file is right again.
    @discardableResult
    public func reload() -> Result<Int, ServiceError> {
        do {
            let fresh = try Self.read(path)
            keys.withLock { $0 = fresh }
            return .success(fresh.count)
        } catch {
            keys.withLock { $0 = [] }
            return .failure(error)
        }
    }

    public var count: Int { keys.withLock { $0.count } }

    /// Whether `presented` is one of the keys. Every key is compared, each in time that depends
    /// only on the lengths, so the answer's timing tells nothing about how much of a key matched.
    func accepts(_ presented: some Collection<UInt8>) -> Bool {
        let candidate = Array(presented)
        return keys.withLock { keys in
            var found: UInt8 = 0
            for key in keys { found |= Self.constantTimeEqual(key, candidate) }
            return found == 1
        }
    }

    /// 1 when equal, else 0, looking at every byte of the longer of the two.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> UInt8 {
        var difference = UInt(a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= UInt(x ^ y)
        }
        return difference == 0 ? 1 : 0
    }

    private static func read(_ path: String) throws(ServiceError) -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServiceError(500, "cannot read the API key file '\(path)'")
        }
        // A byte order mark (as some editors write) is not part of the first key.
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let keys = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingSpaces }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { Array($0.utf8) }
        guard !keys.isEmpty else { throw ServiceError(500, "the API key file '\(path)' holds no key") }
        return keys
    }
}

/// Refuses every request without a valid bearer key (401 with `WWW-Authenticate` and a JSON
/// error), but those for the open paths (``RequestPath/open``: health and metrics). The path is
/// read as the router reads it, through ``RequestPath``: a spelling that is not canonical is
/// refused with 400 here too, so no spelling reaches a route without passing the key check.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let keys: APIKeys

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let target = request.head.path ?? ""
        if let refusal = RequestPath.refusal(of: target) { return FocalServer.error(400, refusal) }
        if RequestPath.isOpen(target) { return try await next(request, context) }
        let challenge: HTTPFields = [.wwwAuthenticate: "Bearer realm=\"focal\""]
        guard let authorization = request.headers[.authorization] else {
            return FocalServer.error(401, "this server needs an API key: send Authorization: Bearer <key>", headers: challenge)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", keys.accepts(parts[1].trimmingSpaces.utf8) else {
            return FocalServer.error(401, "the API key is not valid", headers: challenge)
        }
        return try await next(request, context)
    }
}
