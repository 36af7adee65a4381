import Foundation
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// How long a tile can take, counted from when its request is sent, and what a failure says.
/// The bounds asserted are generous (a busy machine makes things slower, never faster); what
/// they catch is a fetch that tries a hung server again, or times out while still queued.
@Suite("Upstream timing and failure messages")
struct UpstreamTimingTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)
    /// Room for a busy machine on top of a bound.
    static let slack = Duration.seconds(2)

    @Test("a hung upstream fails the tile once its timeout has run, without trying again")
    func hungUpstreamIsBounded() async throws {
        let policy = FetchPolicy.fastTest()
        let world = try UpstreamWorld(policy: policy)
        world.inject(.timeout, for: Self.tile, times: policy.maxAttempts)
        let started = ContinuousClock.now
        let missing = try #require(await world.store.fill(Self.tile).missing)
        let elapsed = ContinuousClock.now - started

        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains("timed out") && message.contains("no answer within 2 s"), "\(message)")
        #expect(world.requests(for: Self.tile).count == 1, "a timeout should not be tried again")
        #expect(elapsed <= policy.totalTimeout + Self.slack, "took \(elapsed); allowed the \(policy.totalTimeout) timeout and \(Self.slack) to spare")
        #expect(elapsed <= policy.fetchDeadline + Self.slack, "took \(elapsed); allowed the \(policy.fetchDeadline) deadline and \(Self.slack) to spare")
        try world.expectNothingCached(Self.tile)
    }

    @Test("with one connection, tiles asked for at once against a hung upstream are each sent before they time out")
    func queuedTilesAreSentBeforeTheyTimeOut() async throws {
        let policy = FetchPolicy.fastTest(maxConnectionsPerHost: 1)
        let world = try UpstreamWorld(policy: policy)
        let tiles = (0..<3).map { TileID(z: 16, x: 32780 + $0, y: 21586) }
        world.upstream.inject(.timeout, for: nil, times: 100)
        let started = ContinuousClock.now
        let fills = await withTaskGroup(of: (TileID, TileFill).self) { group in
            for tile in tiles { group.addTask { (tile, await world.store.fill(tile)) } }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let elapsed = ContinuousClock.now - started

        for tile in tiles {
            let message = fills[tile]?.missing?.reason.fetchFailureMessage ?? "\(String(describing: fills[tile]))"
            #expect(message.contains("timed out") && !message.contains("resolve"), "\(tile): \(message)")
            #expect(world.requests(for: tile).count == 1, "\(tile) was sent \(world.requests(for: tile).count) times; expected once")
        }
        // One at a time: each waits for those before it, then has its own timeout.
        let bound = policy.totalTimeout * tiles.count + Self.slack
        #expect(elapsed <= bound, "took \(elapsed); allowed \(bound)")
    }

    @Test("a refused connection says so, after the tries a refusal gets")
    func refusedConnection() async throws {
        let refusing = try RefusingPort()
        let world = try UpstreamWorld(style: SimulatedStyle(baseURL: refusing.baseURL))
        let missing = try #require(await world.store.fill(Self.tile).missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains("connection refused") && message.contains("after 3 tries"), "\(message)")
    }

    struct Drop: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let fault: Fault
        let mentions: String
    }

    static let drops = [
        Drop(testDescription: "reset", fault: .reset, mentions: "connection reset"),
        Drop(testDescription: "closed without an answer", fault: .closeWithoutAnswer, mentions: "closed the connection without answering"),
    ]

    @Test("a dropped connection is tried again, and the failure names the cause", arguments: drops)
    func droppedConnection(_ drop: Drop) async throws {
        let world = try UpstreamWorld()
        world.inject(drop.fault, for: Self.tile, times: 3)
        let missing = try #require(await world.store.fill(Self.tile).missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains(drop.mentions) && message.contains("after 3 tries"), "\(message)")
        #expect(world.requests(for: Self.tile).count == 3)
        try world.expectNothingCached(Self.tile)
    }

    @Test("a slow failing upstream is tried again only within the fetch's deadline")
    func retriesEndAtTheDeadline() async throws {
        let policy = FetchPolicy.fastTest(maxAttempts: 6, fetchDeadline: .seconds(2))
        let world = try UpstreamWorld(policy: policy)
        // Every answer takes 0.8 s and is a 500: six tries would take about 6 s.
        world.upstream.setDefaultHandler { _ in
            Thread.sleep(forTimeInterval: 0.8)
            return SimulatedResponse(status: 500)
        }
        let started = ContinuousClock.now
        let missing = try #require(await world.store.fill(Self.tile).missing)
        let elapsed = ContinuousClock.now - started

        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains("timed out") || message.contains("deadline"), "\(message)")
        #expect(world.requests(for: Self.tile).count <= 3, "\(world.requests(for: Self.tile).count) tries in a 2 s deadline")
        #expect(elapsed <= policy.fetchDeadline + Self.slack, "took \(elapsed); allowed the \(policy.fetchDeadline) deadline and \(Self.slack) to spare")
    }
}
