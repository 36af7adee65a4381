import Foundation
import MapGeometry

/// A PMTiles archive as a tile cache backend, for drawing from: read-only, so every write is
/// refused saying why (a fetched tile is then drawn but reported not stored, as with a read-only
/// MBTiles file), and its tiles never expire. Reads run on `BlockingPool.storage`.
public final class PMTilesBackend: TileCacheBackend {
    public let name: String
    private let archive: PMTilesArchive

    public init(path: String, archive: PMTilesArchive) {
        name = path
        self.archive = archive
    }

    /// Opens the archive at `path`, on the storage threads. A file that is missing is
    /// `CacheError.missingFile`; one that is not an archive MapFrame can draw from is
    /// `CacheError.unusableArchive`, saying why.
    public static func open(_ path: String) async throws(CacheError) -> PMTilesBackend {
        try await onStorageThreads(cache: path) { () throws(CacheError) in
            let file = try PMTilesFile(path: path)
            do throws(PMTilesError) {
                return PMTilesBackend(path: path, archive: try PMTilesArchive(file))
            } catch {
                throw CacheError.unusableArchive(path: path, reason: error.description)
            }
        }
    }

    public var kind: CacheBackendKind { .pmtiles }

    /// What the header says, for `cache stats`: "PMTiles 3: png tiles, zooms 12-18, gzip directories, clustered".
    public var summary: String {
        let header = archive.header
        let type = header.tileType == .unknown ? "tiles of no stated type" : "\(header.tileType) tiles"
        let directories = header.internalCompression == .gzip ? "gzip directories" : "uncompressed directories"
        return "PMTiles 3: \(type), zooms \(header.minZoom)-\(header.maxZoom), \(directories), \(header.isClustered ? "clustered" : "not clustered")"
    }
    public var readOnlyReason: String? { "it is a PMTiles archive, which MapFrame only reads (`mapframe cache copy` writes a new one)" }

    public func unavailability() async -> Unavailability? { nil }

    public func lookup(_ tile: TileID, at now: Date) async throws(CacheError) -> CacheLookup {
        try await reading("read tile \(tile)") { archive throws(PMTilesError) in
            guard let entry = try archive.entry(for: tile) else { return CacheLookup(stored: nil) }
            if let reason = Self.unusableReason(entry) { return CacheLookup(stored: nil, unusableReason: reason) }
            return CacheLookup(stored: StoredTile(data: try archive.data(of: entry), freshness: nil))
        }
    }

    public func freshTileCount(in tiles: [TileID], at now: Date) async throws(CacheError) -> Int {
        try await reading("count tiles") { archive throws(PMTilesError) in
            var count = 0
            for tile in tiles {
                if let entry = try archive.entry(for: tile), Self.unusableReason(entry) == nil { count += 1 }
            }
            return count
        }
    }

    /// Why an entry's bytes cannot be a tile, without reading them: more than a tile may be.
    private static func unusableReason(_ entry: PMTilesEntry) -> String? {
        entry.length > PMTilesArchive.maxTileBytes ? "its tile is \(entry.length) bytes; a tile is at most \(PMTilesArchive.maxTileBytes)" : nil
    }

    // MARK: - Writes, refused

    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) async throws(CacheError) { throw refusal }
    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) async throws(CacheError) { throw refusal }
    public func markMissing(_ tile: TileID, until: Date) async throws(CacheError) { throw refusal }
    public func markExpired(_ blocks: [TileBlock], at now: Date) async throws(CacheError) -> Int { throw refusal }
    /// Use is not recorded: an archive's tiles are never purged.
    public func touch(_ tiles: [TileID], at date: Date) async throws(CacheError) {}
    public func purgeLeastRecentlyUsed(_ count: Int) async throws(CacheError) -> Int { throw refusal }
    public func purge(fetchedBefore date: Date) async throws(CacheError) -> Int { throw refusal }
    public func refreshMetadata(name: String, attribution: String) async throws(CacheError) { throw refusal }
    public func storeCopies(_ records: [StoredTileRecord]) async throws(CacheError) { throw refusal }

    private var refusal: CacheError { .readOnly(path: name, reason: readOnlyReason!) }

    // MARK: - Reading whole

    /// Counts every tile the archive addresses (runs counted out), their bytes, and the tiles of
    /// each zoom, walking every directory. Tiles deeper than `TileID.maxZoom` are not counted.
    public func statistics(at now: Date) async throws(CacheError) -> CacheStatistics {
        try await reading("count tiles") { archive throws(PMTilesError) in
            var statistics = CacheStatistics(tileCount: 0, totalBytes: 0, expiredCount: 0, untrackedCount: 0, tilesPerZoom: [:])
            try archive.forEachTileEntry { entry throws(PMTilesError) in
                var id = entry.tileID
                // A run may cross from one zoom into the next.
                while id < entry.endID, let zoom = PMTilesTileID.zoom(of: id) {
                    let count = Int(min(entry.endID, PMTilesTileID.firstID(ofZoom: zoom + 1)) - id)
                    statistics.tilesPerZoom[zoom, default: 0] += count
                    statistics.tileCount += count
                    let (bytes, overflow) = count.multipliedReportingOverflow(by: Int(entry.length))
                    statistics.totalBytes = overflow ? .max : statistics.totalBytes.addingReportingOverflow(bytes).overflow ? .max : statistics.totalBytes + bytes
                    id += UInt64(count)
                }
                return true
            }
            statistics.untrackedCount = statistics.tileCount
            return statistics
        }
    }

    /// Up to `limit` tiles in tile-number order (the archive's own, not the MBTiles one) after
    /// `after`, a run's tiles each with the run's bytes, read once.
    public func tiles(after: TileID?, limit: Int) async throws(CacheError) -> [StoredTileRecord] {
        try await reading("read tiles to copy") { archive throws(PMTilesError) in
            var records: [StoredTileRecord] = []
            let start = after.map { PMTilesTileID.id(of: $0) + 1 } ?? 0
            try archive.forEachTileEntry(from: start) { entry throws(PMTilesError) in
                guard Self.unusableReason(entry) == nil else { return true }
                var data: Data?
                var id = max(entry.tileID, start)
                while id < entry.endID, records.count < limit, let tile = PMTilesTileID.tile(for: id) {
                    if data == nil { data = try archive.data(of: entry) }
                    records.append(StoredTileRecord(tile: tile, stored: StoredTile(data: data!, freshness: nil)))
                    id += 1
                }
                return records.count < limit
            }
            return records
        }
    }

    public func fetchTurn(for tile: TileID, at now: Date) async -> FetchTurn {
        guard let stored = try? await lookup(tile, at: now).stored else { return .fetch(release: {}) }
        return .stored(stored)
    }

    /// Runs `body` on the storage threads, naming the archive and `operation` in what it throws.
    private func reading<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PMTilesArchive) throws(PMTilesError) -> T) async throws(CacheError) -> T {
        let (archive, name) = (archive, name)
        return try await onStorageThreads(cache: name) { () throws(CacheError) in
            do throws(PMTilesError) {
                return try body(archive)
            } catch {
                throw CacheError.unusableArchive(path: name, reason: "\(operation) failed: \(error.description)")
            }
        }
    }
}
