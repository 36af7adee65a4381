import Foundation
import Synchronization

/// The pool is full: the caller should try again later (the server answers 503).
struct PoolOverloaded: Error {}

/// A fixed set of threads for blocking work (rendering, SQLite), kept off the event loops.
/// Each thread owns a value made by `makeWorkerState` (a renderer, say). The queue is bounded:
/// when `queueLimit` jobs are waiting, new work is refused rather than growing memory.
final class BlockingPool<WorkerState>: @unchecked Sendable {
    private struct State {
        var jobs: [(WorkerState) -> Void] = []
        var stopping = false
    }

    private let state = Mutex(State())
    private let wakeUp = NSCondition()
    private let queueLimit: Int

    init(threads: Int, queueLimit: Int, name: String, makeWorkerState: @escaping @Sendable () -> WorkerState) {
        self.queueLimit = queueLimit
        for index in 0..<threads {
            let thread = Thread { [self] in
                var worker = makeWorkerState()
                work(&worker)
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Runs `job` on a pool thread and returns its result; throws `PoolOverloaded` when full.
    func run<T: Sendable>(_ job: @escaping @Sendable (WorkerState) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = state.withLock { state -> Bool in
                guard !state.stopping, state.jobs.count < queueLimit else { return false }
                state.jobs.append { worker in continuation.resume(with: Result { try job(worker) }) }
                return true
            }
            guard accepted else {
                continuation.resume(throwing: PoolOverloaded())
                return
            }
            wakeUp.lock()
            wakeUp.signal()
            wakeUp.unlock()
        }
    }

    /// Lets the threads finish the queued jobs and end.
    func shutdown() {
        state.withLock { $0.stopping = true }
        wakeUp.lock()
        wakeUp.broadcast()
        wakeUp.unlock()
    }

    private func work(_ worker: inout WorkerState) {
        while true {
            let next: ((WorkerState) -> Void)?? = state.withLock { state in
                if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                return state.stopping ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let job)):
                job(worker)
            case .some(.none):
                return
            case .none:
                wakeUp.lock()
                if state.withLock({ $0.jobs.isEmpty && !$0.stopping }) { _ = wakeUp.wait(until: Date().addingTimeInterval(1)) }
                wakeUp.unlock()
            }
        }
    }
}
