import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing

/// Damage done to an MBTiles file as a failing disk or a lost write leaves it, and what it did,
/// found with Python's sqlite3 tile by tile (not with MapFrame's code).
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
        let result = try await runPython("""
            import random, sqlite3, sys
            path, btree, kind = sys.argv[1:4]
            db = sqlite3.connect(path)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            size = db.execute("PRAGMA page_size").fetchone()[0]
            pages = db.execute("SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno", (btree, kind)).fetchall()
            known = db.execute("SELECT zoom_level, tile_column, tile_row, rowid FROM tiles").fetchall()
            db.close()
            fullest = [page for page, cells in pages if cells == max(cells for _, cells in pages)]
            page = min(fullest, key=lambda page: abs(page - pages[len(pages) // 2][0]))
            with open(path, "r+b") as file:
                file.seek((page - 1) * size)
                file.write(random.Random(page).randbytes(size))
            db = sqlite3.connect(path)
            def fails(sql, arguments):
                try:
                    db.execute(sql, arguments).fetchall()
                    return False
                except sqlite3.DatabaseError:
                    return True
            for z, x, row, rowid in known:
                if fails("SELECT tile_data FROM tiles WHERE rowid = ?", (rowid,)):
                    print("unreadable", z, x, row)
                elif fails("SELECT rowid FROM tiles INDEXED BY tile_index WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", (z, x, row)):
                    print("unreachable", z, x, row)
            """, [path, btree, kind])
        guard result.status == 0 else { throw TestSetupError(description: "cannot damage \(btree) in \(path): \(result)") }
        var harm = Harm()
        for line in result.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let tile = TileID(z: Int(fields[1])!, x: Int(fields[2])!, tmsRow: Int(fields[3])!)
            if fields[0] == "unreadable" { harm.unreadable.insert(tile) } else { harm.unreachable.insert(tile) }
        }
        return harm
    }

    /// Deletes 3 tiles in the middle, then puts back the index page as it was before: a write
    /// the disk acknowledged but never made. The index then lists 3 tiles that are not there,
    /// every page is whole, and SQLite reports "wrong # of entries in index tile_index".
    /// Returns the 3 tiles.
    static func loseIndexWrite(in path: String) async throws -> Set<TileID> {
        let result = try await runPython("""
            import sqlite3, sys
            path = sys.argv[1]
            db = sqlite3.connect(path)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            size = db.execute("PRAGMA page_size").fetchone()[0]
            index_pages = [page for (page,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'tile_index'")]
            before = open(path, "rb").read()
            gone = db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level, tile_column, tile_row "
                              "LIMIT 3 OFFSET (SELECT count(*) / 2 FROM tiles)").fetchall()
            db.executemany("DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", gone)
            db.commit()
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.close()
            after = open(path, "rb").read()
            changed = [page for page in index_pages if before[(page - 1) * size:page * size] != after[(page - 1) * size:page * size]]
            if len(changed) != 1:
                sys.exit("the deletion changed %d index pages" % len(changed))
            with open(path, "r+b") as file:
                file.seek((changed[0] - 1) * size)
                file.write(before[(changed[0] - 1) * size:changed[0] * size])
            for z, x, row in gone:
                print(z, x, row)
            """, [path])
        guard result.status == 0 else { throw TestSetupError(description: "cannot lose an index write in \(path): \(result)") }
        return Set(result.standardOutput.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map { Int($0)! }
            return TileID(z: fields[0], x: fields[1], tmsRow: fields[2])
        })
    }
}

/// Every tile's rowid and a digest of its bytes, to tell afterwards which tiles are still there
/// unchanged: read back by rowid, one at a time, so that a damaged page costs only its own tiles.
struct TileInventory {
    private(set) var rows: [TileID: (rowid: Int64, digest: String)] = [:]

    /// What an undamaged file holds.
    static func read(_ path: String) async throws -> TileInventory {
        let result = try await runPython("""
            import hashlib, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for z, x, row, rowid, data in db.execute("SELECT zoom_level, tile_column, tile_row, rowid, tile_data FROM tiles"):
                print(z, x, row, rowid, hashlib.sha1(data).hexdigest())
            """, [path])
        guard result.status == 0 else { throw TestSetupError(description: "cannot read \(path): \(result)") }
        var inventory = TileInventory()
        for line in result.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            inventory.rows[TileID(z: Int(fields[0])!, x: Int(fields[1])!, tmsRow: Int(fields[2])!)] = (Int64(fields[3])!, String(fields[4]))
        }
        return inventory
    }

    var tiles: Set<TileID> { Set(rows.keys) }

    /// The tiles in `path` now whose rows read back with the same bytes.
    func unchanged(in path: String) async throws -> Set<TileID> {
        let listed = rows.map { "\($0.value.rowid):\($0.value.digest)" }
        let result = try await runPython("""
            import hashlib, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for entry in sys.argv[2:]:
                rowid, digest = entry.split(":")
                try:
                    row = db.execute("SELECT tile_data FROM tiles WHERE rowid = ?", (int(rowid),)).fetchone()
                except sqlite3.DatabaseError:
                    continue
                if row is not None and hashlib.sha1(row[0]).hexdigest() == digest:
                    print(rowid)
            """, [path] + listed)
        guard result.status == 0 else { throw TestSetupError(description: "cannot read \(path) back: \(result)") }
        let rowids = Set(result.standardOutput.split(separator: "\n").map { Int64($0)! })
        return Set(rows.filter { rowids.contains($0.value.rowid) }.keys)
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
