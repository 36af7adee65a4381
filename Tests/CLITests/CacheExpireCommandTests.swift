import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

/// `mapframe cache expire`: an osm2pgsql expire list marks tiles expired in an MBTiles file or
/// the shared PostgreSQL cache. What changed is read from outside, with Python's sqlite3 or psql.
@Suite("mapframe cache expire")
struct CacheExpireCommandTests {
    /// Zoom 14 to 17 over a corner of Cambridge, fresh for a day, tagged for revalidation.
    static let area = SeedArea(bbox: "0.12,52.20,0.14,52.21", zooms: 14...17)

    /// Runs `body` with a workspace whose `cache/local.mbtiles` was seeded with `area`.
    static func withSeededCache(_ body: (Workspace, String) async throws -> Void) async throws {
        try await CacheCommandTests.withSeededCache(area, headers: { _ in [("Cache-Control", "max-age=86400"), ("ETag", "\"v1\"")] }, body)
    }

    /// 1,000 lines as osm2pgsql writes them, with ranges, padding, a blank line and repeats: a few
    /// inside the area at zooms 15 to 17, the rest elsewhere.
    static func thousandLines() -> [String] {
        let tiles = area.tiles.sorted()
        let deepest = tiles.filter { $0.z == 17 }
        let middle = tiles.first { $0.z == 15 }!
        let row16 = tiles.filter { $0.z == 16 }.sorted { $0.x < $1.x }
        var lines = deepest.prefix(12).enumerated().map { index, tile in index % 3 == 0 ? " \(tile)\r" : "\(tile)" }
        lines.append("\(middle)")
        lines.append("16/\(row16[0].x)-\(row16[0].x + 1)/\(row16[0].y)")
        lines.append("\(deepest[0])")
        lines.append("")
        lines.append("14/0-3/0-3")
        var offset = 0
        while lines.count < 1000 {
            lines.append("17/\(1000 + offset)/\(2000 + offset / 7)")
            offset += 1
        }
        return lines
    }

    /// The tiles of `cached` that `lines` mark: those whose ancestor (or self) at a listed zoom
    /// falls in a listed line's columns and rows. Worked out by shifting each tile up, where the
    /// command widens each line down.
    static func marked(by lines: [String], among cached: Set<TileID>) -> Set<TileID> {
        let listed = lines.compactMap { line -> (z: Int, x: ClosedRange<Int>, y: ClosedRange<Int>)? in
            let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/")
            guard parts.count == 3 else { return nil }
            func range(_ text: Substring) -> ClosedRange<Int> {
                let ends = text.split(separator: "-").map { Int($0)! }
                return ends[0]...ends[ends.count - 1]
            }
            return (Int(parts[0])!, range(parts[1]), range(parts[2]))
        }
        return cached.filter { tile in
            listed.contains { line in
                line.z <= tile.z && line.x.contains(tile.x >> (tile.z - line.z)) && line.y.contains(tile.y >> (tile.z - line.z))
            }
        }
    }

    /// Every row of the cache's freshness table with its tile's bytes, by tile.
    static func freshnessRows(_ path: String) async throws -> [TileID: [String]] {
        let rows = try await IndependentSQLite.query(path, """
            SELECT s.zoom_level, s.tile_column, s.tile_row, s.etag, s.last_modified, s.expires_at, s.fetched_at, hex(t.tile_data)
            FROM mapframe_tile_state s JOIN tiles t USING (zoom_level, tile_column, tile_row)
            """)
        return Dictionary(uniqueKeysWithValues: rows.map { (TileID(z: Int($0[0])!, x: Int($0[1])!, tmsRow: Int($0[2])!), Array($0[3...])) })
    }

    @Test("an expire list of 1,000 lines marks exactly the listed tiles and their children expired, keeping bytes and validators")
    func thousandLinesMarkTheRightTiles() async throws {
        try await Self.withSeededCache { workspace, cache in
            let lines = Self.thousandLines()
            #expect(lines.count == 1000)
            let list = try workspace.write(lines.joined(separator: "\n") + "\n", to: "dirty.list")
            let before = try await Self.freshnessRows(cache)
            #expect(Set(before.keys) == Self.area.tiles, "every seeded tile is tracked")
            let expected = Self.marked(by: lines, among: Set(before.keys))
            #expect(expected.count > 12 && expected.count < before.count, "a list that marks some tiles and not others: \(expected.count)")

            let started = Date().timeIntervalSince1970
            let result = try await workspace.mapframe("cache", "expire", list, "--cache", cache)
            let ended = Date().timeIntervalSince1970
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("\(cache): marked \(expected.count) tiles expired"), "\(result)")
            #expect(result.standardOutput.contains("from 999 listed, with their children down to zoom 17"), "\(result)")

            let after = try await Self.freshnessRows(cache)
            #expect(Set(after.keys) == Set(before.keys), "tiles came or went")
            let changed = Set(after.keys.filter { after[$0] != before[$0] })
            #expect(changed == expected, "marked but not listed: \(changed.subtracting(expected).sorted()); listed but not marked: \(expected.subtracting(changed).sorted())")
            for tile in changed {
                let (old, new) = (before[tile]!, after[tile]!)
                // etag, last_modified, fetched_at and the bytes stay; only the expiry moves, to the command's now.
                #expect(new[0] == old[0] && new[1] == old[1] && new[3] == old[3] && new[4] == old[4], "\(tile): \(old) -> \(new)")
                let expiry = try #require(Double(new[2]))
                #expect(expiry >= started - 1 && expiry <= ended, "\(tile) expires at \(expiry), not between \(started) and \(ended)")
            }

            let again = try await workspace.mapframe("cache", "expire", list, "--cache", cache)
            #expect(again.standardOutput.contains("\(cache): marked 0 tiles expired"), "tiles expired already are not marked again: \(again)")
        }
    }

    @Test("one line that names no tile refuses the whole list, naming the line, and nothing is marked")
    func badLineRefusesTheList() async throws {
        try await Self.withSeededCache { workspace, cache in
            var lines = Self.thousandLines()
            lines[4] = "15/abc/10896"
            lines[700] = "15/40000/10896"
            let list = try workspace.write(lines.joined(separator: "\n"), to: "dirty.list")
            let before = try await Self.freshnessRows(cache)

            let result = try await workspace.mapframe("cache", "expire", "--style", "local", "--cache-dir", workspace.path("cache"), list)
            #expect(result.status == 2, "\(result)")
            for expected in [
                "cache expire: \(list): 2 of its lines name no tile, so nothing was marked",
                #"line 5: "15/abc/10896": not a tile; allowed z/x/y, such as 15/16370/10896, or ranges z/x1-x2/y1-y2, in whole numbers"#,
                #"line 701: "15/40000/10896": x 40000 is outside 0-32767, the tiles at zoom 15"#,
            ] {
                #expect(result.standardError.contains(expected), "\(result.standardError)")
            }
            #expect(try await Self.freshnessRows(cache) == before, "the cache changed")
        }
    }

    @Test("the list may come on standard input")
    func readsStandardInput() async throws {
        try await Self.withSeededCache { workspace, cache in
            let tile = Self.area.tiles.first { $0.z == 17 }!
            let list = try workspace.write("\(tile)\n", to: "dirty.list")
            let command = "'\(try MapframeExecutable.url().path)' cache expire --cache '\(cache)' - < '\(list)'"
            let result = try await runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: workspace.directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("\(cache): marked 1 tiles expired"), "\(result)")
        }
    }

    @Test("a PMTiles archive, only read, and a directory with no style named are refused before the list is read")
    func refusedBeforeReading() async throws {
        try await Workspace.with { workspace in
            let archive = try await workspace.mapframe("cache", "expire", "--cache", "tiles.pmtiles", "missing.list")
            #expect(archive.status == 2, "\(archive)")
            #expect(archive.standardError.contains("tiles.pmtiles is a PMTiles archive, which MapFrame only reads"), "\(archive)")
            let unnamed = try await workspace.mapframe("cache", "expire", "--cache-dir", workspace.path("cache"), "missing.list")
            #expect(unnamed.status == 2, "\(unnamed)")
            #expect(unnamed.standardError.contains("--style: name the style whose tiles the list names"), "\(unnamed)")
        }
    }

    @Test(
        "the shared PostgreSQL cache: the list marks the same tiles there",
        .enabled(if: PostgresCluster.unavailability == nil, "\(PostgresCluster.unavailability ?? "")")
    )
    func marksThePostgresCache() async throws {
        try await Self.withSeededCache { workspace, cache in
            let cluster = try await PostgresCluster()
            defer { cluster.remove() }
            try await cluster.createDatabase("tiles")
            let environment = cluster.environment.mapValues { Optional($0) }
            let database = cluster.url(database: "tiles")
            let copy = try await workspace.mapframe(["cache", "copy", cache, database, "--style", "local"], environment: environment)
            try #require(copy.status == 0, "\(copy)")

            let lines = Self.thousandLines()
            let list = try workspace.write(lines.joined(separator: "\n"), to: "dirty.list")
            let expected = Self.marked(by: lines, among: Self.area.tiles)
            let cutoff = Date().timeIntervalSince1970 + 3600
            let result = try await workspace.mapframe(["cache", "expire", "--style", "local", "--cache", database, list], environment: environment)
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("(style local): marked \(expected.count) tiles expired"), "\(result)")

            let rows = try await cluster.psql("SELECT z, x, y FROM mapframe_tiles WHERE style = 'local' AND expires_at < \(cutoff)", database: "tiles")
            let expired = Set(rows.split(separator: "\n").map { row in
                let numbers = row.split(separator: "|").map { Int($0)! }
                return TileID(z: numbers[0], x: numbers[1], y: numbers[2])
            })
            #expect(expired == expected, "marked but not listed: \(expired.subtracting(expected).sorted()); listed but not marked: \(expected.subtracting(expired).sorted())")
            let kept = try await cluster.psql("SELECT count(*) FROM mapframe_tiles WHERE style = 'local' AND etag = '\"v1\"'", database: "tiles")
            #expect(kept == String(Self.area.tiles.count), "tiles or validators lost: \(kept)")
        }
    }
}
