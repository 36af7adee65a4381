import NIOCore
import NIOPosix
import Synchronization

/// A pool's queue is full: the caller should try again later (the server answers 503).
public struct BlockingWorkRefused: Error, Sendable {}

/// A fixed number of threads for blocking C work (SQLite, Cairo, libpng, file reads), so that
/// it never holds up an event loop or one of Swift's cooperative threads. With a `queueLimit`,
/// new work is refused once that many jobs are waiting, rather than let memory grow.
///
///     let image = try await pool.run { try decode(bytes) }
///
/// The process has one pool for storage (`BlockingPool.storage`); a frame pipeline has its own
/// for drawing, whose queue is bounded.
public final class BlockingPool: Sendable {
    /// The threads underneath, for libraries that take a NIO thread pool (Hummingbird's files).
    public let threads: NIOThreadPool
    private let admitted = Atomic<Int>(0)
    private let admissionLimit: Int?

    /// SQLite and file reads for the whole process: short calls, never refused. Four threads, so
    /// that a write waiting for another process's lock does not hold up every read.
    public static let storage = BlockingPool(threads: 4, queueLimit: nil)

    /// - Parameter queueLimit: jobs that may wait for a thread before more are refused; nil
    ///   never refuses.
    public init(threads: Int, queueLimit: Int?) {
        self.threads = NIOThreadPool(numberOfThreads: threads)
        self.threads.start()
        admissionLimit = queueLimit.map { threads + $0 }
    }

    /// Runs `body` on one of the threads and returns its result; throws `BlockingWorkRefused`
    /// when the queue is full, and the pool's own error once it has shut down.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let admissionLimit else { return try await threads.runIfActive(body) }
        let admittedNow = admitted.add(1, ordering: .relaxed).newValue
        defer { admitted.subtract(1, ordering: .relaxed) }
        guard admittedNow <= admissionLimit else { throw BlockingWorkRefused() }
        return try await threads.runIfActive(body)
    }

    /// `run` for work that throws one type of error: the pool's own failures (refused, shut
    /// down) become `failure`'s.
    public func run<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> T, orElse failure: @Sendable (any Error) -> Failure
    ) async throws(Failure) -> T {
        let result: Result<T, Failure>
        do {
            result = try await run { Result { () throws(Failure) in try body() } }
        } catch {
            throw failure(error)
        }
        return try result.get()
    }

    /// Lets queued work finish, then stops the threads.
    public func shutdown() async {
        try? await threads.shutdownGracefully()
    }
}

/// Stops a debug build when blocking work is about to run on an event loop, which would hold up
/// every connection on that loop. Every blocking helper calls it first; release builds skip it.
@inlinable
public func assertNotOnEventLoop(_ work: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    assert(MultiThreadedEventLoopGroup.currentEventLoop == nil, "\(work()) blocks, and must not run on an event loop", file: file, line: line)
}
