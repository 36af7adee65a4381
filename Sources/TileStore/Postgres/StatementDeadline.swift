#if PostgreSQL
import NIOCore
import NIOPosix
import Synchronization

/// A statement's answer, or the end of the time it has, whichever comes first. The caller is
/// answered then without waiting for the statement to end: PostgresNIO 1.33 never answers a
/// statement sent on a connection the server has already closed (its backend killed between two
/// statements, say), so waiting for such a statement would never end.
enum StatementDeadline {
    enum Outcome<T: Sendable>: Sendable {
        case answered(Result<T, any Error>)
        case timedOut
    }

    /// Runs `body` in a task of its own, and answers with its result or, after `timeout`,
    /// `.timedOut`; a caller cancelled meanwhile is answered `CancellationError` at once. Either
    /// way `body`'s task is then cancelled and left to end when it can: closing the connection it
    /// uses is the caller's part. The deadline is an event loop's timer, which costs no thread a
    /// wake-up when it is cancelled (a sleeping task's cost a cold fill 5% of its processor time).
    static func race<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async -> Outcome<T> {
        let first = FirstOutcome<T>()
        let work = Task {
            do { first.settle(.answered(.success(try await body()))) } catch { first.settle(.answered(.failure(error))) }
        }
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(timeout)) { first.settle(.timedOut) }
        let outcome = await withTaskCancellationHandler {
            await first.outcome()
        } onCancel: {
            first.settle(.answered(.failure(CancellationError())))
        }
        timer.cancel()
        if case .answered(.success) = outcome { return outcome }
        work.cancel()
        return outcome
    }

    /// The first outcome settled, for the one caller waiting for it.
    private final class FirstOutcome<T: Sendable>: Sendable {
        private enum State {
            case waiting(CheckedContinuation<Outcome<T>, Never>?)
            case settled(Outcome<T>)
        }

        private let state = Mutex(State.waiting(nil))

        /// Settles the outcome, unless it is settled already.
        func settle(_ outcome: Outcome<T>) {
            let waiting = state.withLock { state -> CheckedContinuation<Outcome<T>, Never>?? in
                guard case .waiting(let continuation) = state else { return .none }
                state = .settled(outcome)
                return .some(continuation)
            }
            if case .some(.some(let continuation)) = waiting { continuation.resume(returning: outcome) }
        }

        func outcome() async -> Outcome<T> {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Outcome<T>? in
                    if case .settled(let outcome) = state { return outcome }
                    state = .waiting(continuation)
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}
#endif
