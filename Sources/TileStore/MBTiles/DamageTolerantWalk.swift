import GRDB
import MapGeometry

/// Reads the rows at real tiles' addresses from one table, view or index, in key order, getting
/// past pages SQLite cannot read. A full scan stops at the first damaged page; this walk reads a
/// batch at a time, and where a read fails as damaged it looks for the next key it can read from,
/// ever further on and then back towards the damage, and goes on from there. The keys skipped
/// are a damaged stretch: rows there could not be read.
///
/// A seek past a damaged page can itself land on another one, so a stretch may hide rows that
/// could be read; those who walk should look again, row by row, at any row another source names.
struct DamageTolerantWalk {
    let order: WalkOrder
    /// `SELECT <key columns>, <columns> FROM <source> WHERE <from the key> AND <a real tile's
    /// address> ORDER BY <key columns> LIMIT ?`.
    private let sql: String

    /// Rows read and visited at a time.
    static let batchSize = 500

    /// - Parameters:
    ///   - source: what to read from, such as `tiles` or `tiles INDEXED BY tile_index`.
    ///   - columns: read after the key's own columns, which `order` gives.
    init(_ source: String, columns: String, order: WalkOrder) {
        self.order = order
        sql = """
            SELECT \(order.keyColumns)\(columns.isEmpty ? "" : ", " + columns) FROM \(source)
            WHERE \(order.fromKey) AND \(MBTilesCache.validTileAddressFilter) ORDER BY \(order.keyColumns) LIMIT ?
            """
    }

    /// Visits every row that can be read, in key order, with its key; returns the stretches of
    /// keys that could not be. Errors other than damage, and those `visit` throws, end the walk.
    func run(in db: Database, visit: (Int64, Row) throws -> Void) throws -> [ClosedRange<Int64>] {
        var damaged: [ClosedRange<Int64>] = []
        var next: Int64? = order.keys.lowerBound
        while let from = next {
            var batch: [(key: Int64, row: Row)] = []
            var damageFrom: Int64?
            do {
                let rows = try Row.fetchCursor(db, sql: sql, arguments: order.arguments(from: from, limit: Self.batchSize))
                while let row = try rows.next() { batch.append((order.key(of: row), row.copy())) }
            } catch let error as DatabaseError where error.isDamage {
                // The batch stopped at the row after the last one read, if there can be one.
                damageFrom = batch.last.map { $0.key < order.keys.upperBound ? $0.key + 1 : nil } ?? from
            }
            for (key, row) in batch { try visit(key, row) }
            if let damageFrom {
                let resume = try firstReadableKey(after: damageFrom, in: db)
                let stretch = damageFrom...(resume.map { $0 - 1 } ?? order.keys.upperBound)
                if let last = damaged.last, last.upperBound == stretch.lowerBound - 1 {
                    damaged[damaged.count - 1] = last.lowerBound...stretch.upperBound
                } else {
                    damaged.append(stretch)
                }
                next = resume
            } else if batch.count == Self.batchSize, let last = batch.last?.key, last < order.keys.upperBound {
                next = last + 1
            } else {
                next = nil
            }
        }
        return damaged
    }

    /// The first key after `damaged` (where a read fails) from which a row, or the end, can be
    /// read; nil when there is none before the last key. Looks 1, 2, 4… keys on, then halves the
    /// gap back to the damage.
    private func firstReadableKey(after damaged: Int64, in db: Database) throws -> Int64? {
        var (unreadable, step) = (damaged, Int64(1))
        var readable: Int64
        while true {
            let probe = unreadable.addingReportingOverflow(step).overflow ? order.keys.upperBound : min(unreadable + step, order.keys.upperBound)
            if try canRead(from: probe, in: db) {
                readable = probe
                break
            }
            guard probe < order.keys.upperBound else { return nil }
            unreadable = probe
            step = step.multipliedReportingOverflow(by: 2).overflow ? .max : step * 2
        }
        while readable - unreadable > 1 {
            let middle = unreadable + (readable - unreadable) / 2
            if try canRead(from: middle, in: db) { readable = middle } else { unreadable = middle }
        }
        return readable
    }

    /// Whether the first row from `key` on (or the end) can be read.
    private func canRead(from key: Int64, in db: Database) throws -> Bool {
        do {
            _ = try Row.fetchOne(db, sql: sql, arguments: order.arguments(from: key, limit: 1))
            return true
        } catch let error as DatabaseError where error.isDamage {
            return false
        }
    }
}

/// The order a walk reads rows in, and each row's place in it as one number: its key.
enum WalkOrder {
    /// By rowid: a rowid table's own order.
    case rowid
    /// By tile address, as MBTiles' index orders it (zoom, column, TMS row): the order of a
    /// view, of a table without rowids, or of an index over the address.
    case address

    /// The columns that make up the key, first in each row read.
    var keyColumns: String {
        switch self {
        case .rowid: "rowid"
        case .address: "zoom_level, tile_column, tile_row"
        }
    }

    /// The number of `keyColumns`.
    var keyColumnCount: Int {
        switch self {
        case .rowid: 1
        case .address: 3
        }
    }

    /// SQL that is true from a key on, its value(s) bound first.
    fileprivate var fromKey: String {
        switch self {
        case .rowid: "rowid >= ?"
        case .address: "(zoom_level, tile_column, tile_row) >= (?, ?, ?)"
        }
    }

    /// Every key there can be.
    var keys: ClosedRange<Int64> {
        switch self {
        case .rowid: Int64.min...Int64.max
        case .address: 0...TileAddressKey.last
        }
    }

    fileprivate func arguments(from key: Int64, limit: Int) -> StatementArguments {
        switch self {
        case .rowid:
            return [key, limit]
        case .address:
            let tile = TileAddressKey.tile(key)
            return [tile.z, tile.x, tile.tmsRow, limit]
        }
    }

    fileprivate func key(of row: Row) -> Int64 {
        switch self {
        case .rowid: row[0]
        case .address: TileAddressKey.key(TileID(z: row[0], x: row[1], tmsRow: row[2]))
        }
    }

    /// "rowids 1396 to 1398", "tiles 15/16384/10880 to 15/16390/10879" (XYZ), "rowid 621", or
    /// for a stretch from the first key or to the last "rowids up to 915", "rowids from 464 on",
    /// "all rowids".
    func describe(_ stretch: ClosedRange<Int64>) -> String {
        let (first, last, singular) = switch self {
        case .rowid: ("\(stretch.lowerBound)", "\(stretch.upperBound)", "rowid")
        case .address: ("\(TileAddressKey.tile(stretch.lowerBound))", "\(TileAddressKey.tile(stretch.upperBound))", "tile")
        }
        switch (stretch.lowerBound == keys.lowerBound, stretch.upperBound == keys.upperBound) {
        case (true, true): return "all \(singular)s"
        case (true, false): return "\(singular)s up to \(last)"
        case (false, true): return "\(singular)s from \(first) on"
        case (false, false): return first == last ? "\(singular) \(first)" : "\(singular)s \(first) to \(last)"
        }
    }
}

/// A real tile's address as one number, in MBTiles' index order (zoom, column, TMS row): each
/// zoom's addresses come after every lower zoom's, so zoom z starts at 1 + 4 + … + 4^(z-1).
enum TileAddressKey {
    /// The last key: that of the last tile at `TileID.maxZoom`.
    static let last = start(ofZoom: TileID.maxZoom + 1) - 1

    static func key(_ tile: TileID) -> Int64 {
        start(ofZoom: tile.z) + Int64(tile.x) << tile.z + Int64(tile.tmsRow)
    }

    /// The tile whose key this is; a key past `last` is taken as `last`.
    static func tile(_ key: Int64) -> TileID {
        let key = min(max(key, 0), last)
        let z = (0...TileID.maxZoom).last { start(ofZoom: $0) <= key }!
        let offset = key - start(ofZoom: z)
        return TileID(z: z, x: Int(offset >> z), tmsRow: Int(offset & (Int64(1) << z - 1)))
    }

    /// The key of zoom z's first tile: (4^z - 1) / 3.
    private static func start(ofZoom z: Int) -> Int64 {
        ((Int64(1) << (2 * z)) - 1) / 3
    }
}

extension DatabaseError {
    /// Whether SQLite found a page of the file damaged: not a tile's fault, nor a busy file's.
    var isDamage: Bool { resultCode == .SQLITE_CORRUPT }
}
