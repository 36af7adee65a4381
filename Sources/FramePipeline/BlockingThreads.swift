import NIOPosix
import Synchronization

/// The blocking threads' queue is full: the caller should try again later (the server answers 503).
public struct BlockingWorkRefused: Error, Sendable {}

/// A fixed number of threads for blocking work (Cairo, libpng, SQLite), so that it never holds
/// up an event loop or Swift's cooperative threads. With a `queueLimit`, new work is refused once
/// that many jobs are waiting, rather than let memory grow.
public final class BlockingThreads: Sendable {
    private let pool: NIOThreadPool
    private let admitted = Atomic<Int>(0)
    private let admissionLimit: Int?

    public init(threads: Int, queueLimit: Int?) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        admissionLimit = queueLimit.map { threads + $0 }
    }

    /// Runs `body` on one of the threads and returns its result; throws `BlockingWorkRefused`
    /// when the queue is full.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let admissionLimit else { return try await pool.runIfActive(body) }
        let admittedNow = admitted.add(1, ordering: .relaxed).newValue
        defer { admitted.subtract(1, ordering: .relaxed) }
        guard admittedNow <= admissionLimit else { throw BlockingWorkRefused() }
        return try await pool.runIfActive(body)
    }

    /// Lets queued work finish, then stops the threads.
    public func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
