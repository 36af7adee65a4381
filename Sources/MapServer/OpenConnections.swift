import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Counts the server's open connections and admits new ones while there are fewer than `limit`,
/// so that clients can never take every descriptor the process has.
final class OpenConnections: Sendable {
    let limit: Int
    private let state = Mutex(State())

    private struct State {
        var open = 0
        var refusedSinceReport = 0
        var lastReport = Date.distantPast
    }

    /// How often a refusal is written to the log at most; the count covers the ones between.
    private static let reportInterval: TimeInterval = 10

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { state.withLock { $0.open } }

    /// Counts the connection in until it closes; false (and a log line now and then) when the
    /// server is full.
    func admit(_ channel: any Channel, logger: Logger) -> Bool {
        let (admitted, report) = state.withLock { state -> (Bool, Int?) in
            if state.open < limit {
                state.open += 1
                return (true, nil)
            }
            state.refusedSinceReport += 1
            guard Date().timeIntervalSince(state.lastReport) >= Self.reportInterval else { return (false, nil) }
            defer { (state.refusedSinceReport, state.lastReport) = (0, Date()) }
            return (false, state.refusedSinceReport)
        }
        if let report {
            logger.warning("refused \(report) connection(s): \(limit) are open, the limit (--max-connections and the descriptor limit)")
        }
        guard admitted else { return false }
        channel.closeFuture.whenComplete { [self] _ in state.withLock { $0.open -= 1 } }
        return true
    }
}

/// A connection beyond the limit: answered 503 as soon as it opens, then closed, unread.
final class RefusedConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    private let problem: HTTPProblem
    private var answered = false

    init(problem: HTTPProblem) {
        self.problem = problem
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context)
        context.fireChannelActive()
    }

    /// What the client sends is never read.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func answer(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let (head, body) = problem.http1Answer
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
