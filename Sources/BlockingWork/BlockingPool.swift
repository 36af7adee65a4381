import NIOCore
import NIOPosix
import Synchronization

/// A pool's queue, or the client's share of it, is full: the caller should try again later
/// (the server answers 503).
public struct BlockingWorkRefused: Error, Sendable {}

/// A fixed number of threads for blocking C work (SQLite, Cairo, libpng, file reads), so that
/// it never holds up an event loop or one of Swift's cooperative threads.
///
///     let image = try await pool.run { try decode(bytes) }
///
/// The process has one pool for storage (`BlockingPool.storage`), whose calls are short and never
/// refused. A frame pipeline has its own for drawing, and the server one for reading bodies:
/// those have a bounded queue, shared fairly between clients (`client`):
/// - while work waits, the next thread to come free takes the oldest waiting work of the next
///   client in turn, so one client's many jobs delay another's by at most one job each;
/// - a named client may have a quarter of the queue waiting (at least one job), and more only
///   while the queue is under half full; the queue holds at most `queueLimit` jobs, and work past
///   either is refused (`BlockingWorkRefused`), rather than let memory grow. So a client alone
///   may use half the queue, and never more, and once it is half full nobody grows past a
///   quarter: however one client floods, two others still find their quarter. Work for no client
///   in particular (a command's own frames) may fill the queue.
public final class BlockingPool: Sendable {
    /// Whom work is done for: the server sets each request's client address. Work with no
    /// client set (empty) shares one turn, and is not held to a client's share.
    @TaskLocal public static var client = ""

    /// The threads underneath, for libraries that take a NIO thread pool (Hummingbird's files).
    public let threads: NIOThreadPool
    private let queue: FairQueue?

    /// SQLite and file reads for the whole process: short calls, never refused. Four threads, so
    /// that a write waiting for another process's lock does not hold up every read.
    public static let storage = BlockingPool(threads: 4, queueLimit: nil)

    /// - Parameter queueLimit: jobs that may wait for a thread before more are refused, shared
    ///   fairly between clients; nil never refuses, and takes work in the order it comes.
    public init(threads: Int, queueLimit: Int?) {
        self.threads = NIOThreadPool(numberOfThreads: threads)
        self.threads.start()
        queue = queueLimit.map { FairQueue(threads: threads, limit: $0) }
    }

    /// Runs `body` on one of the threads and returns its result; throws `BlockingWorkRefused`
    /// when the queue, or the client's share of it, is full, `CancellationError` when the caller
    /// is cancelled while its work waits, and the pool's own error once it has shut down.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let queue else { return try await threads.runIfActive(body) }
        try await queue.admit(Self.client)
        defer { queue.finish() }
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

/// Who runs next on a pool with a bounded queue: as many jobs as threads run, and the rest
/// wait in a line a client, taken in turn (see `BlockingPool`).
private final class FairQueue: Sendable {
    private let threads: Int
    private let limit: Int
    /// The jobs one client may have waiting however full the queue is.
    private let clientShare: Int
    /// Half the queue: while fewer jobs wait, a client may have more than its share.
    private let halfFull: Int

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiting: [String: [Waiter]] = [:]
        /// Clients with waiting work, the next to run first.
        var turns: [String] = []
        var waitingCount = 0
        var nextID = 0
    }

    private let state = Mutex(State())

    init(threads: Int, limit: Int) {
        self.threads = threads
        self.limit = limit
        clientShare = max(1, limit / 4)
        halfFull = limit / 2
    }

    /// Returns once `client`'s job may run: at once when a thread is free and nobody waits.
    func admit(_ client: String) async throws {
        enum Admission { case now, refused, wait(Int) }
        let admission = state.withLock { state -> Admission in
            if state.running < threads, state.waitingCount == 0 {
                state.running += 1
                return .now
            }
            guard hasRoom(for: client, in: state) else { return .refused }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch admission {
        case .now: return
        case .refused: throw BlockingWorkRefused()
        case .wait(let id): try await wait(client, id: id)
        }
    }

    private func wait(_ client: String, id: Int) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Looked at again as the job joins the queue: since `admit` looked, others may
                // have joined, and the share must hold however their checks interleave; or every
                // running job may have finished, finding nobody waiting, and then nobody would
                // ever hand this job a thread: it takes a free one now.
                enum Joining { case runs, waits, refused(any Error) }
                let joining = state.withLock { state -> Joining in
                    if Task.isCancelled { return .refused(CancellationError()) }
                    if state.running < threads, state.waitingCount == 0 {
                        state.running += 1
                        return .runs
                    }
                    guard hasRoom(for: client, in: state) else { return .refused(BlockingWorkRefused()) }
                    if state.waiting[client, default: []].isEmpty { state.turns.append(client) }
                    state.waiting[client, default: []].append(Waiter(id: id, continuation: continuation))
                    state.waitingCount += 1
                    return .waits
                }
                switch joining {
                case .runs: continuation.resume()
                case .waits: break
                case .refused(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting[client]?.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.waiting[client]!.remove(at: index)
                state.waitingCount -= 1
                if state.waiting[client]!.isEmpty {
                    state.waiting[client] = nil
                    state.turns.removeAll { $0 == client }
                }
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Whether the queue, and `client`'s share of it, has room for one more waiting job: a
    /// client's quarter, or anything while the queue is under half full.
    private func hasRoom(for client: String, in state: State) -> Bool {
        guard state.waitingCount < limit else { return false }
        return client.isEmpty || state.waitingCount < halfFull || state.waiting[client, default: []].count < clientShare
    }

    /// Ends a job: its thread goes to the next client in turn, or is free.
    func finish() {
        let next = state.withLock { state -> Waiter? in
            guard !state.turns.isEmpty else {
                state.running -= 1
                return nil
            }
            let client = state.turns.removeFirst()
            let waiter = state.waiting[client]!.removeFirst()
            state.waitingCount -= 1
            if state.waiting[client]!.isEmpty { state.waiting[client] = nil } else { state.turns.append(client) }
            return waiter
        }
        next?.continuation.resume()
    }
}
