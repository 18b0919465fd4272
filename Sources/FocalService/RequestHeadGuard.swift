import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// Judges each request by its head, before a byte of its body is read, as a reverse proxy
/// expects: a declared body over the limit gets 413 at once (and `Expect: 100-continue` gets
/// 100 only when the body will be taken), a URI or header section too long gets 414 or 431, and a
/// request HTTP cannot parse gets 400, each with a JSON error body. A refused request's connection
/// is closed, since its body is never used.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    struct Limits: Sendable {
        /// The largest body a request may declare.
        var bodyBytes: Int
        /// The longest request target. Default 8 KiB, as nginx's default large header buffer.
        var uriBytes = 8 * 1024
        /// The most bytes in all header fields together. Default 32 KiB.
        var headerBytes = 32 * 1024
    }

    private let limits: Limits
    /// True from a refused head to the end of its connection: nothing more of it is passed on.
    private var refused = false

    /// Watches the raw bytes for request lines, to tell an over-long target from over-long headers
    /// when the HTTP parser gives up on both alike.
    private let requestLines: RequestLineWatcher

    init(limits: Limits) {
        self.limits = limits
        requestLines = RequestLineWatcher(longest: limits.uriBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        try? pipeline.addHandler(requestLines, position: .first)
        if let converter = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(HTTP10ConnectionClose(), position: .before(converter))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if let (status, reason) = Self.refusal(of: head, limits: limits) {
                refuse(context: context, status: status, reason: reason)
                return
            }
            if head.headerFields[.expect]?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once refused, the rest of the input is being dropped: its errors are of no interest.
        if refused { return }
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if parserError == .headerOverflow, requestLines.sawLongRequestLine {
            refuse(context: context, status: .uriTooLong, reason: "the request target is longer than \(limits.uriBytes) bytes")
        } else if parserError == .headerOverflow {
            refuse(context: context, status: .requestHeaderFieldsTooLarge, reason: "the request's head is too large")
        } else if parserError == .unexpectedContentLength {
            // nginx too refuses a second Content-Length, even an equal one (RFC 9112 §6.3 lets a
            // server refuse it; the parser beneath already has).
            refuse(context: context, status: .badRequest, reason: "the request has more than one Content-Length")
        } else {
            refuse(context: context, status: .badRequest, reason: "the request is not valid HTTP/1.1 (\(parserError))")
        }
    }

    static func refusal(of head: HTTPRequest, limits: Limits) -> (HTTPResponse.Status, String)? {
        guard head.method != .connect else { return (.methodNotAllowed, "CONNECT is not served: this server is no proxy") }
        guard let path = head.path else { return (.badRequest, "the request has no target path") }
        if path.utf8.count > limits.uriBytes {
            return (.uriTooLong, "the request target is longer than \(limits.uriBytes) bytes")
        }
        // Routing and the API-key check both see only canonical paths (RequestPath).
        if let why = RequestPath.refusal(of: path) { return (.badRequest, why) }
        let headerBytes = head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > limits.headerBytes {
            return (.requestHeaderFieldsTooLarge, "the request's headers are longer than \(limits.headerBytes) bytes")
        }
        let lengths = head.headerFields[values: .contentLength]
        if !lengths.isEmpty {
            // The parser refuses a repeated Content-Length before this sees it; a list in one
            // field ("4, 4") is no length either.
            guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
            else { return (.badRequest, "the Content-Length header is not a number") }
            // Digits only: a value too long for UInt64 is over any limit.
            if UInt64(text).map({ $0 > UInt64(limits.bodyBytes) }) ?? true {
                return (.contentTooLarge, "the body is larger than \(limits.bodyBytes) bytes")
            }
        }
        if let expectation = head.headerFields[.expect], expectation.lowercased() != "100-continue" {
            return (.expectationFailed, "the only expectation this server meets is 100-continue")
        }
        return nil
    }

    private func refuse(context: ChannelHandlerContext, status: HTTPResponse.Status, reason: String) {
        refused = true
        EarlyAnswer.send(context: context, status: status, reason: reason)
    }
}

/// An answer sent by a channel handler, before (or instead of) the router: a JSON error, then the
/// connection closed, since what the client still sends of this request is not read.
enum EarlyAnswer {
    static func send(context: ChannelHandlerContext, status: HTTPResponse.Status, reason: String) {
        let body = ServiceError.jsonBody(status: status.code, reason: reason)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        context.write(NIOAny(HTTPResponsePart.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
        // A lingering close, as nginx does: only the sending side is shut at once, and what the
        // client still sends (the body it had started on) is read and dropped for a moment. A
        // full close with unread data would make the kernel answer with a reset, which can reach
        // the client before the answer and take its place.
        let channel = context.channel
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        }
    }

    /// How long a refused connection's remaining input is read and dropped before it is closed.
    static let linger = TimeAmount.seconds(2)
}

/// Notes, from the raw bytes before the HTTP parser, whether a line shaped like a request line
/// (`METHOD SP target`) ran past the longest target allowed: the parser reports a target and a
/// header field too long with one error, and they deserve 414 and 431.
final class RequestLineWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let longest: Int
    private var lineLength = 0
    /// Whether the current line so far is an upper-case token (nil: not yet known).
    private var tokenSoFar: Bool? = nil
    private var startsLikeRequest = false
    private(set) var sawLongRequestLine = false

    init(longest: Int) { self.longest = longest }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        // Line by line (memchr finds the ends): only a line's first bytes are looked at one by
        // one, to tell whether it starts like a request line, so a 32 MB body costs a scan for
        // newlines and no more.
        buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                let newline = memchr(base + start, 10, bytes.count - start).map { UnsafeRawPointer($0) - base }
                let end = newline ?? bytes.count
                var index = start
                while index < end, tokenSoFar != false, !startsLikeRequest {
                    classify(bytes[index])
                    index += 1
                }
                lineLength += end - start
                if startsLikeRequest, lineLength > longest { sawLongRequestLine = true }
                guard let newline else { break }
                lineLength = 0
                tokenSoFar = nil
                startsLikeRequest = false
                start = newline + 1
            }
        }
        context.fireChannelRead(data)
    }

    /// One more of the line's first bytes: an upper-case token so far, then a space, is a request
    /// line's start (`GET /…`); header lines have a colon before any space.
    private func classify(_ byte: UInt8) {
        if byte == 32 {
            startsLikeRequest = tokenSoFar == true
            tokenSoFar = false
        } else {
            tokenSoFar = (65...90).contains(byte)
        }
    }
}

/// An HTTP/1.0 request is answered and its connection closed unless it asked to be kept alive
/// (RFC 9112 §9.3); the HTTP types beneath the router no longer carry the version, so a
/// `Connection: close` on the head tells the server.
final class HTTP10ConnectionClose: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive, head.version.major == 1, head.version.minor == 0 {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }
}
