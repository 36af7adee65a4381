import MapGeometry
import NIOPosix
import Synchronization

/// Requests to a store, a few round trips under way at a time: a request made while
/// `maximumUnderWay` round trips are under way waits, and the requests that waited go together in
/// the next. Alone, a request has a round trip of its own; under load, one carries many, which
/// costs far less than a round trip each: one statement, network write and wake-up for many
/// requests on PostgreSQL, one hop to the storage threads on an MBTiles file (measured with wrk:
/// the round trip was most of a cached tile's cost).
final class RoundTripBatches<Request: Sendable, Answer: Sendable>: Sendable {
    /// Requests in one round trip at most.
    static var maximumBatch: Int { 64 }
    /// Round trips under way at once.
    let maximumUnderWay: Int

    /// What a waiting request is told: its answer, or that it is to send the next round trip.
    private enum Turn: Sendable {
        case answered(Result<Answer, CacheError>)
        case send
    }

    private struct Waiting {
        var request: Request
        var continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var underWay = 0
        var waiting: [Waiting] = []
    }

    private let state = Mutex(State())

    init(maximumUnderWay: Int) {
        self.maximumUnderWay = maximumUnderWay
    }

    /// The answer to `request`, had through `send`, which answers the requests it is given, in
    /// order, in one round trip. Whoever sends a round trip takes the waiting requests along,
    /// answers them, then hands the next round trip to the next request waiting.
    func answer(
        _ request: Request, send: @Sendable ([Request]) async throws(CacheError) -> [Answer]
    ) async throws(CacheError) -> Answer {
        let mayStart = state.withLock { state in
            guard state.underWay < maximumUnderWay else { return false }
            state.underWay += 1
            return true
        }
        let turn: Turn = mayStart ? .send : await withCheckedContinuation { continuation in
            let startsNow = state.withLock { state in
                guard state.underWay < maximumUnderWay else {
                    state.waiting.append(Waiting(request: request, continuation: continuation))
                    return false
                }
                state.underWay += 1
                return true
            }
            if startsNow { continuation.resume(returning: .send) }
        }
        switch turn {
        case .answered(let result):
            return try result.get()
        case .send:
            let along = state.withLock { state in
                let along = Array(state.waiting.prefix(Self.maximumBatch - 1))
                state.waiting.removeFirst(along.count)
                return along
            }
            let results: Result<[Answer], CacheError>
            do throws(CacheError) {
                results = .success(try await send([request] + along.map(\.request)))
            } catch {
                results = .failure(error)
            }
            // A round trip that failed because its sender was cancelled says nothing of the
            // others' requests: they wait again, first in line, for the next round trip.
            let cancelled = Task.isCancelled && (try? results.get()) == nil
            if !cancelled {
                for (index, waiting) in along.enumerated() {
                    waiting.continuation.resume(returning: .answered(results.map { $0[index + 1] }))
                }
            }
            let next = state.withLock { state -> Waiting? in
                if cancelled { state.waiting.insert(contentsOf: along, at: 0) }
                guard !state.waiting.isEmpty else {
                    state.underWay -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.continuation.resume(returning: .send)
            return try results.get()[0]
        }
    }
}

extension RoundTripBatches {
    /// Requests batched apart for each of NIO's shared event loops, one round trip under way at a
    /// time from each: a request made on a loop waits with that loop's, and is answered there.
    /// Requests made off the loops share one more.
    final class PerEventLoop: Sendable {
        private let loops: [ObjectIdentifier: RoundTripBatches]
        private let elsewhere = RoundTripBatches(maximumUnderWay: 1)

        init() {
            loops = Dictionary(uniqueKeysWithValues: MultiThreadedEventLoopGroup.singleton.makeIterator().map {
                (ObjectIdentifier($0), RoundTripBatches(maximumUnderWay: 1))
            })
        }

        /// The current event loop's batches, or those shared by the rest.
        var current: RoundTripBatches {
            MultiThreadedEventLoopGroup.currentEventLoop.flatMap { loops[ObjectIdentifier($0)] } ?? elsewhere
        }
    }
}

/// Cache lookups, batched: each tile is still one lookup statement.
typealias LookupBatches = RoundTripBatches<TileID, CacheLookup>
