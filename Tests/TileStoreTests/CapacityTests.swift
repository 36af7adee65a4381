import Foundation
import MapGeometry
import Testing
import TileStore

/// A cache with a capacity keeps to it by purging the least recently used tiles: a tile drawn
/// again counts as used, so an area the user keeps looking at survives newer fetches.
@Suite("Cache capacity")
struct CapacityTests {
    /// Forty tiles in a row at zoom 16, fetched in this order.
    static let tiles = (0..<40).map { TileID(z: 16, x: 32770 + $0, y: 21586) }
    /// The first three, which the user keeps coming back to.
    static let favourites = Array(tiles.prefix(3))

    /// Fetches the forty tiles one clock second apart, and after every ten draws the favourites
    /// again (`tile(_:)` + `flush()`), as frames over home would, handing the cache's statistics
    /// after each flush to `afterFlush`. Returns the tiles still cached.
    static func fetchAllRevisitingFavourites(
        in world: UpstreamWorld, afterFlush: (CacheStatistics) -> Void
    ) async throws -> Set<TileID> {
        for (index, tile) in tiles.enumerated() {
            #expect(await world.store.tile(tile).fill == .fetched)
            world.clock.advance(by: 1)
            if (index + 1) % 10 == 0 {
                for favourite in favourites { #expect((await world.store.drawn(favourite)).image != nil) }
                try await world.store.flush()
                afterFlush(try world.reader().statistics(at: world.clock.now))
                world.clock.advance(by: 1)
            }
        }
        let reader = try world.reader()
        return Set(try tiles.filter { try reader.tileData(for: $0) != nil })
    }

    /// The favourites survive, something was purged, and of the other tiles only the most
    /// recently fetched remain: everything purged was used before everything kept.
    static func expectLeastRecentlyUsedPurged(_ kept: Set<TileID>, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(favourites.allSatisfy(kept.contains), "a favourite was purged", sourceLocation: sourceLocation)
        let others = tiles.dropFirst(favourites.count)
        let purged = others.filter { !kept.contains($0) }
        #expect(!purged.isEmpty, "the capacity was never reached", sourceLocation: sourceLocation)
        let firstKept = others.firstIndex(where: kept.contains) ?? others.endIndex
        #expect(others[firstKept...].allSatisfy(kept.contains), "purged out of order: kept \(kept.sorted())", sourceLocation: sourceLocation)
    }

    @Test("maxTiles 20: with 40 fetched, at most 20 tracked tiles remain after each flush, the least recently used purged")
    func maxTiles() async throws {
        let world = try UpstreamWorld(capacity: CacheCapacity(maxTiles: 20))
        let kept = try await Self.fetchAllRevisitingFavourites(in: world) { statistics in
            #expect(statistics.tileCount - statistics.untrackedCount <= 20, "\(statistics)")
        }
        Self.expectLeastRecentlyUsedPurged(kept)
    }

    @Test("maxBytes about ten tiles: with 40 fetched, the tiles fit after each flush, the least recently used purged")
    func maxBytes() async throws {
        let limit = try Self.tiles.suffix(10).map { try SimulatedTiles.png(for: $0).count }.reduce(0, +)
        let world = try UpstreamWorld(capacity: CacheCapacity(maxBytes: limit))
        let kept = try await Self.fetchAllRevisitingFavourites(in: world) { statistics in
            #expect(statistics.totalBytes <= limit, "\(statistics.totalBytes) bytes in \(statistics.tileCount) tiles; the limit is \(limit)")
        }
        Self.expectLeastRecentlyUsedPurged(kept)
    }
}
