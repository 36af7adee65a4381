import Logging
import ServiceLifecycle
import UnixSignals

/// How the server stops on SIGTERM or SIGINT: the first signal starts a graceful shutdown (no new
/// connections; requests in flight finish), which lasts `period` at most; then, or at once on a
/// second signal, every connection still open is closed, so a client that never reads its
/// answers cannot hold the process up.
struct ShutdownGrace {
    /// How long requests in flight have to finish after the first signal.
    static let period = Duration.seconds(10)

    let connections: OpenConnections
    let logger: Logger

    /// Runs `group` until it ends, shutting it down as signals come.
    func run(_ group: ServiceGroup) async throws {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                var closing: Task<Void, Never>?
                defer { closing?.cancel() }
                for await signal in signals {
                    guard closing == nil else {
                        logger.info("\(signal) again: closing the \(connections.count) connection(s) still open")
                        connections.closeAll()
                        return
                    }
                    logger.info("\(signal): stopping; connections still open in \(Self.period.components.seconds) s are closed (a second signal closes them now)")
                    await group.triggerGracefulShutdown()
                    closing = Task {
                        guard (try? await Task.sleep(for: Self.period)) != nil else { return }
                        logger.info("closing the \(connections.count) connection(s) still open after \(Self.period.components.seconds) s")
                        connections.closeAll()
                    }
                }
            }
            try await tasks.next()
            tasks.cancelAll()
        }
    }
}
