import Foundation
import MapGeometry
import NIOCore
import NIOPosix
import Synchronization

/// How a tile was come by.
public enum TileFill: Sendable, Equatable {
    /// Already cached and fresh: no upstream request.
    case cached
    /// Fetched from the upstream and stored.
    case fetched
    /// Expired, revalidated with a 304; the cached bytes stay.
    case revalidated
    /// Expired and the upstream failed, so the old tile is served (stale-if-error).
    case stale(String)
    /// Expired, but within the stale-while-revalidate window: served at once from the cache,
    /// while one revalidation runs in the background (begun now, or already under way).
    case staleRevalidating
    /// Expired, within the stale-while-revalidate window, and served at once from the cache, but
    /// `TileStore.backgroundRevalidationLimit` revalidations were under way already, so none was
    /// begun for it: a later request tries again.
    case staleRevalidationSkipped
    /// Fetched from the upstream while the cache was unavailable: kept in memory, not stored.
    case unstored(String)
    /// Not available at all; drawn grey.
    case missing(MissingTile)

    /// Whether the tile is an expired copy, served as it is: not to be kept in memory as if fresh.
    public var isStale: Bool {
        switch self {
        case .stale, .staleRevalidating, .staleRevalidationSkipped: true
        case .cached, .fetched, .revalidated, .unstored, .missing: false
        }
    }
}

/// One tile as `TileStore.tile(_:)` supplies it: how it was come by, and its bytes, as they are
/// stored, when there are any to draw or serve.
public struct SuppliedTile: Sendable, Equatable {
    public var fill: TileFill
    /// The bytes and freshness; nil when the tile is missing.
    public var stored: StoredTile?

    public init(fill: TileFill, stored: StoredTile?) {
        self.fill = fill
        self.stored = stored
    }

    static func missing(_ tile: TileID, _ reason: MissingTile.Reason) -> SuppliedTile {
        SuppliedTile(fill: .missing(MissingTile(tile: tile, reason: reason)), stored: nil)
    }
}

/// A fetch that failed, or whose tile could not be stored, as remembered for a while.
private struct FailedFetch {
    /// Why the tile is missing, when there is no copy to serve.
    var reason: MissingTile.Reason
    /// Why an expired copy is served instead.
    var staleMessage: String
    var until: Date

    init(reason: MissingTile.Reason, staleMessage: String, until: Date) {
        self.reason = reason
        self.staleMessage = staleMessage
        self.until = until
    }

    /// A tile whose fetch came to nothing because the cache failed: a write says "not stored".
    init(cacheError error: CacheError, until: Date) {
        if error.isWriteFailure {
            self.init(reason: .notStored(error.description), staleMessage: "not stored: \(error.description)", until: until)
        } else {
            self.init(reason: .unreadable(error.description), staleMessage: error.description, until: until)
        }
    }

    func supplied(_ tile: TileID, copy: StoredTile?) -> SuppliedTile {
        guard let copy else { return .missing(tile, reason) }
        return SuppliedTile(fill: .stale(staleMessage), stored: copy)
    }
}

/// An optional size limit for a cache. When it is passed, the least recently used tiles are
/// purged in batches of a tenth of the limit (as Route-Me's cache did).
public struct CacheCapacity: Hashable, Sendable {
    public var maxTiles: Int?
    public var maxBytes: Int?

    public init(maxTiles: Int? = nil, maxBytes: Int? = nil) {
        self.maxTiles = maxTiles
        self.maxBytes = maxBytes
    }
}

/// Supplies one source's tiles, as their bytes are stored: from its cache backend (an MBTiles
/// file or a shared PostgreSQL database), fetching or revalidating a tile that is missing or
/// expired. A cache that cannot be written (read-only, or opened for reading) is only read:
/// fetched tiles are reported as not stored, and nothing else is written to it. While a shared
/// cache is unavailable, fetched tiles are kept in memory instead.
///
///     tile(id) -> one cache lookup -> fresh? done
///                                  -> else one fetch a tile, shared by every asker
///                                     (and, on a shared cache, by every instance)
///                                     -> validate -> store -> done
///
/// A caller that takes a tile stale while it is revalidated (`tile(_:staleWhileRevalidate:)`)
/// is answered an expired copy at once, within its window past the expiry, while the tile's one
/// fetch runs in the background; at most `backgroundRevalidationLimit` such fetches run at once.
///
/// It never decodes a tile and never blocks its caller: whoever draws a tile decodes it.
public final class TileStore: Sendable {
    /// Tiles fetched while the cache was unavailable: 256 of them, within 32 MiB.
    static let unstoredCapacity = (tiles: 256, bytes: 32 << 20)
    /// Revalidations begun for stale-while-revalidate answers that may run at once: a few screens
    /// of a map's tiles. An expired tile asked for while this many run is answered stale without
    /// one (`TileFill.staleRevalidationSkipped`), so a flood of distinct expired tiles grows
    /// neither tasks nor the fetcher's queue.
    public static let backgroundRevalidationLimit = 64

    public let source: TileSource
    /// The cache's name (`TileCacheBackend.name`): a file's path, or a database and style.
    public let cacheName: String
    private let cache: any TileCacheBackend
    /// Encoded tiles fetched while the cache was unavailable, served from here until evicted
    /// or stale; they are never written to the cache later.
    private let unstoredTiles = LRUCache<TileID, StoredTile>(
        capacity: TileStore.unstoredCapacity.tiles, maxBytes: TileStore.unstoredCapacity.bytes, cost: { $0.data.count }
    )
    private let fetcher: TileFetcher?
    private let capacity: CacheCapacity?
    private let upstreamWait: Duration?
    private let clock: @Sendable () -> Date
    private let observer: (@Sendable (TileFill, Duration) -> Void)?
    /// The fetches under way, one a tile, each awaited by everyone asking for its tile.
    private let fetches = Mutex(FetchesUnderWay())
    /// Tiles whose last fetch failed, or could not be stored: until when they are not asked
    /// for again, and why.
    private let failedFetches = Mutex<[TileID: FailedFetch]>([:])
    /// The first failure to write what the upstream sent.
    private let firstWriteFailure = Mutex<CacheError?>(nil)
    private let upkeep = Mutex(Upkeep())
    /// Whether a capacity check is running: a store that finds one running leaves it be.
    private let checkingCapacity = Atomic<Bool>(false)

    /// The fetches under way, and how many of them were begun in the background.
    private struct FetchesUnderWay {
        var byTile: [TileID: SharedFetch] = [:]
        /// Those begun for a stale-while-revalidate answer, which nobody waited for.
        var inBackground = 0
    }

    /// Tiles used and stored since the upkeep last wrote them down.
    private struct Upkeep {
        var usedTiles: Set<TileID> = []
        var storesSinceCapacityCheck = 0
        /// Whether a tile was stored since the last flush, so the metadata needs refreshing.
        var storedSinceFlush = false
    }

    /// - Parameters:
    ///   - fetcher: the upstream; nil keeps the store offline (cache only).
    ///   - upstreamWait: how long `tile(_:)` waits for the upstream; past it the tile is supplied
    ///     without its fetch (a stale copy, or missing), while the fetch goes on to fill the
    ///     cache. Nil waits for the fetch's own deadline.
    ///   - observer: told of every tile supplied and how long it took, for metrics.
    ///   - clock: the current time; tests move it to expire tiles.
    public init(
        source: TileSource, cache: any TileCacheBackend, fetcher: TileFetcher? = nil, capacity: CacheCapacity? = nil,
        upstreamWait: Duration? = nil, observer: (@Sendable (TileFill, Duration) -> Void)? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.source = source
        self.cache = cache
        cacheName = cache.name
        self.fetcher = fetcher
        self.capacity = capacity
        self.upstreamWait = upstreamWait
        self.observer = observer
        self.clock = clock
    }

    // MARK: - Supplying tiles

    /// A tile, cached and fresh, fetched, revalidated, or stale, or why it is missing: the one
    /// way a tile is had. One cache lookup; when the tile is missing or expired and there is an
    /// upstream, one fetch, shared with every other caller asking for the tile meanwhile, who
    /// look in the cache no more.
    ///
    /// - Parameter staleWhileRevalidate: seconds past its expiry during which an expired copy is
    ///   answered at once (`TileFill.staleRevalidating`) while the tile's fetch, a conditional
    ///   request, goes on in the background; the copy stays if that fails. 0 (a frame being
    ///   drawn) waits for the fetch, as a copy past the window does.
    public func tile(_ id: TileID, staleWhileRevalidate window: TimeInterval = 0) async -> SuppliedTile {
        let started = ContinuousClock.now
        let supplied = await supply(id, staleWindow: window)
        // A tile stored now was marked used as it was stored.
        if supplied.stored != nil, supplied.fill != .fetched { noteUse(id) }
        observer?(supplied.fill, ContinuousClock.now - started)
        return supplied
    }

    /// Why the cache cannot be used now, or nil when it can (`TileCacheBackend.unavailability()`).
    public func cacheUnavailability() async -> Unavailability? {
        await cache.unavailability()
    }

    /// Records that a tile was drawn from memory, without asking the cache: its use orders
    /// least-recently-used purging, and it counts as a cached tile.
    public func noteMemoryHit(_ id: TileID) {
        noteUse(id)
        observer?(.cached, .zero)
    }

    private func supply(_ id: TileID, staleWindow: TimeInterval) async -> SuppliedTile {
        let now = clock()
        var found: CacheLookup
        // A fetch under way brings the tile fresher than the cache has it: its askers look no
        // further, and wait for it unless the copy it began with may be answered meanwhile.
        if fetcher != nil, let shared = fetches.withLock({ $0.byTile[id] }) {
            if let copy = shared.copy, copy.freshness?.isWithinStaleWindow(staleWindow, at: now) == true {
                return SuppliedTile(fill: .staleRevalidating, stored: copy)
            }
            return await result(of: shared, for: id)
        }
        if let unstored = unstoredTiles.value(for: id) {
            found = CacheLookup(stored: unstored)
        } else {
            do throws(CacheError) {
                found = try await cache.lookup(id, at: now)
            } catch .unavailable where fetcher != nil {
                // The upstream stands in for the cache until it is back.
                found = CacheLookup(stored: nil)
            } catch {
                return .missing(id, .unreadable(error.description))
            }
        }
        // A damaged copy is no copy at all.
        if let stored = found.stored, let damage = damage(in: stored) {
            found = CacheLookup(stored: nil, unusableReason: damage, isKnownMissing: found.isKnownMissing)
        }
        let copy = found.stored
        let isFresh = copy?.isFresh(at: now) ?? false
        guard let fetcher else {
            guard let copy else { return .missing(id, found.unusableReason.map { .undecodable($0) } ?? .notCached) }
            return SuppliedTile(fill: isFresh ? .cached : .stale("offline"), stored: copy)
        }
        if let copy, isFresh { return SuppliedTile(fill: .cached, stored: copy) }
        if found.isKnownMissing {
            guard let copy else { return .missing(id, .notFoundUpstream) }
            return SuppliedTile(fill: .stale("the upstream answered 404 less than \(Int(fetcher.policy.missingTileMemory)) s ago"), stored: copy)
        }
        if let failure = failedFetches.withLock({ $0[id].flatMap { $0.until > now ? $0 : nil } }) {
            return failure.supplied(id, copy: copy)
        }
        if let copy, copy.freshness?.isWithinStaleWindow(staleWindow, at: now) == true {
            let revalidating = revalidateInBackground(id, copy: copy, fetcher: fetcher, at: now)
            return SuppliedTile(fill: revalidating ? .staleRevalidating : .staleRevalidationSkipped, stored: copy)
        }
        let shared = fetches.withLock { underWay in
            if let shared = underWay.byTile[id] { return shared }
            return beginFetch(id, copy: copy, fetcher: fetcher, at: now, inBackground: false, in: &underWay)
        }
        return await result(of: shared, for: id)
    }

    /// Makes sure the tile's fetch is under way, for an answer that did not wait for it: begins
    /// one unless one is under way already. False when none is, and none was begun, because
    /// `backgroundRevalidationLimit` such fetches are under way.
    private func revalidateInBackground(_ id: TileID, copy: StoredTile, fetcher: TileFetcher, at now: Date) -> Bool {
        fetches.withLock { underWay in
            if underWay.byTile[id] != nil { return true }
            guard underWay.inBackground < Self.backgroundRevalidationLimit else { return false }
            _ = beginFetch(id, copy: copy, fetcher: fetcher, at: now, inBackground: true, in: &underWay)
            return true
        }
    }

    /// Begins the tile's one fetch, in a task of its own, and lists it under way until it has
    /// stored what came. Call with the fetches' lock held, when none is under way for the tile.
    private func beginFetch(
        _ id: TileID, copy: StoredTile?, fetcher: TileFetcher, at now: Date, inBackground: Bool, in underWay: inout FetchesUnderWay
    ) -> SharedFetch {
        let shared = SharedFetch(copy: copy) { [self] answer in
            await fetchAndStore(id, copy: copy, fetcher: fetcher, at: now) { supplied in
                // Gone before its askers hear, so that a later asker looks at the cache afresh.
                fetches.withLock { underWay in
                    underWay.byTile[id] = nil
                    if inBackground { underWay.inBackground -= 1 }
                }
                answer(supplied)
            }
        }
        underWay.byTile[id] = shared
        if inBackground { underWay.inBackground += 1 }
        return shared
    }

    /// What a fetch under way brings, or the copy it began with when the caller stops waiting.
    private func result(of shared: SharedFetch, for id: TileID) async -> SuppliedTile {
        let copy = shared.copy
        guard let wait = upstreamWait else { return await shared.result() ?? stopped(id, copy: copy) }
        guard let answer = await shared.result(within: wait) else {
            let reason = "the upstream did not answer within \(wait.components.seconds) s; the tile is cached when it does"
            guard let copy else { return .missing(id, .fetchFailed(reason)) }
            return SuppliedTile(fill: .stale(reason), stored: copy)
        }
        return answer
    }

    /// Why a stored tile is not a whole image of a tile's size (cut short, damaged on disk, or of
    /// another size), if it is not: such a copy is fetched again, or drawn grey and reported,
    /// never served. A header read and a CRC or end-marker check: no pixel is decoded.
    private func damage(in stored: StoredTile) -> String? {
        do throws(TileImageError) {
            try source.tileDecoder.validate(stored.data)
            return nil
        } catch {
            return error.description
        }
    }

    /// What a caller that stopped waiting (it was cancelled) is told.
    private func stopped(_ id: TileID, copy: StoredTile?) -> SuppliedTile {
        guard let copy else { return .missing(id, .fetchFailed("the request was cancelled while the tile was fetched")) }
        return SuppliedTile(fill: .stale("the request was cancelled while the tile was fetched"), stored: copy)
    }

    /// Takes this process's turn to fetch the tile (on a shared cache, after any other instance
    /// fetching it), fetches it, revalidating an expired copy, stores what came and `answer`s
    /// with it. The turn ends after the answer: the tile is in the cache by then, and waiting
    /// instances are told so as it is stored.
    private func fetchAndStore(
        _ id: TileID, copy: StoredTile?, fetcher: TileFetcher, at now: Date, answer: @Sendable (SuppliedTile) -> Void
    ) async {
        var turn = await cache.fetchTurn(for: id, at: now)
        if case .stored(let stored) = turn, damage(in: stored) != nil { turn = .fetch(release: {}) }
        switch turn {
        case .stored(let stored):
            // Stored by another fill meanwhile.
            answer(SuppliedTile(fill: .cached, stored: stored))
        case .fetch(let release):
            let validators = copy?.freshness.map {
                CachedValidators(etag: $0.etag, lastModified: $0.lastModified, lifetime: $0.expiresAt.timeIntervalSince($0.fetchedAt))
            }
            let outcome = await fetcher.fetch(id, from: source, validators: validators, clock: clock)
            answer(await settle(id, outcome: outcome, copy: copy, policy: fetcher.policy))
            await release()
        }
    }

    /// Stores what the upstream said, and turns it into what the caller is told. Nothing is
    /// written for a failed fetch, and every write is a transaction of its own, so a good
    /// cached tile is never replaced by a failure. A failed fetch, or a tile that could not be
    /// stored, is remembered for `failedFetchMemory`, so the upstream is not asked for the tile
    /// again meanwhile.
    private func settle(_ id: TileID, outcome: FetchOutcome, copy: StoredTile?, policy: FetchPolicy) async -> SuppliedTile {
        let now = clock()
        let until = now.addingTimeInterval(policy.failedFetchMemory)
        var failure: FailedFetch?
        let supplied: SuppliedTile
        do throws(CacheError) {
            switch outcome {
            case .fetched(let data, let freshness):
                let stored = StoredTile(data: data, freshness: freshness)
                do throws(CacheError) {
                    try await cache.store(data, for: id, freshness: freshness)
                    unstoredTiles.remove(id)
                    await noteStore()
                    supplied = SuppliedTile(fill: .fetched, stored: stored)
                } catch .unavailable(let cache, let reason) {
                    firstWriteFailure.withLock { $0 = $0 ?? .unavailable(cache: cache, reason: reason) }
                    unstoredTiles.insert(stored, for: id)
                    supplied = SuppliedTile(fill: .unstored(reason), stored: stored)
                }
            case .notModified(let freshness):
                try await cache.updateFreshness(freshness, for: id)
                let renewed = copy.map { copy in
                    StoredTile(data: copy.data, freshness: TileFreshness(
                        etag: freshness.etag ?? copy.freshness?.etag, lastModified: freshness.lastModified ?? copy.freshness?.lastModified,
                        expiresAt: freshness.expiresAt, fetchedAt: freshness.fetchedAt
                    ))
                }
                supplied = SuppliedTile(fill: .revalidated, stored: renewed)
            case .notFound:
                try await cache.markMissing(id, until: now.addingTimeInterval(policy.missingTileMemory))
                supplied = copy.map { SuppliedTile(fill: .stale("the upstream now answers 404"), stored: $0) } ?? .missing(id, .notFoundUpstream)
            case .failed(let message):
                let failed = FailedFetch(reason: .fetchFailed(message), staleMessage: message, until: until)
                failure = failed
                supplied = failed.supplied(id, copy: copy)
            }
        } catch {
            if error.isWriteFailure { firstWriteFailure.withLock { $0 = $0 ?? error } }
            let failed = FailedFetch(cacheError: error, until: until)
            failure = failed
            supplied = failed.supplied(id, copy: copy)
        }
        failedFetches.withLock { failures in
            // Forgotten failures are dropped now and then, so the table stays small.
            if failures.count >= 1_000 { failures = failures.filter { $0.value.until > now } }
            failures[id] = failure
        }
        return supplied
    }

    /// How many of `ids` are cached and fresh now; tiles with no freshness record (generated
    /// fixtures, or another tool's) never expire. Nothing counts when the cache cannot be read.
    public func freshTileCount(in ids: [TileID]) async -> Int {
        (try? await cache.freshTileCount(in: ids, at: clock())) ?? 0
    }

    /// The first time something the upstream sent could not be written to the cache (the
    /// disk is full, say), if it has happened: a seed stops there, as every further tile
    /// would be fetched only to be thrown away.
    public var writeFailure: CacheError? { firstWriteFailure.withLock { $0 } }

    // MARK: - Upkeep

    private func noteUse(_ id: TileID) {
        upkeep.withLock { _ = $0.usedTiles.insert(id) }
    }

    /// Counts a store, and checks the capacity every few stores (a check counts the whole cache).
    private func noteStore() async {
        let interval = max(1, min(32, (capacity?.maxTiles ?? 320) / 10))
        let due = upkeep.withLock { upkeep -> Bool in
            upkeep.storedSinceFlush = true
            upkeep.storesSinceCapacityCheck += 1
            return capacity != nil && upkeep.storesSinceCapacityCheck >= interval
        }
        // The tile is stored: a purge that fails now is tried again at the next check or flush.
        if due { try? await enforceCapacity() }
    }

    /// Purges least-recently-used tiles until the cache is within its capacity. One check at a
    /// time: a check asked for while one runs is left to it.
    private func enforceCapacity() async throws(CacheError) {
        guard let capacity, checkingCapacity.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { checkingCapacity.store(false, ordering: .releasing) }
        upkeep.withLock { $0.storesSinceCapacityCheck = 0 }
        await flushUsage()
        while true {
            let statistics = try await cache.statistics(at: clock())
            let tracked = statistics.tileCount - statistics.untrackedCount
            if let maxTiles = capacity.maxTiles, tracked > maxTiles {
                try await cache.purgeLeastRecentlyUsed(tracked - maxTiles + max(1, maxTiles / 10))
            } else if let maxBytes = capacity.maxBytes, statistics.totalBytes > maxBytes, tracked > 0 {
                guard try await cache.purgeLeastRecentlyUsed(max(1, tracked / 10)) > 0 else { return }
            } else {
                return
            }
        }
    }

    /// Writes the tiles' last use, purges down to the capacity, and writes the MBTiles metadata
    /// if tiles were stored since the last flush. Call after a batch of work.
    public func flush() async throws(CacheError) {
        await cache.lookAtStorage()
        await flushUsage()
        // Between checks the cache may run a few stores over its capacity; a batch ends within it.
        if upkeep.withLock({ $0.storesSinceCapacityCheck > 0 }) { try await enforceCapacity() }
        let stored = upkeep.withLock { upkeep in
            defer { upkeep.storedSinceFlush = false }
            return upkeep.storedSinceFlush
        }
        guard stored else { return }
        do {
            try await cache.refreshMetadata(name: source.title, attribution: source.tileSet.attribution)
        } catch {
            upkeep.withLock { $0.storedSinceFlush = true }
            throw error
        }
    }

    private func flushUsage() async {
        let used = upkeep.withLock { upkeep in
            defer { upkeep.usedTiles.removeAll() }
            return upkeep.usedTiles
        }
        guard !used.isEmpty else { return }
        // Use times only order purging; losing them to a busy database costs nothing else.
        try? await cache.touch(Array(used), at: clock())
    }

    /// Stops the fetches under way, those in the background too (their askers are told, and a
    /// stale copy stays as it was), and waits for them to end.
    public func shutdown() async {
        for fetch in fetches.withLock({ Array($0.byTile.values) }) { await fetch.stop() }
    }
}

/// One fetch of a tile and everyone waiting for it. The fetch runs in a task of its own, so that
/// it goes on to fill the cache after its askers have stopped waiting; each asker's wait ends
/// when the fetch answers, or when the asker is cancelled.
private final class SharedFetch: Sendable {
    private let task: Task<Void, Never>
    private let waiters: Waiters
    /// The cache's copy of the tile as the fetch began, if it had one: stale, or it would not
    /// have been fetched.
    let copy: StoredTile?

    /// Starts `work`, which answers once, with the tile, and may go on to tidy up after it.
    init(copy: StoredTile?, _ work: @escaping @Sendable (_ answer: @escaping @Sendable (SuppliedTile) -> Void) async -> Void) {
        let waiters = Waiters()
        self.waiters = waiters
        self.copy = copy
        task = Task { await work { waiters.finish(with: $0) } }
    }

    /// The fetch's result; nil when the calling task is cancelled first, or `wait` passes first.
    func result(within wait: Duration? = nil) async -> SuppliedTile? {
        await waiters.result(within: wait)
    }

    /// Cancels the fetch and waits for it to end.
    func stop() async {
        task.cancel()
        await task.value
    }

    /// The result, once there is one, and the continuations of those waiting for it.
    private final class Waiters: Sendable {
        private let state = Mutex(State())

        private struct State {
            var result: SuppliedTile?
            var waiting: [Int: CheckedContinuation<SuppliedTile?, Never>] = [:]
            /// Waiters that stopped waiting before they were registered.
            var gone: Set<Int> = []
            var nextWaiter = 0
        }

        func finish(with result: SuppliedTile) {
            let waiting = state.withLock { state in
                state.result = result
                defer { state.waiting.removeAll() }
                return Array(state.waiting.values)
            }
            for continuation in waiting { continuation.resume(returning: result) }
        }

        /// The result; nil once the caller is cancelled or `wait` has passed. The wait is an
        /// event loop's timer: a sleeping task a wait cost a cold fill a timer thread's wake-ups.
        func result(within wait: Duration?) async -> SuppliedTile? {
            let waiter = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            let timer = wait.map { wait in
                MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(wait)) { self.stopWaiting(waiter) }
            }
            defer { timer?.cancel() }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> SuppliedTile?? in
                        if let result = state.result { return .some(result) }
                        if Task.isCancelled || state.gone.remove(waiter) != nil { return .some(nil) }
                        state.waiting[waiter] = continuation
                        return .none
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                stopWaiting(waiter)
            }
        }

        /// Answers `waiter` nil, now if it is waiting, else as it comes to wait.
        private func stopWaiting(_ waiter: Int) {
            let continuation = state.withLock { state in
                guard state.result == nil else { return CheckedContinuation<SuppliedTile?, Never>?.none }
                guard let continuation = state.waiting.removeValue(forKey: waiter) else {
                    state.gone.insert(waiter)
                    return nil
                }
                return continuation
            }
            continuation?.resume(returning: nil)
        }
    }
}
