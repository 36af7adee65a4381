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
    /// uses is the caller's part.
    static func race<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async -> Outcome<T> {
        let (outcomes, report) = AsyncStream.makeStream(of: Outcome<T>.self)
        let work = Task {
            do { report.yield(.answered(.success(try await body()))) } catch { report.yield(.answered(.failure(error))) }
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            report.yield(.timedOut)
        }
        defer { timer.cancel() }
        var first = outcomes.makeAsyncIterator()
        let outcome = await first.next() ?? .answered(.failure(CancellationError()))
        if case .answered(.success) = outcome { return outcome }
        work.cancel()
        return outcome
    }
}
