import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

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

    init(limits: Limits) { self.limits = limits }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if let (status, reason) = refusal(of: head) {
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
        if parserError == .headerOverflow {
            refuse(context: context, status: .requestHeaderFieldsTooLarge, reason: "the request's head is too large")
        } else {
            refuse(context: context, status: .badRequest, reason: "the request is not valid HTTP/1.1 (\(parserError))")
        }
    }

    private func refusal(of head: HTTPRequest) -> (HTTPResponse.Status, String)? {
        if let path = head.path, path.utf8.count > limits.uriBytes {
            return (.uriTooLong, "the request target is longer than \(limits.uriBytes) bytes")
        }
        let headerBytes = head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > limits.headerBytes {
            return (.requestHeaderFieldsTooLarge, "the request's headers are longer than \(limits.headerBytes) bytes")
        }
        let lengths = head.headerFields[values: .contentLength]
        if !lengths.isEmpty {
            // Several equal values are one length (RFC 9110); anything else is no length at all.
            guard Set(lengths).count == 1, let text = lengths.first, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
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
        let body = ServiceError.jsonBody(status: status.code, reason: reason)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        // A lingering close, as nginx does: only the sending side is shut at once, and what the
        // client still sends (the body it had started on) is read and dropped for a moment. A
        // full close with unread data would make the kernel answer with a reset, which can reach
        // the client before the 413 and take its place.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: Self.linger) { channel.close(promise: nil) }
        }
    }

    /// How long a refused connection's remaining input is read and dropped before it is closed.
    static let linger = TimeAmount.seconds(2)
}
