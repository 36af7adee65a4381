import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing

/// Damage done to an MBTiles file as a failing disk or a lost write leaves it, and what it did,
/// found tile by tile through `IndependentSQLite` (not with MapFrame's code). Pages are found
/// from SQLite's own account of the file (`dbstat`, `page_size`) and overwritten in place, as a
/// disk would.
enum DamagedMBTiles {
    /// Tiles whose rows can no longer be read, and tiles whose rows can be but that a lookup by
    /// address (through `tile_index`) no longer reaches.
    struct Harm {
        var unreadable: Set<TileID> = []
        var unreachable: Set<TileID> = []
    }

    /// Overwrites with garbage one page of the B-tree `btree` (`tiles` or `tile_index`): a page
    /// of `kind` (`leaf` or `internal`) in the middle of the file, among those holding the most
    /// cells. Every tile is then read by rowid and looked up by address, one at a time.
    static func overwritePage(of btree: String, kind: String = "leaf", in path: String) async throws -> Harm {
        let pageSize = try await settle(path)
        let pages = try await IndependentSQLite.query(
            path, "SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno", [.text(btree), .text(kind)]
        ).map { (page: Int($0[0])!, cells: Int($0[1])!) }
        guard let most = pages.map(\.cells).max() else { throw TestSetupError(description: "\(path) has no \(kind) pages in \(btree)") }
        let known = try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, rowid FROM tiles").map { $0.map { Int($0)! } }
        let middle = pages[pages.count / 2].page
        let page = pages.filter { $0.cells == most }.map(\.page).min { abs($0 - middle) < abs($1 - middle) }!
        var random = SeededRandom(seed: UInt64(page))
        try overwrite(page: page, of: path, pageSize: pageSize, with: random.bytes(count: pageSize))

        let read = try await IndependentSQLite.queryEach(path, "SELECT hex(tile_data) FROM tiles WHERE rowid = ?", known.map { [.integer($0[3])] })
        let found = try await IndependentSQLite.queryEach(
            path, "SELECT rowid FROM tiles INDEXED BY tile_index WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
            known.map { [.integer($0[0]), .integer($0[1]), .integer($0[2])] }
        )
        var harm = Harm()
        for (index, row) in known.enumerated() {
            let tile = TileID(z: row[0], x: row[1], tmsRow: row[2])
            if read[index] == nil { harm.unreadable.insert(tile) } else if found[index] == nil { harm.unreachable.insert(tile) }
        }
        return harm
    }

    /// Deletes 3 tiles in the middle, then puts back the index page as it was before: a write
    /// the disk acknowledged but never made. The index then lists 3 tiles that are not there,
    /// every page is whole, and SQLite reports "wrong # of entries in index tile_index".
    /// Returns the 3 tiles.
    static func loseIndexWrite(in path: String) async throws -> Set<TileID> {
        let pageSize = try await settle(path)
        let indexPages = try await IndependentSQLite.query(path, "SELECT pageno FROM dbstat WHERE name = 'tile_index'").map { Int($0[0])! }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let gone = try await IndependentSQLite.query(
            path, "SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level, tile_column, tile_row LIMIT 3 OFFSET (SELECT count(*) / 2 FROM tiles)"
        ).map { $0.map { Int($0)! } }
        let deleted = try await IndependentSQLite.changeEach(
            path, "DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", gone.map { $0.map(IndependentSQLite.Value.integer) }
        )
        guard gone.count == 3, deleted == 3 else { throw TestSetupError(description: "deleted \(deleted) of \(gone.count) tiles in \(path)") }
        _ = try await settle(path)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = { (file: Data, page: Int) in file.subdata(in: min(file.count, (page - 1) * pageSize)..<min(file.count, page * pageSize)) }
        let changed = indexPages.filter { bytes(before, $0) != bytes(after, $0) }
        guard changed.count == 1, let page = changed.first else {
            throw TestSetupError(description: "the deletion changed \(changed.count) index pages of \(path)")
        }
        try overwrite(page: page, of: path, pageSize: pageSize, with: bytes(before, page))
        return Set(gone.map { TileID(z: $0[0], x: $0[1], tmsRow: $0[2]) })
    }

    /// Moves everything in the write-ahead log into the file itself, so that the file's pages
    /// are the database, and returns the page size.
    private static func settle(_ path: String) async throws -> Int {
        _ = try await IndependentSQLite.query(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        guard let size = try await IndependentSQLite.query(path, "PRAGMA page_size").first?.first.flatMap({ Int($0) }) else {
            throw TestSetupError(description: "no page size for \(path)")
        }
        return size
    }

    /// Writes `bytes` over page `page` (counted from 1) of the file at `path`, as a disk would.
    private static func overwrite(page: Int, of path: String, pageSize: Int, with bytes: Data) throws {
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        try file.write(contentsOf: bytes)
    }
}

/// Every tile's rowid and bytes, to tell afterwards which tiles are still there unchanged: read
/// back by rowid, one at a time, so that a damaged page costs only its own tiles.
struct TileInventory {
    private(set) var rows: [TileID: (rowid: Int, hex: String)] = [:]

    /// What an undamaged file holds.
    static func read(_ path: String) async throws -> TileInventory {
        var inventory = TileInventory()
        for row in try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, rowid, hex(tile_data) FROM tiles") {
            inventory.rows[TileID(z: Int(row[0])!, x: Int(row[1])!, tmsRow: Int(row[2])!)] = (Int(row[3])!, row[4])
        }
        return inventory
    }

    var tiles: Set<TileID> { Set(rows.keys) }

    /// The tiles in `path` now whose rows read back with the same bytes.
    func unchanged(in path: String) async throws -> Set<TileID> {
        let listed = Array(rows)
        let now = try await IndependentSQLite.queryEach(path, "SELECT hex(tile_data) FROM tiles WHERE rowid = ?", listed.map { [.integer($0.value.rowid)] })
        return Set(zip(listed, now).filter { entry, read in read?.first?.first == entry.value.hex }.map(\.0.key))
    }
}

/// The tiles `cache verify` names, one a line ("  16/32788/21586: reason"), with the rest of
/// each line.
func tilesNamed(in output: String) -> [TileID: String] {
    var named: [TileID: String] = [:]
    for line in output.split(separator: "\n") {
        guard let match = line.firstMatch(of: #/^  (\d+)/(\d+)/(\d+): (.*)$/#) else { continue }
        named[TileID(z: Int(match.1)!, x: Int(match.2)!, y: Int(match.3)!)] = String(match.4)
    }
    return named
}
