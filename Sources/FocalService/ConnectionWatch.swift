import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Time limits on what a client sends, and room for new connections at the connection cap.
///
/// A client that sends its request slowly holds a connection (and, with a body, a request) as
/// long as it likes when the only limit is an idle timeout between bytes: eight connections
/// sending a body byte a second stayed open past 70 s. So, as Apache's mod_reqtimeout does:
/// - a request's head must arrive whole within ``Limits/headTimeout`` of the connection's opening
///   or of the previous answer (a connection that sends no head in that time is closed);
/// - a body gets ``Limits/bodyTimeout`` seconds, and one more for each ``Limits/minimumBodyRate``
///   bytes it delivers; a body still short at its deadline is answered 408 and its connection
///   closed.
///
/// At the cap (``ConnectionRegistry/capacity``) a new connection is not left waiting in the
/// backlog, where a health probe would time out behind idle clients: the connection that has
/// waited longest for a request head is closed to make room, as nginx reuses idle keep-alive
/// connections, and failing that the one longest reading a body.
final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Taken from ``ServiceConfiguration``, where the defaults are.
    struct Limits: Sendable {
        /// Seconds a whole request head may take to arrive, counted from the connection's opening
        /// or the previous answer. Raising it keeps idle keep-alive connections longer.
        var headTimeout: Double
        /// Seconds a body has, before the extension below. Raising it lets slow uploads start.
        var bodyTimeout: Double
        /// Bytes a second a body must keep up: each that many bytes extend its deadline by a
        /// second. Lowering it lets slower uploads finish, and slow clients hold connections longer.
        var minimumBodyRate: Double
    }

    private let limits: Limits
    private let registry: ConnectionRegistry
    private var id: Int?
    /// Between a request's head and its end.
    private var readingBodySince: NIODeadline?
    private var bodyBytes = 0
    /// Requests whose answer has not ended yet (more than one when a client pipelines).
    private var unanswered = 0
    /// Whether an answer to the request being read has begun (a 401 sent before its body).
    private var answerStarted = false
    private var timer: Scheduled<Void>?

    init(limits: Limits, registry: ConnectionRegistry) {
        self.limits = limits
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { opened(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if id == nil { opened(context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { closed() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingBodySince = .now()
            bodyBytes = 0
            answerStarted = false
            unanswered += 1
            registry.update(id, .readingBody)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            readingBodySince = nil
            registry.update(id, .answering)
        }
        schedule(context: context)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational:
            if readingBodySince != nil { answerStarted = true }
        case .end:
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, readingBodySince == nil {
                registry.update(id, .awaitingHead)
                schedule(context: context)
            }
        default: break
        }
        context.write(data, promise: promise)
    }

    private func opened(context: ChannelHandlerContext) {
        id = registry.register(context.channel)
        schedule(context: context)
    }

    private func closed() {
        timer?.cancel()
        timer = nil
        if let id { registry.remove(id) }
        id = nil
    }

    /// The moment the connection is out of time in its present state, or nil while it is being
    /// answered (the worker pool's own deadline holds then).
    private var deadline: NIODeadline? {
        if let since = readingBodySince {
            let seconds = limits.bodyTimeout + Double(bodyBytes) / max(1, limits.minimumBodyRate)
            return since + .nanoseconds(Int64(min(seconds, 86_400) * 1e9))
        }
        guard unanswered == 0 else { return nil }
        return registry.since(id).map { $0 + .nanoseconds(Int64(limits.headTimeout * 1e9)) }
    }

    private func schedule(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        guard let deadline else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.expired(context: context)
        }
    }

    private func expired(context: ChannelHandlerContext) {
        guard let deadline = deadline else { return }
        // A body that kept up has moved its own deadline on since the timer was set.
        guard deadline <= .now() else { return schedule(context: context) }
        if readingBodySince != nil, !answerStarted {
            EarlyAnswer.send(
                context: context, status: .requestTimeout,
                reason: "the body arrived too slowly (less than \(Int(limits.minimumBodyRate)) bytes a second)")
        } else {
            context.close(promise: nil)
        }
    }
}

/// Every open connection of one server, and what each is doing, so that a new connection at the
/// cap can take the place of an idle one. Shared by the connections' ``ConnectionWatch``es, on
/// any event loop.
final class ConnectionRegistry: Sendable {
    enum State: Sendable {
        /// Open, between requests or part-way through a head: the first to be closed at the cap.
        case awaitingHead
        /// A head has arrived and its body is still coming.
        case readingBody
        /// The request is whole and being answered: never closed to make room.
        case answering
    }

    struct Entry {
        var channel: any Channel
        var state: State
        var since: NIODeadline
    }

    /// Connections kept open at once. A connection beyond it closes another (or, when every
    /// other is being answered, itself).
    let capacity: Int
    private let entries = Mutex<(next: Int, open: [Int: Entry])>((0, [:]))

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Adds a connection; at the cap, closes the connection longest awaiting a head (else the one
    /// longest reading a body; else this one).
    func register(_ channel: any Channel) -> Int {
        let (id, victim): (Int, (any Channel)?) = entries.withLock { state in
            let id = state.next
            state.next += 1
            state.open[id] = Entry(channel: channel, state: .awaitingHead, since: .now())
            guard state.open.count > capacity else { return (id, nil) }
            func oldest(_ wanted: State) -> (key: Int, value: Entry)? {
                state.open.filter { $0.key != id && $0.value.state == wanted }.min { $0.value.since < $1.value.since }
            }
            guard let shed = oldest(.awaitingHead) ?? oldest(.readingBody) else { return (id, channel) }
            state.open[shed.key] = nil
            return (id, shed.value.channel)
        }
        // Closed from the event loop's queue, never inline: closing a channel (this one, or
        // another on the same loop) while it is being activated tears down the server's async
        // wrapper before it has started, which NIO stops the process for.
        if let victim { victim.eventLoop.execute { victim.close(promise: nil) } }
        return id
    }

    func update(_ id: Int?, _ new: State) {
        guard let id else { return }
        entries.withLock { state in
            state.open[id]?.state = new
            state.open[id]?.since = .now()
        }
    }

    /// When the connection entered its present state.
    func since(_ id: Int?) -> NIODeadline? {
        guard let id else { return nil }
        return entries.withLock { $0.open[id]?.since }
    }

    func remove(_ id: Int) { entries.withLock { _ = $0.open.removeValue(forKey: id) } }
}
