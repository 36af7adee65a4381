import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// An upstream that misbehaves: what the cache keeps, and what the store hands a frame. A bad
/// answer is never stored and never replaces a good tile; with no copy the tile is reported
/// missing (drawn grey), and with an expired copy the copy is handed out (stale-if-error).
@Suite("Upstream faults")
struct UpstreamFaultTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    /// One way for the upstream to fail every try of a fill.
    struct Trouble: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// Tries per fill: one where each try uses up the whole timeout, to keep the suite fast.
        let tries: Int
        /// Words the failure message must contain.
        let mentions: String
        let start: @Sendable (UpstreamWorld) throws -> Void

        /// The simulator applies `fault` to every try for the tile.
        static func fault(_ name: String, _ fault: Fault, tries: Int = 3, mentions: String) -> Trouble {
            Trouble(testDescription: name, tries: tries, mentions: mentions) { world in world.inject(fault, for: UpstreamFaultTests.tile, times: tries) }
        }
    }

    static let troubles: [Trouble] = [
        .fault("timeout", .timeout, tries: 1, mentions: "timed out"),
        .fault("truncated body", .truncatedBody, mentions: "after 3 tries"),
        .fault("HTML page with 200", .htmlBody, mentions: "text/html"),
        .fault("corrupt PNG", .corruptImage, mentions: "does not decode"),
        .fault("slow drip beyond the total timeout", .slowDrip(bytesPerSecond: 40), tries: 1, mentions: "timed out"),
        Trouble(testDescription: "upstream down", tries: 3, mentions: "after 3 tries") { world in world.upstream.stop() },
    ]

    @Test("with nothing cached, the tile is missing: nothing stored, and reported missing", arguments: troubles)
    func failureWithoutCopy(_ trouble: Trouble) async throws {
        let world = try UpstreamWorld(policy: .fastTest(maxAttempts: trouble.tries))
        try trouble.start(world)
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains(trouble.mentions), "\(message)")
        try await world.expectNothingCached(Self.tile)
    }

    @Test("with an expired copy, the copy is served stale and kept byte for byte", arguments: troubles)
    func failureWithExpiredCopy(_ trouble: Trouble) async throws {
        let world = try UpstreamWorld(policy: .fastTest(maxAttempts: trouble.tries))
        let old = try world.seedExpiredCopy(of: Self.tile, version: 0)
        let oldFreshness = try world.cached(Self.tile).freshness
        try trouble.start(world)
        let message = try #require(await world.store.tile(Self.tile).fill.staleMessage)
        #expect(message.contains(trouble.mentions), "\(message)")
        try await world.expectCached(Self.tile, bytes: old)
        #expect(try world.cached(Self.tile).freshness == oldFreshness, "a failure must not extend the copy's life")
        // The upstream's current version has another colour, so the store really hands out the copy.
        #expect(SimulatedTiles.colour(for: Self.tile, version: 0) != SimulatedTiles.colour(for: Self.tile))
    }

    @Test("a slow drip that ends within the timeout is fetched and stored intact")
    func slowDripWithinTimeout() async throws {
        let world = try UpstreamWorld()
        let bytes = try SimulatedTiles.detailedPNG(for: Self.tile)
        world.upstream.setResponse(.png(bytes), for: upstreamPath(Self.tile))
        // About a second, in twenty pieces.
        world.inject(.slowDrip(bytesPerSecond: bytes.count), for: Self.tile)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).count == 1)
        try await world.expectCached(Self.tile, bytes: bytes)
    }
}
