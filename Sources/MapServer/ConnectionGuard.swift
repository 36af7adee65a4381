import NIOCore
import NIOHTTP1

/// Keeps one HTTP/1 connection within `ConnectionLimits`, and answers a client's framing
/// mistakes as such:
/// - a request head that is not in, whole, within `headerTimeout` of the connection being ready
///   for it closes the connection (slow headers, idle kept-alive connections, blank lines);
/// - a body not in within `bodyTimeout` of its head gets 408, then the connection is closed;
/// - a client that reads none of its answer for `writeTimeout` is closed;
/// - a malformed request (broken chunked body, bad Content-Length, oversized header) gets 400
///   or 431 with a JSON error, never a 500, then the connection is closed;
/// - a request `RequestHeadRules` refuses gets its answer after the answers due before it, then
///   the connection is closed;
/// - a request with a body that asks for it gets `100 Continue` when its turn comes;
/// - the last answer before the connection closes (the client asked, the request was refused,
///   or the server is stopping) says `Connection: close`.
///
/// While the server works on an answer no timer runs: the server bounds its own work.
///
/// It sits after `CachedTileFastPath`, so it sees the requests passed on to the router and their
/// answers whole; the fast path tells it of each answer it makes itself (`CachedTileFastPath.Answer`).
/// It keeps the client's `ClientPresence`.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let limits: ConnectionLimits
    /// Requests passed on whose answers have not ended.
    private var awaitingAnswers = 0
    /// While a request's body is being read: when its head came, and whether it is chunked.
    private var bodyRead: (since: NIODeadline, chunked: Bool)?
    /// Since when the connection has been ready for a request head with no answer pending.
    private var idleSince = NIODeadline.now()
    /// Since when the client has read nothing of what it was sent, while that is so.
    private var unwritableSince: NIODeadline?
    /// Set once the connection is to close after the answer in progress (a refused request).
    private var closeAfterAnswer = false
    /// Whether each request passed on, oldest first, lets the connection stay open after its answer.
    private var keepAlive = CircularBuffer<Bool>()
    /// Set once the server is stopping: Hummingbird closes the connection after the answer in progress.
    private var quiescing = false
    /// A request refused on its head, answered once the answers due before it have ended.
    private var pendingRefusal: HTTPProblem?
    /// Whether the request being read waits for `100 Continue` until the answers before it end.
    private var continueOwed = false
    /// When a refused connection is closed even if its answer never comes.
    private var closeBy: NIODeadline?
    private var finished = false
    private var timer: Scheduled<Void>?
    /// Whether the client is still there, for the router's work on its requests to see.
    private var presence: ClientPresence?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        presence = ClientPresence.watch(context.channel)
        idleSince = .now()
        scheduleCheck(context, at: idleSince + TimeAmount(limits.headerTimeout))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        presence?.closed(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finished = true
        timer?.cancel()
        timer = nil
        presence?.closed(context.channel)
        context.fireChannelInactive()
    }

    // MARK: - Requests and answers

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            awaitingAnswers += 1
            keepAlive.append(head.isKeepAlive)
            let chunked = head.headers[canonicalForm: "transfer-encoding"].contains { $0.lowercased() == "chunked" }
            bodyRead = (.now(), chunked)
            let hasBody = chunked || (head.headers["Content-Length"].first.flatMap(Int.init) ?? 0) > 0
            if hasBody, RequestHeadRules.asksToContinue(head) {
                continueOwed = true
                if awaitingAnswers == 1 { sendContinue(context) }
            }
        case .body:
            break
        case .end:
            bodyRead = nil
            continueOwed = false
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let answer = event as? CachedTileFastPath.Answer {
            switch answer {
            case .begun:
                awaitingAnswers += 1
                return
            case .ended:
                awaitingAnswers = max(0, awaitingAnswers - 1)
            case .made:
                break
            }
            if awaitingAnswers == 0 { idleSince = .now() }
            answerWaiting(context)
            return
        }
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        if let event = event as? ChannelEvent, event == .inputClosed { presence?.inputClosed() }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where isLastAnswer:
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .head, .body:
            context.write(data, promise: promise)
            return
        case .end:
            // A request that asked to close is the connection's last: what follows it is not answered.
            if keepAlive.popFirst() == false {
                awaitingAnswers = 0
                context.writeAndFlush(data, promise: promise)
                context.close(promise: nil)
                return
            }
        }
        // Hummingbird's own 400 for a broken request behind others answers one it was never shown.
        awaitingAnswers = max(0, awaitingAnswers - 1)
        if awaitingAnswers == 0 { idleSince = .now() }
        guard closeAfterAnswer, awaitingAnswers == 0, pendingRefusal == nil else {
            context.write(data, promise: promise)
            answerWaiting(context)
            return
        }
        context.writeAndFlush(data, promise: promise)
        context.close(promise: nil)
    }

    /// Whether the answer now beginning is the connection's last.
    private var isLastAnswer: Bool {
        quiescing || keepAlive.first == false || (closeAfterAnswer && awaitingAnswers <= 1 && pendingRefusal == nil)
    }

    /// What waited for the answers before it: a refusal once none is due, or `100 Continue`
    /// once only the answer to the request being read is.
    private func answerWaiting(_ context: ChannelHandlerContext) {
        if awaitingAnswers == 0, let problem = pendingRefusal {
            pendingRefusal = nil
            answer(problem, context: context)
        } else if awaitingAnswers == 1, continueOwed, bodyRead != nil {
            sendContinue(context)
        }
    }

    /// Tells the client to send the body it is holding back.
    private func sendContinue(_ context: ChannelHandlerContext) {
        continueOwed = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        unwritableSince = context.channel.isWritable ? nil : .now()
        context.fireChannelWritabilityChanged()
    }

    // MARK: - Framing mistakes

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !closeAfterAnswer else { return }  // already refused; what follows is noise
        if let problem = error as? HTTPProblem {
            refuse()
            if awaitingAnswers == 0 { answer(problem, context: context) } else { pendingRefusal = problem }
            return
        }
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let problem = HTTPProblem.malformedRequest(parserError, inChunkedBody: bodyRead?.chunked ?? false)
        refuse()
        if bodyRead != nil, awaitingAnswers > 0 {
            // The router is reading this request's body: it answers with the problem.
            bodyRead = nil
            context.fireErrorCaught(problem)
        } else if awaitingAnswers == 0 {
            answer(problem, context: context)
        } else {
            // A broken request behind answers still to come: Hummingbird answers 400 after them.
            context.fireErrorCaught(error)
        }
    }

    /// Answers a request the router never saw, then closes the connection.
    private func answer(_ problem: HTTPProblem, context: ChannelHandlerContext) {
        let (head, body) = problem.http1Answer
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    // MARK: - Timers

    /// One timer per connection, set for the earliest deadline; a state change moves no timer,
    /// the timer finds the new deadline when it fires.
    private func scheduleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            check(context)
        }
    }

    private enum Overdue {
        case head, body, reading, closing
    }

    private func check(_ context: ChannelHandlerContext) {
        guard !finished else { return }
        let now = NIODeadline.now()
        var deadlines: [(NIODeadline, Overdue)] = []
        if let bodyRead, awaitingAnswers > 0 { deadlines.append((bodyRead.since + TimeAmount(limits.bodyTimeout), .body)) }
        if awaitingAnswers == 0 { deadlines.append((idleSince + TimeAmount(limits.headerTimeout), .head)) }
        if let unwritableSince { deadlines.append((unwritableSince + TimeAmount(limits.writeTimeout), .reading)) }
        if let closeBy { deadlines.append((closeBy, .closing)) }
        // Nothing to wait for (an answer is being worked on): look again after the shortest limit.
        guard let (deadline, overdue) = deadlines.min(by: { $0.0 < $1.0 }) else {
            scheduleCheck(context, at: now + TimeAmount(limits.headerTimeout))
            return
        }
        guard deadline <= now else {
            scheduleCheck(context, at: deadline)
            return
        }
        switch overdue {
        case .head, .reading:
            context.close(promise: nil)
        case .body:
            // The router is waiting for the body: it answers 408, and the connection closes after.
            bodyRead = nil
            refuse()
            context.fireErrorCaught(HTTPProblem.bodyTimeout(limits.bodyTimeout))
            scheduleCheck(context, at: closeBy!)
        case .closing:
            context.close(promise: nil)
        }
    }

    /// Marks the connection to close after the answer in progress, and at the latest soon after.
    private func refuse() {
        closeAfterAnswer = true
        closeBy = .now() + Self.refusalGrace
    }

    /// How long the answer to a refused request may take before the connection closes anyway.
    private static let refusalGrace = TimeAmount.seconds(5)
}
