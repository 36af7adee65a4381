import Foundation
import ImageCodec
import MapGeometry
import Synchronization

/// A tile that could not be drawn, and why. The frame shows it as plain grey.
public struct MissingTile: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The cache has no such tile (and it was not fetched: offline, or no upstream).
        case notCached
        /// The upstream says it has no such tile (404), recently enough to believe it.
        case notFoundUpstream
        /// The upstream could not supply it; the message is safe to show.
        case fetchFailed(String)
        /// The cache holds bytes that are not a decodable image.
        case undecodable(String)
        /// The cache could not be read.
        case unreadable(String)
        /// The tile was fetched but could not be written to the cache (the disk is full, say).
        case notStored(String)

        /// Whether trying to get the tile failed: its fetch, or storing what was fetched. Any
        /// other missing tile was never there to be had: not cached while offline, not on the
        /// upstream, or unreadable or undecodable in the cache.
        public var isFailure: Bool {
            switch self {
            case .fetchFailed, .notStored: return true
            case .notCached, .notFoundUpstream, .undecodable, .unreadable: return false
            }
        }
    }

    public var tile: TileID
    public var reason: Reason

    public init(tile: TileID, reason: Reason) {
        self.tile = tile
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .notCached: return "\(tile) (not cached)"
        case .notFoundUpstream: return "\(tile) (not found upstream)"
        case .fetchFailed(let message): return "\(tile) (fetch failed: \(message))"
        case .undecodable(let message): return "\(tile) (undecodable: \(message))"
        case .unreadable(let message): return "\(tile) (unreadable: \(message))"
        case .notStored(let message): return "\(tile) (not stored: \(message))"
        }
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

    func fill(for tile: TileID, hadCopy: Bool) -> TileFill {
        hadCopy ? .stale(staleMessage) : .missing(MissingTile(tile: tile, reason: reason))
    }
}

/// The outcome of asking for one tile to draw.
public enum TileLookup: Sendable {
    case image(RasterImage)
    case missing(MissingTile)
}

/// What filling one tile came to.
public enum TileFill: Sendable, Equatable {
    /// Already cached and fresh: no upstream request.
    case cached
    /// Fetched from the upstream and stored.
    case fetched
    /// Expired, revalidated with a 304; the cached bytes stay.
    case revalidated
    /// Expired and the upstream failed, so the old tile is served (stale-if-error).
    case stale(String)
    /// Fetched from the upstream while the cache was unavailable: kept in memory, not stored.
    case unstored(String)
    /// Not available at all; drawn grey.
    case missing(MissingTile)
}

/// Where a decoded tile came from: the cache (`TileCacheBackend.name`) and the tile address.
public struct DecodedTileKey: Hashable, Sendable {
    public var cache: String
    public var tile: TileID

    public init(cache: String, tile: TileID) {
        self.cache = cache
        self.tile = tile
    }
}

/// How much memory decoded tiles may take: at most `tiles` of them and `bytes` of pixels,
/// whichever comes first. A 256-pixel tile is 256 KiB decoded, a 512-pixel (retina) one 1 MiB.
public struct DecodedTileBudget: Hashable, Sendable {
    public var tiles: Int
    public var bytes: Int

    public init(tiles: Int, bytes: Int) {
        self.tiles = tiles
        self.bytes = bytes
    }
}

extension LRUCache where Key == DecodedTileKey, Value == RasterImage {
    /// A memory of decoded tiles within `budget`, each tile costing its pixels' bytes.
    public convenience init(capacity budget: DecodedTileBudget) {
        self.init(capacity: budget.tiles, maxBytes: budget.bytes, cost: { $0.byteCount })
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

/// Serves decoded tiles of one source: from memory, else from its cache backend (an MBTiles file
/// or a shared PostgreSQL database), and fills the cache from the upstream when a tile is
/// missing or expired. A cache that cannot be written (read-only, or opened for reading) is only
/// read: fetched tiles are reported as not stored, and nothing else is written to it. While a
/// shared cache is unavailable, fetched tiles are kept in memory instead.
///
///     request -> decoded-tile LRU -> cache backend (fresh?) -> upstream -> validate -> store -> serve
///
/// Safe to share between threads. Concurrent requests for one tile share one upstream fetch, and
/// on a shared cache, so do other instances' (`TileCacheBackend.takeFetchTurn`).
public final class TileStore: @unchecked Sendable {
    /// How many decoded tiles stay in memory by default: 128 tiles of 256 KiB each is 32 MiB,
    /// and 32 MiB holds 32 retina tiles.
    public static let defaultMemoryCapacity = DecodedTileBudget(tiles: 128, bytes: 32 << 20)

    /// Tiles fetched while the cache was unavailable: 256 of them, within 32 MiB.
    static let unstoredCapacity = (tiles: 256, bytes: 32 << 20)

    public let source: TileSource
    /// The cache's name (`TileCacheBackend.name`): a file's path, or a database and style.
    public let cacheName: String
    private let cache: any TileCacheBackend
    private let decodedTiles: LRUCache<DecodedTileKey, RasterImage>
    /// Encoded tiles fetched while the cache was unavailable, served until it is back.
    private let unstoredTiles = LRUCache<TileID, StoredTile>(
        capacity: TileStore.unstoredCapacity.tiles, maxBytes: TileStore.unstoredCapacity.bytes, cost: { $0.data.count }
    )
    private let fetcher: TileFetcher?
    private let capacity: CacheCapacity?
    private let clock: @Sendable () -> Date
    private let waiters = Mutex<[TileID: [@Sendable (TileFill) -> Void]]>([:])
    /// Tiles whose last fetch failed, or could not be stored: until when they are not asked
    /// for again, and why.
    private let failedFetches = Mutex<[TileID: FailedFetch]>([:])
    /// The first failure to write what the upstream sent.
    private let firstWriteFailure = Mutex<CacheError?>(nil)
    /// Guards the upkeep state below, and serialises flushes and capacity checks.
    private let upkeepLock = NSLock()
    /// Guarded by `upkeepLock`: tiles used since the last flush, and stores since the last capacity check.
    private var usedTiles: Set<TileID> = []
    private var storesSinceCapacityCheck = 0
    /// Whether a tile was stored since the last flush, so the metadata needs refreshing.
    private var storedSinceFlush = false

    /// - Parameters:
    ///   - fetcher: the upstream; nil keeps the store offline (cache only).
    ///   - clock: the current time; tests move it to expire tiles.
    public init(source: TileSource, cache: any TileCacheBackend, decodedTiles: LRUCache<DecodedTileKey, RasterImage>,
                fetcher: TileFetcher? = nil, capacity: CacheCapacity? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.source = source
        self.cache = cache
        cacheName = cache.name
        self.decodedTiles = decodedTiles
        self.fetcher = fetcher
        self.capacity = capacity
        self.clock = clock
    }

    // MARK: - Drawing

    /// The decoded tile as the cache holds it now, or why it is missing. Never fetches.
    public func tile(_ id: TileID) -> TileLookup {
        let key = DecodedTileKey(cache: cacheName, tile: id)
        if let image = decodedTiles.value(for: key) {
            recordUse(id)
            return .image(image)
        }
        let data: Data
        do throws(CacheError) {
            let stored: Data?
            if let unstored = unstoredTiles.value(for: id) { stored = unstored.data } else { stored = try cache.tileData(for: id) }
            guard let stored else {
                return .missing(MissingTile(tile: id, reason: .notCached))
            }
            data = stored
        } catch .unusableTile(_, _, let reason) {
            return .missing(MissingTile(tile: id, reason: .undecodable(reason)))
        } catch {
            return .missing(MissingTile(tile: id, reason: .unreadable(error.description)))
        }
        do {
            let image = try source.tileDecoder.decode(data)
            decodedTiles.insert(image, for: key)
            recordUse(id)
            return .image(image)
        } catch {
            return .missing(MissingTile(tile: id, reason: .undecodable(error.description)))
        }
    }

    /// A tile's stored bytes and freshness, for serving it as it is; nil when not stored, when
    /// what is stored cannot be an image (text, say), or when the cache is unavailable and the
    /// tile was not fetched meanwhile.
    public func storedTile(_ id: TileID) throws(CacheError) -> StoredTile? {
        if let unstored = unstoredTiles.value(for: id) { return unstored }
        let stored: StoredTile?
        do throws(CacheError) {
            stored = try cache.storedTile(id)
        } catch .unavailable {
            return nil
        }
        if stored != nil { recordUse(id) }
        return stored
    }

    // MARK: - Filling

    /// Makes sure a tile is cached and fresh, fetching or revalidating it when needed.
    /// `completion` runs once, on any thread.
    public func fill(_ id: TileID, completion: @escaping @Sendable (TileFill) -> Void) {
        let now = clock()
        let local: CachedTileState
        do throws(CacheError) {
            if let unstored = unstoredTiles.value(for: id) {
                local = CachedTileState(isHeld: true, freshness: unstored.freshness, isKnownMissing: false)
            } else {
                local = try cache.state(of: id, at: now)
            }
        } catch .unavailable where fetcher != nil {
            // The upstream stands in for the cache until it is back.
            local = CachedTileState(isHeld: false, freshness: nil, isKnownMissing: false)
        } catch {
            completion(.missing(MissingTile(tile: id, reason: .unreadable(error.description))))
            return
        }
        // Tiles with no freshness record (generated fixtures, or another tool's) never expire.
        let expired = local.isHeld && (local.freshness.map { !$0.isFresh(at: now) } ?? false)
        let recentFailure = failedFetches.withLock { failures in failures[id].flatMap { $0.until > now ? $0 : nil } }
        switch (local.isHeld, expired, fetcher) {
        case (true, false, _):
            completion(.cached)
            return
        case (true, true, nil):
            completion(.stale("offline"))
            return
        case (false, _, nil):
            completion(.missing(MissingTile(tile: id, reason: .notCached)))
            return
        case (false, _, _) where local.isKnownMissing:
            completion(.missing(MissingTile(tile: id, reason: .notFoundUpstream)))
            return
        case (true, true, _) where local.isKnownMissing:
            completion(.stale("the upstream answered 404 less than \(Int(fetcher?.policy.missingTileMemory ?? 0)) s ago"))
            return
        case (_, _, _?) where recentFailure != nil:
            completion(recentFailure!.fill(for: id, hadCopy: local.isHeld))
            return
        case (_, _, let fetcher?):
            let first = waiters.withLock { waiters -> Bool in
                waiters[id, default: []].append(completion)
                return waiters[id]!.count == 1
            }
            guard first else { return }
            // A fill of this tile may have stored it and let its waiters go between the look
            // above and this one becoming first: then there is nothing to fetch.
            if holdsFreshCopy(of: id) {
                finishFill(of: id, with: .cached)
                return
            }
            let validators = expired ? local.freshness.map {
                CachedValidators(etag: $0.etag, lastModified: $0.lastModified, lifetime: $0.expiresAt.timeIntervalSince($0.fetchedAt))
            } : nil
            // Another instance sharing the cache may be fetching the tile: wait for it.
            cache.takeFetchTurn(for: id, at: now) { [self] turn in
                switch turn {
                case .stored:
                    finishFill(of: id, with: .cached)
                case .fetch(let release):
                    fetcher.fetch(id, from: source, validators: validators, clock: clock) { [self] outcome in
                        let fill = settle(id, outcome: outcome, hadCopy: local.isHeld)
                        release()
                        finishFill(of: id, with: fill)
                    }
                }
            }
        }
    }

    /// Tells everyone waiting for `id` how its fill came out.
    private func finishFill(of id: TileID, with fill: TileFill) {
        let callbacks = waiters.withLock { $0.removeValue(forKey: id) ?? [] }
        for callback in callbacks { callback(fill) }
    }

    /// Whether the cache holds `id` and it is fresh now. False when the cache cannot be read.
    private func holdsFreshCopy(of id: TileID) -> Bool {
        freshTileCount(in: [id]) == 1
    }

    /// How many of `ids` are cached and fresh now; tiles with no freshness record (generated
    /// fixtures, or another tool's) never expire. Nothing counts when the cache cannot be read.
    public func freshTileCount(in ids: [TileID]) -> Int {
        (try? cache.freshTileCount(in: ids, at: clock())) ?? 0
    }

    /// Fills several tiles at once (each once). The cache is read on the calling thread.
    public func fill(_ ids: [TileID]) async -> [TileID: TileFill] {
        await withTaskGroup(of: (TileID, TileFill).self) { group in
            for id in Set(ids) { group.addTask { (id, await self.fill(id)) } }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// Fills a tile and waits, without blocking a thread.
    public func fill(_ id: TileID) async -> TileFill {
        await withCheckedContinuation { continuation in
            fill(id) { continuation.resume(returning: $0) }
        }
    }

    /// The first time something the upstream sent could not be written to the cache (the
    /// disk is full, say), if it has happened: a seed stops there, as every further tile
    /// would be fetched only to be thrown away.
    public var writeFailure: CacheError? { firstWriteFailure.withLock { $0 } }

    /// Stores what the upstream said, and turns it into what the caller is told. Nothing is
    /// written for a failed fetch, and every write is a transaction of its own, so a good
    /// cached tile is never replaced by a failure. A failed fetch, or a tile that could not be
    /// stored, is remembered for `failedFetchMemory`, so the upstream is not asked for the tile
    /// again meanwhile.
    private func settle(_ id: TileID, outcome: FetchOutcome, hadCopy: Bool) -> TileFill {
        let now = clock()
        let until = now.addingTimeInterval(fetcher?.policy.failedFetchMemory ?? 0)
        var failure: FailedFetch?
        let fill: TileFill
        do {
            switch outcome {
            case .fetched(let data, let image, let freshness):
                do throws(CacheError) {
                    try store(data, decoded: image, freshness: freshness, for: id)
                    fill = .fetched
                } catch .unavailable(let cache, let reason) {
                    firstWriteFailure.withLock { $0 = $0 ?? .unavailable(cache: cache, reason: reason) }
                    unstoredTiles.insert(StoredTile(data: data, freshness: freshness), for: id)
                    decodedTiles.insert(image, for: DecodedTileKey(cache: cacheName, tile: id))
                    fill = .unstored(reason)
                }
            case .notModified(let freshness):
                try cache.updateFreshness(freshness, for: id)
                fill = .revalidated
            case .notFound:
                try cache.markMissing(id, until: now.addingTimeInterval(fetcher?.policy.missingTileMemory ?? 0))
                fill = hadCopy ? .stale("the upstream now answers 404") : .missing(MissingTile(tile: id, reason: .notFoundUpstream))
            case .failed(let message):
                let failed = FailedFetch(reason: .fetchFailed(message), staleMessage: message, until: until)
                failure = failed
                fill = failed.fill(for: id, hadCopy: hadCopy)
            }
        } catch {
            if error.isWriteFailure { firstWriteFailure.withLock { $0 = $0 ?? error } }
            let failed = FailedFetch(cacheError: error, until: until)
            failure = failed
            fill = failed.fill(for: id, hadCopy: hadCopy)
        }
        failedFetches.withLock { failures in
            // Forgotten failures are dropped now and then, so the table stays small.
            if failures.count >= 1_000 { failures = failures.filter { $0.value.until > now } }
            failures[id] = failure
        }
        return fill
    }

    /// Stores a fetched tile and keeps it decoded.
    private func store(_ data: Data, decoded image: RasterImage, freshness: TileFreshness, for id: TileID) throws(CacheError) {
        try cache.store(data, for: id, freshness: freshness)
        unstoredTiles.remove(id)
        decodedTiles.insert(image, for: DecodedTileKey(cache: cacheName, tile: id))
        // The tile is stored: a purge that fails now is tried again at the next check or flush.
        try? withUpkeep { () throws(CacheError) in
            storedSinceFlush = true
            try noteStore()
        }
    }

    /// Counts a store, and checks the capacity every few stores (a check counts the whole cache).
    private func noteStore() throws(CacheError) {
        guard let capacity else { return }
        storesSinceCapacityCheck += 1
        let interval = max(1, min(32, (capacity.maxTiles ?? 320) / 10))
        guard storesSinceCapacityCheck >= interval else { return }
        try enforceCapacity()
    }

    /// Purges least-recently-used tiles until the cache is within its capacity.
    private func enforceCapacity() throws(CacheError) {
        guard let capacity else { return }
        storesSinceCapacityCheck = 0
        flushUsage()
        while true {
            let statistics = try cache.statistics(at: clock())
            let tracked = statistics.tileCount - statistics.untrackedCount
            if let maxTiles = capacity.maxTiles, tracked > maxTiles {
                try cache.purgeLeastRecentlyUsed(tracked - maxTiles + max(1, maxTiles / 10))
            } else if let maxBytes = capacity.maxBytes, statistics.totalBytes > maxBytes, tracked > 0 {
                guard try cache.purgeLeastRecentlyUsed(max(1, tracked / 10)) > 0 else { return }
            } else {
                return
            }
        }
    }

    // MARK: - Upkeep

    /// Writes the tiles' last use, purges down to the capacity, and writes the MBTiles metadata
    /// if tiles were stored since the last flush. Call after a batch of work.
    public func flush() throws(CacheError) {
        try withUpkeep { () throws(CacheError) in
            flushUsage()
            // Between checks the cache may run a few stores over its capacity; a batch ends within it.
            if storesSinceCapacityCheck > 0 { try enforceCapacity() }
            if storedSinceFlush {
                try cache.refreshMetadata(name: source.title, attribution: source.attribution)
                storedSinceFlush = false
            }
        }
    }

    private func recordUse(_ id: TileID) {
        upkeepLock.withLock { _ = usedTiles.insert(id) }
    }

    /// Call with `upkeepLock` held.
    private func flushUsage() {
        guard !usedTiles.isEmpty else { return }
        // Use times only order purging; losing them to a busy database costs nothing else.
        try? cache.touch(Array(usedTiles), at: clock())
        usedTiles.removeAll()
    }

    private func withUpkeep<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        upkeepLock.lock()
        defer { upkeepLock.unlock() }
        return try body()
    }
}
