import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore

/// Expire lists as osm2pgsql writes them, read a line at a time, and the blocks of tiles they
/// mark expired in an MBTiles cache.
@Suite("Expiry lists")
struct ExpiryListTests {
    struct ReadCase: Sendable, CustomTestStringConvertible {
        let line: String
        let block: TileBlock?
        var testDescription: String { line.debugDescription }
    }

    static let readCases = [
        ReadCase(line: "15/16370/10896", block: TileBlock(zoom: 15, columns: 16370...16370, rows: 10896...10896)),
        ReadCase(line: "0/0/0", block: TileBlock(zoom: 0, columns: 0...0, rows: 0...0)),
        ReadCase(line: "15/16370-16373/10896-10899", block: TileBlock(zoom: 15, columns: 16370...16373, rows: 10896...10899)),
        ReadCase(line: "15/16370/10896-10899", block: TileBlock(zoom: 15, columns: 16370...16370, rows: 10896...10899)),
        ReadCase(line: "30/1073741823/0", block: TileBlock(zoom: 30, columns: 1_073_741_823...1_073_741_823, rows: 0...0)),
        ReadCase(line: "  12/2046/1361\t\r", block: TileBlock(zoom: 12, columns: 2046...2046, rows: 1361...1361)),
        ReadCase(line: "", block: nil),
        ReadCase(line: " \t\r", block: nil),
    ]

    @Test("osm2pgsql's z/x/y, ranges, blank lines and padding are read", arguments: readCases)
    func reads(_ readCase: ReadCase) throws {
        #expect(try ExpiryList.block(inLine: Substring(readCase.line)) == readCase.block)
    }

    struct RefusalCase: Sendable, CustomTestStringConvertible {
        let line: String
        let message: String
        var testDescription: String { line.debugDescription }
    }

    static let notATile = "not a tile; allowed z/x/y, such as 15/16370/10896, or ranges z/x1-x2/y1-y2, in whole numbers"
    static let refusalCases = [
        RefusalCase(line: "15/16370/x", message: notATile),
        RefusalCase(line: "15/16370", message: notATile),
        RefusalCase(line: "15/16370/10896/2", message: notATile),
        RefusalCase(line: "15/-1/10896", message: notATile),
        RefusalCase(line: "+15/16370/10896", message: notATile),
        RefusalCase(line: "15/16370.5/10896", message: notATile),
        RefusalCase(line: "15 16370 10896", message: notATile),
        RefusalCase(line: "# tiles changed today", message: notATile),
        RefusalCase(line: "15/16370-/10896", message: notATile),
        RefusalCase(line: "15/1-2-3/10896", message: notATile),
        RefusalCase(line: "31/0/0", message: "zoom 31 is outside 0-30"),
        RefusalCase(line: "15/40000/10896", message: "x 40000 is outside 0-32767, the tiles at zoom 15"),
        RefusalCase(line: "15/16370/10896-32768", message: "y 32768 is outside 0-32767, the tiles at zoom 15"),
        RefusalCase(line: "15/9-3/10896", message: "x 9-3 runs backwards; allowed x1-x2 with x1 no greater than x2"),
        RefusalCase(line: String(repeating: "1", count: 101), message: "longer than 100 characters; " + String(notATile.dropFirst("not a tile; ".count)) + ", one a line"),
    ]

    @Test("a line that names no tile is refused, saying what is allowed", arguments: refusalCases)
    func refuses(_ refusal: RefusalCase) {
        #expect(throws: (any Error).self) { try ExpiryList.block(inLine: Substring(refusal.line)) }
        do {
            _ = try ExpiryList.block(inLine: Substring(refusal.line))
        } catch {
            #expect(error.description == refusal.message)
        }
    }

    @Test("a block's descendants are one block a zoom: zoom 0 down to 19 is 20 blocks, not a trillion tiles")
    func descendantsByRange() {
        let world = TileBlock(TileID(z: 0, x: 0, y: 0)).withDescendants(through: 19)
        #expect(world.count == 20)
        #expect(world.last == TileBlock(zoom: 19, columns: 0...(1 << 19) - 1, rows: 0...(1 << 19) - 1))
        let block = TileBlock(zoom: 15, columns: 16370...16371, rows: 10896...10896)
        #expect(block.covering(atZoom: 17) == TileBlock(zoom: 17, columns: 65480...65487, rows: 43584...43587))
        #expect(block.withDescendants(through: 14).isEmpty, "nothing deeper than the block is held")
    }

    @Test("marking expires exactly the tiles held inside the blocks, once each, keeping their bytes and validators; untracked tiles gain an expired record")
    func marksAnMBTilesCache() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try MBTilesCache(creatingIfNeeded: directory.appendingPathComponent("sim.mbtiles").path)
            let now = Date(timeIntervalSince1970: 1_750_000_000)
            let fresh = TileFreshness(etag: "\"v1\"", lastModified: nil, expiresAt: now + 86_400, fetchedAt: now - 3600)
            let expired = TileFreshness(etag: "\"v0\"", lastModified: nil, expiresAt: now - 60, fetchedAt: now - 86_400)
            let inside = [TileID(z: 15, x: 16370, y: 10896), TileID(z: 16, x: 32741, y: 21793), TileID(z: 17, x: 65482, y: 43587)]
            let outside = [TileID(z: 15, x: 16371, y: 10896), TileID(z: 16, x: 32742, y: 21793), TileID(z: 14, x: 8185, y: 5448)]
            let untracked = TileID(z: 17, x: 65483, y: 43586)
            let alreadyExpired = TileID(z: 16, x: 32740, y: 21792)
            for tile in inside + outside { try cache.store(try SimulatedTiles.png(for: tile), for: tile, freshness: fresh) }
            try cache.store(try SimulatedTiles.png(for: untracked), for: untracked)
            try cache.store(try SimulatedTiles.png(for: alreadyExpired), for: alreadyExpired, freshness: expired)

            // The tile at zoom 15 and its descendants, and the same zoom 16 tile again: overlapping blocks.
            let blocks = TileBlock(inside[0]).withDescendants(through: 17) + [TileBlock(inside[1])]
            let backend = MBTilesBackend(cache)
            #expect(try await backend.markExpired(blocks, at: now) == inside.count + 1)
            #expect(try await backend.markExpired(blocks, at: now) == 0, "marked twice")

            for tile in inside {
                let stored = try #require(try cache.lookup(tile, at: now).stored)
                #expect(stored.freshness == TileFreshness(etag: fresh.etag, lastModified: nil, expiresAt: now, fetchedAt: fresh.fetchedAt), "\(tile)")
                #expect(stored.data == (try SimulatedTiles.png(for: tile)))
            }
            for tile in outside { #expect(try cache.lookup(tile, at: now).stored?.freshness == fresh, "\(tile)") }
            #expect(try cache.lookup(untracked, at: now).stored?.freshness == TileFreshness(etag: nil, lastModified: nil, expiresAt: now, fetchedAt: now))
            #expect(try cache.lookup(alreadyExpired, at: now).stored?.freshness == expired)
        }
    }
}
