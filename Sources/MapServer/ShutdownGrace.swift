import Logging
import ServiceLifecycle
import UnixSignals

/// How the server stops on SIGTERM or SIGINT. The first signal starts a graceful shutdown: no new
/// connections, and requests in flight finish. It lasts `period` at most; then, or at once on a
/// second signal, the services are cancelled, which closes every connection still open, so that
/// a client that never reads its answers cannot hold the process up.
struct ShutdownGrace {
    /// How long requests in flight have to finish after the first signal.
    static let period = Duration.seconds(10)

    let logger: Logger

    /// Runs `services` until they end, stopping them as signals come.
    func run(_ services: [any Service]) async throws {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let (graceBegins, beginGrace) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                var stopping = false
                for await signal in signals {
                    if stopping {
                        logger.info("\(signal), a second signal: closing the connections still open")
                        return
                    }
                    stopping = true
                    logger.info("\(signal): stopping; connections still open in \(Self.period.components.seconds) s are closed (a second signal closes them now)")
                    beginGrace.yield()
                    await group.triggerGracefulShutdown()
                }
            }
            tasks.addTask {
                for await _ in graceBegins {
                    guard (try? await Task.sleep(for: Self.period)) != nil else { return }
                    logger.info("closing the connections still open \(Self.period.components.seconds) s after the signal to stop")
                    return
                }
            }
            // Whichever ends first ends the rest: the group stopping of itself, a second signal,
            // or the grace period running out, which cancel the group and so close every
            // connection still open.
            try await tasks.next()
            tasks.cancelAll()
        }
    }
}
