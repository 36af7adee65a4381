import Foundation
import MapGeometry

/// A summary of a cache's contents.
public struct CacheStatistics: Sendable, Equatable {
    public var tileCount: Int
    public var totalBytes: Int
    /// Tiles whose freshness has run out (they are revalidated when next used).
    public var expiredCount: Int
    /// Tiles with no freshness record, such as generated fixture tiles or another tool's.
    public var untrackedCount: Int
    public var tilesPerZoom: [Int: Int]
}

/// A stored tile that cannot be drawn, and why.
public struct CorruptTile: Hashable, Sendable {
    public let tile: TileID
    public let reason: String
}

/// Freshness, use and maintenance of a cache: the SQL behind MapFrame's side tables. The
/// tables are made when a fetched tile or a 404 is first stored, so a file MapFrame only reads
/// never gains them; without them every tile counts as cached and never expires.
extension MBTilesCache {
    /// Stores a fetched tile and its freshness together: a reader never sees one without the other.
    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness) throws(CacheError) {
        try write { () throws(CacheError) in
            try makeFreshnessTablesIfMissing()
            try store(data, for: tile)
            try withStatement("""
                INSERT OR REPLACE INTO mapframe_tile_state
                (zoom_level, tile_column, tile_row, etag, last_modified, expires_at, fetched_at, last_used, byte_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """) { upsert throws(CacheError) in
                bind(tile, to: upsert)
                upsert.bind(optional: freshness.etag, at: 4)
                upsert.bind(optional: freshness.lastModified, at: 5)
                upsert.bind(freshness.expiresAt.timeIntervalSince1970, at: 6)
                upsert.bind(freshness.fetchedAt.timeIntervalSince1970, at: 7)
                upsert.bind(freshness.fetchedAt.timeIntervalSince1970, at: 8)
                upsert.bind(data.count, at: 9)
                _ = try upsert.step()
            }
            try execute("DELETE FROM mapframe_missing_tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", tile: tile)
        }
    }

    /// The stored freshness of a tile, or nil when none is recorded.
    public func freshness(for tile: TileID) throws(CacheError) -> TileFreshness? {
        guard try hasFreshnessTables() else { return nil }
        return try withStatement("""
            SELECT etag, last_modified, expires_at, fetched_at FROM mapframe_tile_state
            WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
            """) { query throws(CacheError) in
            bind(tile, to: query)
            guard try query.step() else { return nil }
            return TileFreshness(
                etag: query.string(at: 0), lastModified: query.string(at: 1),
                expiresAt: Date(timeIntervalSince1970: query.double(at: 2)), fetchedAt: Date(timeIntervalSince1970: query.double(at: 3))
            )
        }
    }

    /// Records a revalidation (304): the tile's bytes stay, its expiry and validators move on.
    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) throws(CacheError) {
        try write { () throws(CacheError) in
            // A revalidation follows a recorded freshness, so the tables are there.
            try withStatement("""
                UPDATE mapframe_tile_state SET etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                expires_at = ?, fetched_at = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
                """) { update throws(CacheError) in
                update.bind(optional: freshness.etag, at: 1)
                update.bind(optional: freshness.lastModified, at: 2)
                update.bind(freshness.expiresAt.timeIntervalSince1970, at: 3)
                update.bind(freshness.fetchedAt.timeIntervalSince1970, at: 4)
                update.bind(tile.z, at: 5)
                update.bind(tile.x, at: 6)
                update.bind(tile.tmsRow, at: 7)
                _ = try update.step()
            }
        }
    }

    /// Remembers that the upstream has no such tile, until `until`.
    public func markMissing(_ tile: TileID, until: Date) throws(CacheError) {
        try write { () throws(CacheError) in
            try makeFreshnessTablesIfMissing()
            try withStatement(
                "INSERT OR REPLACE INTO mapframe_missing_tiles (zoom_level, tile_column, tile_row, until) VALUES (?, ?, ?, ?)"
            ) { upsert throws(CacheError) in
                bind(tile, to: upsert)
                upsert.bind(until.timeIntervalSince1970, at: 4)
                _ = try upsert.step()
            }
        }
    }

    /// Whether the upstream said recently (until after `now`) that it has no such tile.
    public func isKnownMissing(_ tile: TileID, at now: Date) throws(CacheError) -> Bool {
        guard try hasFreshnessTables() else { return false }
        return try withStatement(
            "SELECT until FROM mapframe_missing_tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
        ) { query throws(CacheError) in
            bind(tile, to: query)
            return try query.step() && query.double(at: 0) > now.timeIntervalSince1970
        }
    }

    /// Marks tiles as used at `date`, for least-recently-used purging. Only tiles with a
    /// freshness record are purged, so a file without records, or one that cannot be written,
    /// is left alone.
    public func touch(_ tiles: [TileID], at date: Date) throws(CacheError) {
        guard !tiles.isEmpty, readOnlyReason == nil, try hasFreshnessTables() else { return }
        try write { () throws(CacheError) in
            for tile in tiles {
                try withStatement(
                    "UPDATE mapframe_tile_state SET last_used = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
                ) { update throws(CacheError) in
                    update.bind(date.timeIntervalSince1970, at: 1)
                    update.bind(tile.z, at: 2)
                    update.bind(tile.x, at: 3)
                    update.bind(tile.tmsRow, at: 4)
                    _ = try update.step()
                }
            }
        }
    }

    /// Deletes the `count` least recently used tiles. Returns how many were deleted.
    @discardableResult
    public func purgeLeastRecentlyUsed(_ count: Int) throws(CacheError) -> Int {
        try deleteTiles(where: """
            (zoom_level, tile_column, tile_row) IN (SELECT zoom_level, tile_column, tile_row FROM mapframe_tile_state
            ORDER BY last_used LIMIT \(max(0, count)))
            """)
    }

    /// Deletes tiles fetched before `date`. Returns how many were deleted.
    @discardableResult
    public func purge(fetchedBefore date: Date) throws(CacheError) -> Int {
        try deleteTiles(where: """
            (zoom_level, tile_column, tile_row) IN (SELECT zoom_level, tile_column, tile_row FROM mapframe_tile_state
            WHERE fetched_at < \(date.timeIntervalSince1970))
            """)
    }

    /// Deletes one tile and its record.
    public func delete(_ tile: TileID) throws(CacheError) {
        try write { () throws(CacheError) in
            try execute("DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", tile: tile)
            if try hasFreshnessTables() {
                try execute("DELETE FROM mapframe_tile_state WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", tile: tile)
            }
        }
    }

    /// Counts, sizes and expiry of the stored tiles.
    public func statistics(at now: Date) throws(CacheError) -> CacheStatistics {
        let (tileCount, totalBytes) = try withStatement("SELECT count(*), coalesce(sum(length(tile_data)), 0) FROM tiles") { totals throws(CacheError) in
            _ = try totals.step()
            return (totals.int(at: 0), totals.int(at: 1))
        }
        var (expired, tracked) = (0, 0)
        if try hasFreshnessTables() {
            (expired, tracked) = try withStatement(
                "SELECT count(*), coalesce(sum(expires_at <= ?), 0) FROM mapframe_tile_state"
            ) { state throws(CacheError) in
                state.bind(now.timeIntervalSince1970, at: 1)
                _ = try state.step()
                return (state.int(at: 1), state.int(at: 0))
            }
        }
        let tilesPerZoom = try withStatement("SELECT zoom_level, count(*) FROM tiles GROUP BY zoom_level") { perZoom throws(CacheError) in
            var counts: [Int: Int] = [:]
            while try perZoom.step() { counts[perZoom.int(at: 0)] = perZoom.int(at: 1) }
            return counts
        }
        return CacheStatistics(
            tileCount: tileCount, totalBytes: totalBytes, expiredCount: expired, untrackedCount: tileCount - tracked, tilesPerZoom: tilesPerZoom
        )
    }

    /// Tiles that cannot be drawn: a `tile_data` that cannot be an image (text, NULL, a
    /// number, too large), or bytes that `decoder` refuses (not an image, or an image of a size
    /// no tile has). Rows at no tile's address are never drawn, and not looked at. With
    /// `delete`, the tiles found are removed.
    public func corruptTiles(checkingWith decoder: TileDecoder, delete: Bool) throws(CacheError) -> [CorruptTile] {
        let corrupt = try withStatement("""
            SELECT zoom_level, tile_column, tile_row, typeof(tile_data), length(tile_data),
                   CASE WHEN \(Self.usableTileData) THEN tile_data END
            FROM tiles WHERE \(Self.validTileAddress)
            """) { query throws(CacheError) in
            var corrupt: [CorruptTile] = []
            while try query.step() {
                let tile = TileID(z: query.int(at: 0), x: query.int(at: 1), tmsRow: query.int(at: 2))
                if let reason = Self.unusableReason(type: query.string(at: 3), length: query.int(at: 4)) {
                    corrupt.append(CorruptTile(tile: tile, reason: reason))
                    continue
                }
                do throws(TileImageError) {
                    _ = try decoder.decode(query.data(at: 5) ?? Data())
                } catch {
                    corrupt.append(CorruptTile(tile: tile, reason: error.description))
                }
            }
            return corrupt
        }
        if delete { for found in corrupt { try self.delete(found.tile) } }
        return corrupt
    }

    /// Up to `limit` usable tiles at real addresses, with their freshness, in (zoom, column, TMS
    /// row) order after `after`.
    public func tiles(after: TileID?, limit: Int) throws(CacheError) -> [StoredTileRecord] {
        let (freshnessColumns, freshnessJoin) = try hasFreshnessTables()
            ? ("s.etag, s.last_modified, s.expires_at, s.fetched_at", "LEFT JOIN mapframe_tile_state s USING (zoom_level, tile_column, tile_row)")
            : ("NULL, NULL, NULL, NULL", "")
        return try withStatement("""
            SELECT zoom_level, tile_column, tile_row, tile_data, \(freshnessColumns) FROM tiles \(freshnessJoin)
            WHERE \(Self.validTileAddress) AND \(Self.usableTileData) AND (zoom_level, tile_column, tile_row) > (?, ?, ?)
            ORDER BY zoom_level, tile_column, tile_row LIMIT ?
            """) { query throws(CacheError) in
            if let after { bind(after, to: query) } else { for index: Int32 in 1...3 { query.bind(-1, at: index) } }
            query.bind(limit, at: 4)
            var records: [StoredTileRecord] = []
            while try query.step() {
                let freshness = query.isNull(at: 6) ? nil : TileFreshness(
                    etag: query.string(at: 4), lastModified: query.string(at: 5),
                    expiresAt: Date(timeIntervalSince1970: query.double(at: 6)), fetchedAt: Date(timeIntervalSince1970: query.double(at: 7))
                )
                let tile = TileID(z: query.int(at: 0), x: query.int(at: 1), tmsRow: query.int(at: 2))
                records.append(StoredTileRecord(tile: tile, stored: StoredTile(data: query.data(at: 3) ?? Data(), freshness: freshness)))
            }
            return records
        }
    }

    /// SQL that is true for a row at a real tile's address: zoom 0-30, column and row inside
    /// the world at that zoom. Another tool's file may hold anything there.
    static let validTileAddress = """
        zoom_level BETWEEN 0 AND 30 AND tile_column BETWEEN 0 AND (1 << zoom_level) - 1
        AND tile_row BETWEEN 0 AND (1 << zoom_level) - 1
        """

    /// SQLite's own check of the file; "ok" when it is sound.
    public func integrityCheck() throws(CacheError) -> String {
        try withStatement("PRAGMA integrity_check") { query throws(CacheError) in
            var lines: [String] = []
            while try query.step() { lines.append(query.string(at: 0) ?? "") }
            return lines.joined(separator: "\n")
        }
    }

    /// Rewrites the file to return the space of deleted tiles.
    public func vacuum() throws(CacheError) {
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        try connection.execute("VACUUM")
    }

    /// Brings `bounds`, `minzoom` and `maxzoom` up to date with the tiles held, and sets `name`,
    /// `attribution`, `format` (read from the tiles' bytes), `type` and `version` where the
    /// file has none: a file another tool made keeps its own.
    public func refreshMetadata(name: String, attribution: String) throws(CacheError) {
        // One write transaction from the start: a read that later turns into a write can fail at
        // once with "database is locked" when another process writes, whatever the busy timeout.
        try write { () throws(CacheError) in
            let existing = try metadata()
            var values: [String: String] = [:]
            for (key, value) in ["name": name, "attribution": attribution, "type": "baselayer", "version": "1"] where existing[key] == nil {
                values[key] = value
            }
            if existing["format"] == nil, let format = try formatOfStoredTiles() { values["format"] = format }
            if let zooms = try zoomExtent() {
                values["minzoom"] = String(zooms.min)
                values["maxzoom"] = String(zooms.max)
                if let bounds = try bounds(atZoom: zooms.max) {
                    values["bounds"] = [bounds.west, bounds.south, bounds.east, bounds.north]
                        .map { String(format: "%.6f", $0) }.joined(separator: ",")
                }
            }
            try setMetadata(values)
        }
    }

    /// The shallowest and deepest zoom held, or nil for an empty cache.
    private func zoomExtent() throws(CacheError) -> (min: Int, max: Int)? {
        try withStatement("SELECT min(zoom_level), max(zoom_level) FROM tiles WHERE \(Self.validTileAddress)") { query throws(CacheError) in
            guard try query.step(), query.string(at: 0) != nil else { return nil }
            return (query.int(at: 0), query.int(at: 1))
        }
    }

    /// The area covered by the tiles held at one zoom.
    private func bounds(atZoom zoom: Int) throws(CacheError) -> GeoBounds? {
        try withStatement("""
            SELECT min(tile_column), max(tile_column), min(tile_row), max(tile_row) FROM tiles
            WHERE zoom_level = ? AND \(Self.validTileAddress)
            """) { extent throws(CacheError) in
            extent.bind(zoom, at: 1)
            guard try extent.step(), extent.string(at: 0) != nil else { return nil }
            let northWest = TileID(z: zoom, x: extent.int(at: 0), tmsRow: extent.int(at: 3)).bounds
            let southEast = TileID(z: zoom, x: extent.int(at: 1), tmsRow: extent.int(at: 2)).bounds
            return GeoBounds(south: southEast.south, west: northWest.west, north: northWest.north, east: southEast.east)
        }
    }

    /// Deletes the tracked tiles `condition` picks (untracked ones are never purged); returns
    /// how many.
    private func deleteTiles(where condition: String) throws(CacheError) -> Int {
        try write { () throws(CacheError) -> Int in
            guard try hasFreshnessTables() else { return 0 }
            try connection.execute("CREATE TEMP TABLE IF NOT EXISTS doomed (zoom_level, tile_column, tile_row)")
            try connection.execute("DELETE FROM temp.doomed")
            try connection.execute("INSERT INTO temp.doomed SELECT zoom_level, tile_column, tile_row FROM mapframe_tile_state WHERE \(condition)")
            try connection.execute("DELETE FROM tiles WHERE (zoom_level, tile_column, tile_row) IN (SELECT * FROM temp.doomed)")
            try connection.execute("DELETE FROM mapframe_tile_state WHERE (zoom_level, tile_column, tile_row) IN (SELECT * FROM temp.doomed)")
            return try withStatement("SELECT count(*) FROM temp.doomed") { count throws(CacheError) in
                _ = try count.step()
                return count.int(at: 0)
            }
        }
    }

    /// Whether MapFrame's freshness tables are there now.
    func hasFreshnessTables() throws(CacheError) -> Bool {
        for table in MBTilesLayout.freshnessTables where try !hasTable(table) { return false }
        return true
    }

    /// Makes MapFrame's freshness tables, inside the write that first needs them.
    private func makeFreshnessTablesIfMissing() throws(CacheError) {
        if try !hasFreshnessTables() { try connection.execute(Self.freshnessSchema) }
    }

    private func execute(_ sql: String, tile: TileID) throws(CacheError) {
        try withStatement(sql) { statement throws(CacheError) in
            bind(tile, to: statement)
            _ = try statement.step()
        }
    }
}
