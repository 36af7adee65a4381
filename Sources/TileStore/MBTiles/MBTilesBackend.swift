import Foundation
import MapGeometry

/// An MBTiles file as a tile cache backend: the file's blocking calls, each made on
/// `BlockingPool.storage`, so that no caller's thread waits for SQLite; lookups asked for at once
/// share a hop there (`LookupBatches`).
public final class MBTilesBackend: TileCacheBackend {
    /// The file: reached only through `withFile`, on the storage threads.
    private let file: MBTilesCache
    /// Two lookups' hops to the storage threads at a time: lookups asked for meanwhile go together.
    private let lookups = LookupBatches(maximumUnderWay: 2)
    /// One transaction of stores at a time (SQLite writes one at a time anyway): stores asked
    /// for meanwhile go together in the next, one commit for many tiles in a cold fill, and
    /// waiting writes never hold every storage thread while lookups queue behind them.
    private let stores = RoundTripBatches<StoredTileRecord, Bool>(maximumUnderWay: 1)

    public init(_ file: MBTilesCache) {
        self.file = file
    }

    public var name: String { file.path }
    public var kind: CacheBackendKind { .mbtiles }
    public var readOnlyReason: String? { file.readOnlyReason }

    public func unavailability() async -> Unavailability? {
        file.faultReason.map { Unavailability(storage: "cache \(name)", reason: $0) }
    }

    public func lookAtStorage() async {
        _ = try? await withFile { file throws(CacheError) in file.lookAtFile() }
    }

    public func lookup(_ tile: TileID, at now: Date) async throws(CacheError) -> CacheLookup {
        try await lookups.answer(tile) { tiles async throws(CacheError) in
            try await withFile { file throws(CacheError) in try file.lookup(tiles, at: now) }
        }
    }

    public func freshTileCount(in tiles: [TileID], at now: Date) async throws(CacheError) -> Int {
        try await withFile { file throws(CacheError) in try file.freshTileCount(in: tiles, at: now) }
    }

    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) async throws(CacheError) {
        let record = StoredTileRecord(tile: tile, stored: StoredTile(data: data, freshness: freshness))
        _ = try await stores.answer(record) { records async throws(CacheError) -> [Bool] in
            try await withFile { file throws(CacheError) in try file.store(records) }
            return Array(repeating: true, count: records.count)
        }
    }

    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) async throws(CacheError) {
        try await withFile { file throws(CacheError) in try file.updateFreshness(freshness, for: tile) }
    }

    public func markMissing(_ tile: TileID, until: Date) async throws(CacheError) {
        try await withFile { file throws(CacheError) in try file.markMissing(tile, until: until) }
    }

    public func markExpired(_ blocks: [TileBlock], at now: Date) async throws(CacheError) -> Int {
        try await withFile { file throws(CacheError) in try file.markExpired(blocks, at: now) }
    }

    public func touch(_ tiles: [TileID], at date: Date) async throws(CacheError) {
        try await withFile { file throws(CacheError) in try file.touch(tiles, at: date) }
    }

    public func statistics(at now: Date) async throws(CacheError) -> CacheStatistics {
        try await withFile { file throws(CacheError) in try file.statistics(at: now) }
    }

    @discardableResult
    public func purgeLeastRecentlyUsed(_ count: Int) async throws(CacheError) -> Int {
        try await withFile { file throws(CacheError) in try file.purgeLeastRecentlyUsed(count) }
    }

    @discardableResult
    public func purge(fetchedBefore date: Date) async throws(CacheError) -> Int {
        try await withFile { file throws(CacheError) in try file.purge(fetchedBefore: date) }
    }

    public func refreshMetadata(name: String, attribution: String) async throws(CacheError) {
        try await withFile { file throws(CacheError) in try file.refreshMetadata(name: name, attribution: attribution) }
    }

    public func tilesetDescription() async throws(CacheError) -> TilesetDescription? {
        try await withFile { file throws(CacheError) in try file.tilesetDescription() }
    }

    public func tiles(after: TileID?, limit: Int) async throws(CacheError) -> [StoredTileRecord] {
        try await withFile { file throws(CacheError) in try file.tiles(after: after, limit: limit) }
    }

    public func storeCopies(_ records: [StoredTileRecord]) async throws(CacheError) {
        try await withFile { file throws(CacheError) in try file.store(records) }
    }

    /// One process fills a file: there is nobody else to wait for, but another fill of this
    /// process may have stored the tile since it was looked up.
    public func fetchTurn(for tile: TileID, at now: Date) async -> FetchTurn {
        guard let stored = try? await lookup(tile, at: now).stored, stored.isFresh(at: now) else { return .fetch(release: {}) }
        return .stored(stored)
    }

    /// Opens an existing file, as `MBTilesCache.init(openingExisting:readOnly:)` does, on the
    /// storage threads.
    public static func open(_ path: String, readOnly: Bool) async throws(CacheError) -> MBTilesBackend {
        try await onStorageThreads(cache: path) { () throws(CacheError) in MBTilesBackend(try MBTilesCache(openingExisting: path, readOnly: readOnly)) }
    }

    /// Runs `body`, which blocks on the file, on the storage threads: every call here does, and
    /// so do the maintenance commands' own. A damaged page found meanwhile stops the file being
    /// used (see `SQLiteFileGuard`).
    public func withFile<T: Sendable>(_ body: @escaping @Sendable (MBTilesCache) throws(CacheError) -> T) async throws(CacheError) -> T {
        let file = file
        return try await onStorageThreads(cache: file.path) { () throws(CacheError) in
            try file.givingUpOnDamage { () throws(CacheError) in try body(file) }
        }
    }
}
