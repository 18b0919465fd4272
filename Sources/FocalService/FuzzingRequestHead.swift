import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FuzzingEntryPoints {
    /// The key the request-head target's server accepts.
    static let fuzzKey = "fuzz-key-0123"

    /// A server with API keys on, as `focal serve --api-keys` builds it, whose router every
    /// request head is sent through.
    private static let keyedServer: FocalServer = {
        let file = "/tmp/focal-fuzz-keys-\(getpid())"
        _ = FileManager.default.createFile(atPath: file, contents: Data((fuzzKey + "\n").utf8))
        var configuration = ServiceConfiguration()
        configuration.apiKeys = try? APIKeys(path: file)
        unlink(file)
        configuration.workers = 1
        return FocalServer(configuration: configuration)
    }()
    private static let keyedResponder = keyedServer.makeRouter().buildResponder()

    /// A request head: the first line is the method and the request target (`POST //v1/detect`),
    /// each further line a header field (`Authorization: Bearer fuzz-key-0123`); the body is empty.
    /// The head goes through ``RequestHeadGuard`` as on the wire, then through the router of a
    /// server with API keys. Stops the process when the key check and the router disagree: a route
    /// other than health, metrics and the scanner page answered without the key, the key refused, or an open path
    /// asked for a key. Returns the guard's refusal, if any, and a server fault as an error.
    public static func requestHead(_ data: UnsafeRawBufferPointer) -> ServiceError? {
        guard let head = parseHead(String(decoding: data.prefix(16_384), as: UTF8.self)) else { return nil }
        if let (status, reason) = RequestHeadGuard.refusal(of: head, limits: .init(bodyBytes: 32 << 20)) {
            return ServiceError(Int(status.code), reason)
        }
        let handled = keyedServer.metrics.requestsAnswered
        let status = route(head)
        let target = head.path ?? ""
        // Judged apart from RequestPath, which the key check itself uses: whether an endpoint's
        // handler ran (it counts every answer), and the open paths as the API documents them.
        let handlerRan = keyedServer.metrics.requestsAnswered != handled
        let path = target.prefix { $0 != "?" }
        let isPageFile = path.hasPrefix("/scanner/") && path.count > 9 && !path.dropFirst(9).contains("/")
        let isOpen = ["/v1/health", "/v1/health/live", "/v1/health/ready", "/metrics", "/"].contains(path) || isPageFile
        let presentsKey =
            head.headerFields[values: .authorization].count == 1
            && head.headerFields[.authorization].map { value in
                let parts = value.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && parts[0].lowercased() == "bearer" && parts[1].trimmingSpaces == fuzzKey
            } == true
        if handlerRan, !presentsKey {
            fatalError("\(head.method) \(target) reached an endpoint without the key (answered \(status))")
        }
        if status == 401, presentsKey || isOpen {
            fatalError("\(head.method) \(target) was refused 401 \(presentsKey ? "with the key" : "on an open path")")
        }
        return status >= 500 ? ServiceError(status, "answered \(status)") : nil
    }

    private static func parseHead(_ text: String) -> HTTPRequest? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1)
        guard requestLine.count == 2, let method = HTTPRequest.Method(String(requestLine[0])) else { return nil }
        var fields = HTTPFields()
        for line in lines.prefix(64) {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            fields.append(HTTPField(name: name, value: String(line[line.index(after: colon)...].trimmingSpaces)))
        }
        return HTTPRequest(method: method, scheme: nil, authority: nil, path: String(requestLine[1]), headerFields: fields)
    }

    /// The status the keyed server's router answers `head` with (an empty body).
    private static func route(_ head: HTTPRequest) -> Int {
        let status = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        Task {
            let channel = EmbeddedChannel()
            let context = BasicRequestContext(
                source: ApplicationRequestContextSource(channel: channel, logger: Logger(label: "fuzz")))
            let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
            let response = try? await keyedResponder.respond(to: request, context: context)
            // Closing it breaks the channel's cycle with its pipeline (LeakSanitizer saw it).
            _ = try? channel.finish()
            status.store(Int(response?.status.code ?? 500), ordering: .relaxed)
            done.signal()
        }
        done.wait()
        return status.load(ordering: .relaxed)
    }
}
