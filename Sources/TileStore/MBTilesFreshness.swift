import Foundation
import MapGeometry

/// A summary of a cache's contents.
public struct CacheStatistics: Sendable, Equatable {
    public var tileCount: Int
    public var totalBytes: Int
    /// Tiles whose freshness has run out (they are revalidated when next used).
    public var expiredCount: Int
    /// Tiles with no freshness record, such as generated fixture tiles.
    public var untrackedCount: Int
    public var tilesPerZoom: [Int: Int]
}

/// A stored tile that cannot be drawn, and why.
public struct CorruptTile: Hashable, Sendable {
    public let tile: TileID
    public let reason: String
}

/// Freshness, use and maintenance of a cache: the SQL behind MapFrame's side tables.
extension MBTilesCache {
    /// Stores a fetched tile and its freshness together: a reader never sees one without the other.
    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness) throws(CacheError) {
        try inTransactionIfNeeded { () throws(CacheError) in
            try store(data, for: tile)
            let upsert = try connection.prepare("""
                INSERT OR REPLACE INTO mapframe_tile_state
                (zoom_level, tile_column, tile_row, etag, last_modified, expires_at, fetched_at, last_used, byte_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            bind(tile, to: upsert)
            upsert.bind(optional: freshness.etag, at: 4)
            upsert.bind(optional: freshness.lastModified, at: 5)
            upsert.bind(freshness.expiresAt.timeIntervalSince1970, at: 6)
            upsert.bind(freshness.fetchedAt.timeIntervalSince1970, at: 7)
            upsert.bind(freshness.fetchedAt.timeIntervalSince1970, at: 8)
            upsert.bind(data.count, at: 9)
            _ = try upsert.step()
            try execute("DELETE FROM mapframe_missing_tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", tile: tile)
        }
    }

    /// The stored freshness of a tile, or nil when none is recorded.
    public func freshness(for tile: TileID) throws(CacheError) -> TileFreshness? {
        let query = try connection.prepare("""
            SELECT etag, last_modified, expires_at, fetched_at FROM mapframe_tile_state
            WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
            """)
        bind(tile, to: query)
        guard try query.step() else { return nil }
        return TileFreshness(
            etag: query.string(at: 0), lastModified: query.string(at: 1),
            expiresAt: Date(timeIntervalSince1970: query.double(at: 2)), fetchedAt: Date(timeIntervalSince1970: query.double(at: 3))
        )
    }

    /// Records a revalidation (304): the tile's bytes stay, its expiry and validators move on.
    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) throws(CacheError) {
        let update = try connection.prepare("""
            UPDATE mapframe_tile_state SET etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
            expires_at = ?, fetched_at = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
            """)
        update.bind(optional: freshness.etag, at: 1)
        update.bind(optional: freshness.lastModified, at: 2)
        update.bind(freshness.expiresAt.timeIntervalSince1970, at: 3)
        update.bind(freshness.fetchedAt.timeIntervalSince1970, at: 4)
        update.bind(tile.z, at: 5)
        update.bind(tile.x, at: 6)
        update.bind(tile.tmsRow, at: 7)
        _ = try update.step()
    }

    /// Remembers that the upstream has no such tile, until `until`.
    public func markMissing(_ tile: TileID, until: Date) throws(CacheError) {
        let upsert = try connection.prepare(
            "INSERT OR REPLACE INTO mapframe_missing_tiles (zoom_level, tile_column, tile_row, until) VALUES (?, ?, ?, ?)"
        )
        bind(tile, to: upsert)
        upsert.bind(until.timeIntervalSince1970, at: 4)
        _ = try upsert.step()
    }

    /// Whether the upstream said recently (until after `now`) that it has no such tile.
    public func isKnownMissing(_ tile: TileID, at now: Date) throws(CacheError) -> Bool {
        let query = try connection.prepare(
            "SELECT until FROM mapframe_missing_tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
        )
        bind(tile, to: query)
        return try query.step() && query.double(at: 0) > now.timeIntervalSince1970
    }

    /// Marks tiles as used at `date`, for least-recently-used purging.
    public func touch(_ tiles: [TileID], at date: Date) throws(CacheError) {
        guard !tiles.isEmpty else { return }
        try inTransactionIfNeeded { () throws(CacheError) in
            let update = try connection.prepare(
                "UPDATE mapframe_tile_state SET last_used = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
            )
            for tile in tiles {
                update.reset()
                update.bind(date.timeIntervalSince1970, at: 1)
                update.bind(tile.z, at: 2)
                update.bind(tile.x, at: 3)
                update.bind(tile.tmsRow, at: 4)
                _ = try update.step()
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
        try inTransactionIfNeeded { () throws(CacheError) in
            try execute("DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", tile: tile)
            try execute("DELETE FROM mapframe_tile_state WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", tile: tile)
        }
    }

    /// Counts, sizes and expiry of the stored tiles.
    public func statistics(at now: Date) throws(CacheError) -> CacheStatistics {
        let totals = try connection.prepare("SELECT count(*), coalesce(sum(length(tile_data)), 0) FROM tiles")
        _ = try totals.step()
        let expired = try connection.prepare("SELECT count(*) FROM mapframe_tile_state WHERE expires_at <= ?")
        expired.bind(now.timeIntervalSince1970, at: 1)
        _ = try expired.step()
        let tracked = try connection.prepare("SELECT count(*) FROM mapframe_tile_state")
        _ = try tracked.step()
        let perZoom = try connection.prepare("SELECT zoom_level, count(*) FROM tiles GROUP BY zoom_level")
        var tilesPerZoom: [Int: Int] = [:]
        while try perZoom.step() { tilesPerZoom[perZoom.int(at: 0)] = perZoom.int(at: 1) }
        return CacheStatistics(
            tileCount: totals.int(at: 0), totalBytes: totals.int(at: 1), expiredCount: expired.int(at: 0),
            untrackedCount: totals.int(at: 0) - tracked.int(at: 0), tilesPerZoom: tilesPerZoom
        )
    }

    /// Tiles that `decoder` refuses: bytes that are not an image, or an image of a size no
    /// tile has. With `delete`, they are removed.
    public func corruptTiles(checkingWith decoder: TileDecoder, delete: Bool) throws(CacheError) -> [CorruptTile] {
        let query = try connection.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        var corrupt: [CorruptTile] = []
        while try query.step() {
            let tile = TileID(z: query.int(at: 0), x: query.int(at: 1), tmsRow: query.int(at: 2))
            do {
                _ = try decoder.decode(query.data(at: 3) ?? Data())
            } catch {
                corrupt.append(CorruptTile(tile: tile, reason: error.description))
            }
        }
        if delete { for found in corrupt { try self.delete(found.tile) } }
        return corrupt
    }

    /// SQLite's own check of the file; "ok" when it is sound.
    public func integrityCheck() throws(CacheError) -> String {
        let query = try connection.prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try query.step() { lines.append(query.string(at: 0) ?? "") }
        return lines.joined(separator: "\n")
    }

    /// Rewrites the file to return the space of deleted tiles.
    public func vacuum() throws(CacheError) {
        try connection.execute("VACUUM")
    }

    /// Brings `bounds`, `minzoom`, `maxzoom` and the descriptive rows up to date with the tiles held.
    public func refreshMetadata(name: String, attribution: String, format: String = "png") throws(CacheError) {
        // One write transaction from the start: a read that later turns into a write can fail at
        // once with "database is locked" when another process writes, whatever the busy timeout.
        try inTransactionIfNeeded { () throws(CacheError) in
            var values = ["name": name, "attribution": attribution, "format": format, "type": "baselayer", "version": "1"]
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
        let query = try connection.prepare("SELECT min(zoom_level), max(zoom_level) FROM tiles")
        defer { query.reset() }
        guard try query.step(), query.string(at: 0) != nil else { return nil }
        return (query.int(at: 0), query.int(at: 1))
    }

    /// The area covered by the tiles held at one zoom.
    private func bounds(atZoom zoom: Int) throws(CacheError) -> GeoBounds? {
        let extent = try connection.prepare("""
            SELECT min(tile_column), max(tile_column), min(tile_row), max(tile_row) FROM tiles WHERE zoom_level = ?
            """)
        defer { extent.reset() }
        extent.bind(zoom, at: 1)
        guard try extent.step(), extent.string(at: 0) != nil else { return nil }
        let northWest = TileID(z: zoom, x: extent.int(at: 0), tmsRow: extent.int(at: 3)).bounds
        let southEast = TileID(z: zoom, x: extent.int(at: 1), tmsRow: extent.int(at: 2)).bounds
        return GeoBounds(south: southEast.south, west: northWest.west, north: northWest.north, east: southEast.east)
    }

    private func deleteTiles(where condition: String) throws(CacheError) -> Int {
        try inTransactionIfNeeded { () throws(CacheError) -> Int in
            try connection.execute("CREATE TEMP TABLE IF NOT EXISTS doomed (zoom_level, tile_column, tile_row)")
            try connection.execute("DELETE FROM temp.doomed")
            try connection.execute("INSERT INTO temp.doomed SELECT zoom_level, tile_column, tile_row FROM mapframe_tile_state WHERE \(condition)")
            try connection.execute("DELETE FROM tiles WHERE (zoom_level, tile_column, tile_row) IN (SELECT * FROM temp.doomed)")
            try connection.execute("DELETE FROM mapframe_tile_state WHERE (zoom_level, tile_column, tile_row) IN (SELECT * FROM temp.doomed)")
            let count = try connection.prepare("SELECT count(*) FROM temp.doomed")
            _ = try count.step()
            return count.int(at: 0)
        }
    }

    private func execute(_ sql: String, tile: TileID) throws(CacheError) {
        let statement = try connection.prepare(sql)
        bind(tile, to: statement)
        _ = try statement.step()
    }

    private func bind(_ tile: TileID, to statement: SQLiteStatement) {
        statement.bind(tile.z, at: 1)
        statement.bind(tile.x, at: 2)
        statement.bind(tile.tmsRow, at: 3)
    }

    /// Runs `body` in its own transaction, or inside the caller's when one is open.
    func inTransactionIfNeeded<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        connection.isInTransaction ? try body() : try connection.transaction(body)
    }
}
