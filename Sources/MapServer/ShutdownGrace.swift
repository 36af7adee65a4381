import Logging
import ServiceLifecycle
import UnixSignals

/// How the server stops, on SIGTERM or SIGINT or when asked to (`requestStop`), both the same
/// way. The first request starts a graceful shutdown: no new connections, and requests in
/// flight finish. It lasts `period` at most; then, or at once on a second request, the services
/// are cancelled, which closes every connection still open, so that a client that never reads
/// its answers cannot hold the process up.
struct ShutdownGrace: Sendable {
    /// How long requests in flight have to finish after the first request to stop.
    static let period = Duration.seconds(10)

    let logger: Logger
    /// The requests to stop, each with what asked: a signal's name, or `requestStop`'s reason.
    private let requests: AsyncStream<String>
    private let request: AsyncStream<String>.Continuation

    init(logger: Logger) {
        self.logger = logger
        (requests, request) = AsyncStream.makeStream(of: String.self)
    }

    /// Asks the services `run` runs to stop, as a signal does; `reason` is logged.
    func requestStop(_ reason: String) {
        request.yield(reason)
    }

    /// Runs `services` until they end, stopping them as requests to stop come. Runs once.
    func run(_ services: [any Service]) async throws {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let (graceBegins, beginGrace) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                for await signal in signals { requestStop("\(signal)") }
            }
            tasks.addTask {
                var stopping = false
                for await reason in requests {
                    if stopping {
                        logger.info("\(reason), a second request to stop: closing the connections still open")
                        return
                    }
                    stopping = true
                    logger.info("\(reason): stopping; connections still open in \(Self.period.components.seconds) s are closed (a second signal closes them now)")
                    beginGrace.yield()
                    await group.triggerGracefulShutdown()
                }
            }
            tasks.addTask {
                for await _ in graceBegins {
                    guard (try? await Task.sleep(for: Self.period)) != nil else { return }
                    logger.info("closing the connections still open \(Self.period.components.seconds) s after the request to stop")
                    return
                }
            }
            // Whichever ends first ends the rest: the group stopping of itself, a second request,
            // or the grace period running out, which cancel the group and so close every
            // connection still open.
            try await tasks.next()
            tasks.cancelAll()
        }
    }
}
