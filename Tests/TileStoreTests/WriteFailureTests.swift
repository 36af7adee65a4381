import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import GRDB
@testable import TileStore
import UpstreamSimulator

extension MBTilesCache {
    /// Makes the file full as this connection sees it: it may add no page to the file, so each
    /// of its writes that needs one fails with SQLITE_FULL, as when the disk is full.
    func fillUp() throws {
        try write("fill the file up") { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
    }
}

extension UpstreamWorld {
    /// Serves a realistic tile of several kilobytes for `tile`: storing it needs new pages.
    func serveLargeTile(_ tile: TileID) throws {
        upstream.setResponse(.png(try SimulatedTiles.detailedPNG(for: tile)), for: upstreamPath(tile))
    }
}

/// A fetched tile that cannot be stored: the failure is a write, said as such ("not stored"),
/// remembered like a failed fetch so the upstream is not asked again at once, and nothing
/// already cached is touched.
@Suite("Write failures")
struct WriteFailureTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    @Test("with nothing cached, the tile is missing as not stored, and not asked for again meanwhile")
    func diskFullWithoutCopy() async throws {
        let world = try UpstreamWorld(fullCache: true)
        try world.serveLargeTile(Self.tile)
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let text = missing.description
        #expect(text.contains("not stored") && text.contains("disk is full") && text.contains(world.cachePath), "\(text)")
        #expect(!text.contains("unreadable"), "a write failure is not a read failure: \(text)")

        let again = await world.store.tile(Self.tile).fill
        #expect(again == .missing(missing), "the same answer, from memory: \(again)")
        #expect(world.requests(for: Self.tile).count == 1, "a tile that cannot be stored is not fetched again at once")
        try await world.expectNothingCached(Self.tile)

        world.clock.advance(by: world.fetcher.policy.failedFetchMemory + 1)
        _ = await world.store.tile(Self.tile).fill
        #expect(world.requests(for: Self.tile).count == 2, "once the failure is forgotten the tile is fetched again")
    }

    @Test("with an expired copy, the copy is served stale and kept byte for byte")
    func diskFullWithCopy() async throws {
        let world = try UpstreamWorld(fullCache: true)
        let old = try world.seedExpiredCopy(of: Self.tile, version: 0)
        let oldFreshness = try world.cached(Self.tile).freshness
        try world.serveLargeTile(Self.tile)
        let message = try #require(await world.store.tile(Self.tile).fill.staleMessage)
        #expect(message.contains("not stored") && message.contains("disk is full"), "\(message)")
        #expect(await world.store.tile(Self.tile).fill.staleMessage == message)
        #expect(world.requests(for: Self.tile).count == 1, "a tile that cannot be stored is not fetched again at once")
        try await world.expectCached(Self.tile, bytes: old)
        #expect(try world.cached(Self.tile).freshness == oldFreshness, "the copy's record must not change")
    }
}
