import Foundation
import MapGeometry

/// An MBTiles file as a tile cache backend: one SQLite connection, used by one thread at a time.
public final class MBTilesBackend: TileCacheBackend, @unchecked Sendable {
    /// The file, for the maintenance commands that work on MBTiles alone (verify, vacuum, identity).
    public let file: MBTilesCache
    private let lock = NSLock()

    public init(_ file: MBTilesCache) {
        self.file = file
    }

    public var name: String { file.path }
    public var kind: CacheBackendKind { .mbtiles }
    public var readOnlyReason: String? { file.readOnlyReason }

    public func tileData(for tile: TileID) throws(CacheError) -> Data? {
        try locked { () throws(CacheError) in try file.tileData(for: tile) }
    }

    public func storedTile(_ tile: TileID) throws(CacheError) -> StoredTile? {
        try locked { () throws(CacheError) -> StoredTile? in
            let data: Data?
            do throws(CacheError) {
                data = try file.tileData(for: tile)
            } catch .unusableTile {
                return nil
            }
            guard let data else { return nil }
            return StoredTile(data: data, freshness: try file.freshness(for: tile))
        }
    }

    public func state(of tile: TileID, at now: Date) throws(CacheError) -> CachedTileState {
        try locked { () throws(CacheError) in
            CachedTileState(
                isHeld: try file.containsTile(tile), freshness: try file.freshness(for: tile), isKnownMissing: try file.isKnownMissing(tile, at: now)
            )
        }
    }

    public func freshTileCount(in tiles: [TileID], at now: Date) throws(CacheError) -> Int {
        try locked { () throws(CacheError) in
            var count = 0
            for tile in tiles where try file.containsTile(tile) {
                if try file.freshness(for: tile)?.isFresh(at: now) ?? true { count += 1 }
            }
            return count
        }
    }

    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) throws(CacheError) {
        try locked { () throws(CacheError) in
            if let freshness { try file.store(data, for: tile, freshness: freshness) } else { try file.store(data, for: tile) }
        }
    }

    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) throws(CacheError) {
        try locked { () throws(CacheError) in try file.updateFreshness(freshness, for: tile) }
    }

    public func markMissing(_ tile: TileID, until: Date) throws(CacheError) {
        try locked { () throws(CacheError) in try file.markMissing(tile, until: until) }
    }

    public func touch(_ tiles: [TileID], at date: Date) throws(CacheError) {
        try locked { () throws(CacheError) in try file.touch(tiles, at: date) }
    }

    public func statistics(at now: Date) throws(CacheError) -> CacheStatistics {
        try locked { () throws(CacheError) in try file.statistics(at: now) }
    }

    @discardableResult
    public func purgeLeastRecentlyUsed(_ count: Int) throws(CacheError) -> Int {
        try locked { () throws(CacheError) in try file.purgeLeastRecentlyUsed(count) }
    }

    @discardableResult
    public func purge(fetchedBefore date: Date) throws(CacheError) -> Int {
        try locked { () throws(CacheError) in try file.purge(fetchedBefore: date) }
    }

    public func refreshMetadata(name: String, attribution: String) throws(CacheError) {
        try locked { () throws(CacheError) in try file.refreshMetadata(name: name, attribution: attribution) }
    }

    public func tiles(after: TileID?, limit: Int) throws(CacheError) -> [StoredTileRecord] {
        try locked { () throws(CacheError) in try file.tiles(after: after, limit: limit) }
    }

    public func storeCopies(_ records: [StoredTileRecord]) throws(CacheError) {
        try locked { () throws(CacheError) in
            try file.inTransaction { () throws(CacheError) in
                for record in records {
                    if let freshness = record.stored.freshness {
                        try file.store(record.stored.data, for: record.tile, freshness: freshness)
                    } else {
                        try file.store(record.stored.data, for: record.tile)
                    }
                }
            }
        }
    }

    /// One process fills a file: there is nobody else to wait for.
    public func takeFetchTurn(for tile: TileID, at now: Date, _ turn: @escaping @Sendable (FetchTurn) -> Void) {
        turn(.fetch(release: {}))
    }

    private func locked<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
