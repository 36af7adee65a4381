import Foundation
import GRDB
import MapGeometry

/// SQLite's own check of a file (`PRAGMA integrity_check`).
public struct IntegrityReport: Sendable, Equatable, CustomStringConvertible {
    /// SQLite's findings, one a line, such as "Page 744: btreeInitPage() returns error code 11"
    /// or "row 12 missing from index tile_index"; none when the file is sound.
    public var problems: [String]
    /// SQLite's message when the check stopped at a page it could not read, before its end.
    public var stoppedBy: String?

    public var isSound: Bool { problems.isEmpty && stoppedBy == nil }

    /// "ok", or "not ok (2 problems, stopped by damage)".
    public var description: String {
        guard !isSound else { return "ok" }
        var parts: [String] = []
        if !problems.isEmpty { parts.append("\(problems.count) problem\(problems.count == 1 ? "" : "s")") }
        if stoppedBy != nil { parts.append("stopped by damage") }
        return "not ok (\(parts.joined(separator: ", ")))"
    }

    /// Runs the check, keeping what it found before any damaged page stopped it: after checking
    /// the pages, SQLite reads each table to check its indexes, and a damaged table stops that.
    static func check(_ db: Database) throws -> IntegrityReport {
        var report = IntegrityReport(problems: [], stoppedBy: nil)
        do {
            let rows = try String.fetchCursor(db, sql: "PRAGMA integrity_check")
            while let text = try rows.next() {
                // One row may hold several findings, one a line, under a heading naming the database.
                report.problems += text.split(separator: "\n").map(String.init).filter { $0 != "ok" && !$0.hasPrefix("*** in database ") }
            }
        } catch let error as DatabaseError where error.isDamage {
            report.stoppedBy = error.message ?? "\(error.resultCode)"
        }
        return report
    }
}

/// A stored tile that cannot be drawn, and why.
public struct CorruptTile: Hashable, Sendable {
    public let tile: TileID
    public let reason: String
    public let fault: Fault

    /// What is wrong: the tile, or only the index that finds it.
    public enum Fault: Sendable {
        /// Its bytes are not a tile's image, or its row cannot be read: deleting it mends that.
        case tile
        /// Its row is sound, or gone, but the index over the tiles' addresses does not lead to it
        /// (or leads to a row that is not there): rebuilding the index mends that.
        case index
    }
}

/// What `MBTilesCache.survey(checkingWith:)` found in a file.
public struct TileSurvey: Sendable {
    public let integrity: IntegrityReport
    /// Every bad tile found, once, in the order found.
    public let corrupt: [CorruptTile]
    /// Stretches of `tiles` that could not be read, such as "rowids 1396 to 1398", or for a view
    /// or a table without rowids "tiles 17/65579/43181 to 17/65579/43174" (in MBTiles' order:
    /// zoom, column, TMS row).
    public let damagedStretches: [String]
    /// Whether every row in `damagedStretches` is named in `corrupt`: so when the index over the
    /// tiles' addresses was read whole, since it lists every row. When not, rows there that are
    /// not named are lost, and their addresses with them.
    public let everyDamagedRowNamed: Bool

    /// Whether the file is sound and holds no bad tile.
    public var isClean: Bool { integrity.isSound && corrupt.isEmpty && damagedStretches.isEmpty }
}

/// What `MBTilesCache.mend(_:)` did, and the file's integrity afterwards.
public struct Mending: Sendable {
    /// The tiles deleted.
    public var deleted: [TileID] = []
    /// The tiles that could not be deleted, with SQLite's reason: a row on a damaged page.
    public var notDeleted: [TileID: String] = [:]
    /// The tables whose indexes were rebuilt.
    public var reindexed: [String] = []
    /// The tables whose indexes could not be rebuilt, with SQLite's reason.
    public var notReindexed: [String: String] = [:]
    public var integrity = IntegrityReport(problems: [], stoppedBy: nil)

    /// Whether the file is now sound and holds none of the bad tiles.
    public var isComplete: Bool { notDeleted.isEmpty && integrity.isSound }
}

extension MBTilesCache {
    /// SQLite's own check of the file, with what it found before any damaged page stopped it.
    public func integrityCheck() throws(CacheError) -> IntegrityReport {
        try read("check the file's integrity") { db in try IntegrityReport.check(db) }
    }

    /// Finds the tiles that cannot be drawn: a `tile_data` that cannot be an image (text, NULL,
    /// a number, too large), bytes that `decoder` refuses (not an image, or an image of a size no
    /// tile has), and, in a damaged file, rows, bytes and index entries on pages SQLite cannot
    /// read. Rows at no tile's address are never drawn, and not looked at. Nothing is written.
    ///
    /// The tiles are read in the table's own order, getting past damaged pages. When the file
    /// is not sound, the index over the tiles' addresses and MapFrame's freshness records are
    /// read too, and name the tiles on the pages that could not be read.
    public func survey(checkingWith decoder: TileDecoder) throws(CacheError) -> TileSurvey {
        let integrity = try integrityCheck()
        let tracked = try hasFreshnessTables()
        return try read("check every tile") { db in
            // A sound file has no damaged page, nor an index that disagrees with its table.
            var surveyor = try TileSurveyor(db, decoder: decoder, tilesIsView: tilesIsView, keepsKeys: !integrity.isSound)
            try surveyor.walkTiles()
            if !integrity.isSound {
                try surveyor.crossCheckIndex()
                if tracked { try surveyor.crossCheckFreshnessRecords() }
            }
            return TileSurvey(
                integrity: integrity, corrupt: surveyor.corrupt, damagedStretches: surveyor.tableStretches.map(surveyor.order.describe),
                everyDamagedRowNamed: surveyor.everyDamagedRowNamed
            )
        }
    }

    /// Mends what `survey` found as far as it can where the file is: deletes each bad tile (and
    /// its freshness record) that can be deleted, one at a time, and when the file is not sound
    /// rebuilds every table's indexes (`REINDEX`), then checks the file again. A row on a damaged
    /// page cannot be deleted, nor can a damaged index be rebuilt: SQLite must read a page to
    /// free it. Those are reported, and everything else is left as it was.
    public func mend(_ survey: TileSurvey) throws(CacheError) -> Mending {
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        var mending = Mending()
        for found in survey.corrupt where found.fault == .tile {
            do {
                try delete(found.tile)
                mending.deleted.append(found.tile)
            } catch {
                mending.notDeleted[found.tile] = error.sqliteMessage
            }
        }
        // Only a file that is not sound has an index fault.
        if !survey.integrity.isSound {
            let tables = try read("list the tables") { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            }
            for table in tables {
                do {
                    try write("rebuild the indexes of \(table)") { db in try db.execute(sql: "REINDEX \(table.quotedDatabaseIdentifier)") }
                    mending.reindexed.append(table)
                } catch {
                    mending.notReindexed[table] = error.sqliteMessage
                }
            }
        }
        mending.integrity = try integrityCheck()
        return mending
    }
}

extension CacheError {
    /// SQLite's own words for a failed statement, else the whole description.
    var sqliteMessage: String {
        switch self {
        case .sqlite(_, _, let message, _), .damaged(_, _, let message): message
        default: description
        }
    }
}

/// One survey's reading of a file: what has been read so far, and the bad tiles found.
private struct TileSurveyor {
    let db: Database
    let decoder: TileDecoder
    /// How `tiles` is walked: by rowid when it has them, else (a view, a table without rowids)
    /// by address.
    let order: WalkOrder
    /// Whether to keep the keys read, for the cross-checks of a file that is not sound: a sound
    /// one is read once, holding no more than a batch of rows at a time.
    let keepsKeys: Bool
    private(set) var corrupt: [CorruptTile] = []
    private var named: Set<TileID> = []
    /// The stretches of `tiles` that could not be read.
    private(set) var tableStretches: [ClosedRange<Int64>] = []
    /// Whether the index over the tiles' addresses was read without meeting damage.
    private(set) var indexReadWhole = false
    /// The `order` keys of the rows read, and their `TileAddressKey`s.
    private var keysRead: Set<Int64> = []
    private var addressesRead: Set<Int64> = []
    /// The `TileAddressKey`s the index lists.
    private var addressesIndexed: Set<Int64> = []

    /// The columns of a tile's row a check needs: address, type and length of `tile_data`.
    private static let tileColumns = "zoom_level, tile_column, tile_row, typeof(tile_data), length(tile_data)"
    private static let damagedRow = "its row is on a damaged page, and cannot be read"

    init(_ db: Database, decoder: TileDecoder, tilesIsView: Bool, keepsKeys: Bool) throws {
        self.db = db
        self.decoder = decoder
        self.keepsKeys = keepsKeys
        order = try tilesIsView || !Self.hasRowids(db) ? .address : .rowid
    }

    /// Whether `tiles` is a table with rowids (not one made `WITHOUT ROWID`).
    private static func hasRowids(_ db: Database) throws -> Bool {
        do {
            _ = try db.makeStatement(sql: "SELECT rowid FROM tiles")
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            return false
        }
    }

    /// Reads every row of `tiles` that can be read, and checks its tile.
    mutating func walkTiles() throws {
        let walk = DamageTolerantWalk("tiles", columns: Self.tileColumns, order: order)
        let start = order.keyColumnCount
        tableStretches = try walk.run(in: db) { key, row in
            try check(row, from: start, key: key)
        }
        // In address order, a stretch of one key is one tile: the first row from that key on
        // could not be read, and the first from the next key on could.
        if order == .address {
            for stretch in tableStretches where stretch.lowerBound == stretch.upperBound {
                name(TileAddressKey.tile(stretch.lowerBound), Self.damagedRow, .tile)
            }
        }
    }

    /// Whether every row in the stretches of `tiles` that could not be read is named: so when
    /// the index was read whole, since it lists every row, or when each stretch was one tile.
    var everyDamagedRowNamed: Bool {
        indexReadWhole || tableStretches.allSatisfy { order == .address && $0.lowerBound == $0.upperBound }
    }

    /// Reads the index over the tiles' addresses, naming each tile it lists whose row cannot be
    /// read or is not there, and each tile read that it does not lead to. Rows the walk of the
    /// table skipped but that can be read are checked here.
    mutating func crossCheckIndex() throws {
        guard order == .rowid, let index = try addressIndex() else { return }
        let walk = DamageTolerantWalk("tiles INDEXED BY \(index.quotedDatabaseIdentifier)", columns: "rowid", order: .address)
        let stretches = try walk.run(in: db) { key, row in
            addressesIndexed.insert(key)
            let rowid: Int64 = row[3]
            if !keysRead.contains(rowid) { try checkRow(rowid, listedAs: TileAddressKey.tile(key)) }
        }
        indexReadWhole = stretches.isEmpty
        for key in addressesRead.subtracting(addressesIndexed).sorted() {
            let tile = TileAddressKey.tile(key)
            do {
                let rowid = try Int64.fetchOne(db, sql: """
                    SELECT rowid FROM tiles INDEXED BY \(index.quotedDatabaseIdentifier) WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
                    """, arguments: [tile.z, tile.x, tile.tmsRow])
                if rowid == nil { name(tile, "the index does not list it, so it cannot be looked up", .index) }
            } catch let error as DatabaseError where error.isDamage {
                name(tile, "its index entry is on a damaged page, so it cannot be looked up", .index)
            }
        }
    }

    /// Reads MapFrame's freshness records: each names a tile fetched, which may be on a page that
    /// neither the table nor the index could be read at. A lookup reads a tile's record too, so
    /// a tile whose record is on a damaged page cannot be drawn either.
    mutating func crossCheckFreshnessRecords() throws {
        guard order == .rowid else { return }
        let walk = DamageTolerantWalk("mapframe_tile_state", columns: "", order: .address)
        let stretches = try walk.run(in: db) { key, _ in
            if !addressesRead.contains(key), !addressesIndexed.contains(key) { try checkRecordedTile(TileAddressKey.tile(key)) }
        }
        for key in addressesRead.sorted() where stretches.contains(where: { $0.contains(key) }) {
            let tile = TileAddressKey.tile(key)
            do {
                _ = try Row.fetchOne(db, sql: "SELECT 1 FROM mapframe_tile_state WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                     arguments: [tile.z, tile.x, tile.tmsRow])
            } catch let error as DatabaseError where error.isDamage {
                name(tile, "its freshness record is on a damaged page, so it cannot be looked up", .tile)
            }
        }
    }

    /// Looks at the row the index lists at `rowid` for `tile`.
    private mutating func checkRow(_ rowid: Int64, listedAs tile: TileID) throws {
        do {
            guard let row = try Row.fetchOne(db, sql: "SELECT rowid, \(Self.tileColumns) FROM tiles WHERE rowid = ?", arguments: [rowid]) else {
                name(tile, "the index lists it, but its row is not there", .index)
                return
            }
            try check(row, from: 1, key: rowid)
        } catch let error as DatabaseError where error.isDamage {
            name(tile, Self.damagedRow, .tile)
        }
    }

    /// Looks up a tile that a freshness record names and nothing else did.
    private mutating func checkRecordedTile(_ tile: TileID) throws {
        do {
            guard let row = try Row.fetchOne(db, sql: """
                SELECT rowid, \(Self.tileColumns) FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
                """, arguments: [tile.z, tile.x, tile.tmsRow]) else { return }
            if !keysRead.contains(row[0]) { try check(row, from: 1, key: row[0]) }
        } catch let error as DatabaseError where error.isDamage {
            name(tile, Self.damagedRow, .tile)
        }
    }

    /// Checks the tile in a row read with `tileColumns` from column `start` on, reading its bytes
    /// by `key` when they may be an image.
    private mutating func check(_ row: Row, from start: Int, key: Int64) throws {
        let tile = TileID(z: row[start], x: row[start + 1], tmsRow: row[start + 2])
        if keepsKeys {
            keysRead.insert(key)
            addressesRead.insert(TileAddressKey.key(tile))
        }
        if let reason = MBTilesCache.unusableReason(type: row[start + 3], length: row[start + 4] ?? 0) {
            name(tile, reason, .tile)
            return
        }
        let data: Data?
        do {
            data = switch order {
            case .rowid: try Data.fetchOne(db.cachedStatement(sql: "SELECT tile_data FROM tiles WHERE rowid = ?"), arguments: [key])
            case .address: try Data.fetchOne(db.cachedStatement(sql: """
                SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
                """), arguments: [tile.z, tile.x, tile.tmsRow])
            }
        } catch let error as DatabaseError where error.isDamage {
            name(tile, "its tile_data is on a damaged page, and cannot be read", .tile)
            return
        }
        do throws(TileImageError) {
            // Nil when the tile was deleted meanwhile.
            if let data { _ = try decoder.decode(data) }
        } catch {
            name(tile, error.description, .tile)
        }
    }

    /// The index on `tiles` over exactly (zoom_level, tile_column, tile_row), which MBTiles
    /// files have and lookups use.
    private func addressIndex() throws -> String? {
        try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('tiles') WHERE partial = 0").first { index in
            try String.fetchAll(db, sql: "SELECT lower(name) FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                == ["zoom_level", "tile_column", "tile_row"]
        }
    }

    private mutating func name(_ tile: TileID, _ reason: String, _ fault: CorruptTile.Fault) {
        if named.insert(tile).inserted { corrupt.append(CorruptTile(tile: tile, reason: reason, fault: fault)) }
    }
}
