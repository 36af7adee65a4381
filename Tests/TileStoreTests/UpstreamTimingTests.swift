import Foundation
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

extension TileStore {
    /// Has a tile, timed from the call until the answer (on a machine busy with other tests,
    /// the answer may take a while to be resumed: the bounds below leave room for it).
    func timedFill(_ id: TileID) async -> (fill: TileFill, elapsed: Duration) {
        let started = ContinuousClock.now
        let fill = await tile(id).fill
        return (fill, ContinuousClock.now - started)
    }
}

/// How long a tile can take, counted from when its request is sent, and what a failure says.
/// The bounds asserted are generous (a busy machine makes things slower, never faster), and
/// the behaviour they guard against takes several times as long: a fetch that tries a hung
/// server again, or tries past its deadline.
@Suite("Upstream timing and failure messages")
struct UpstreamTimingTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)
    /// Room for a busy machine on top of a bound.
    static let slack = Duration.seconds(5)

    @Test("a hung upstream fails the tile once its timeout has run, without trying again")
    func hungUpstreamIsBounded() async throws {
        // Six tries of the 2 s timeout, with their waits, would take over 13 s.
        let policy = FetchPolicy.fastTest(maxAttempts: 6)
        let world = try UpstreamWorld(policy: policy)
        world.inject(.timeout, for: Self.tile, times: policy.maxAttempts)
        let (fill, elapsed) = await world.store.timedFill(Self.tile)
        let missing = try #require(fill.missing)

        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains("timed out") && message.contains("no answer within 2 s"), "\(message)")
        #expect(world.requests(for: Self.tile).count == 1, "a timeout should not be tried again")
        #expect(elapsed <= policy.totalTimeout + Self.slack, "took \(elapsed); allowed the \(policy.totalTimeout) timeout and \(Self.slack) to spare")
        #expect(elapsed <= policy.fetchDeadline + Self.slack, "took \(elapsed); allowed the \(policy.fetchDeadline) deadline and \(Self.slack) to spare")
        try await world.expectNothingCached(Self.tile)
    }

    @Test("tiles asked for at once against a hung upstream are each sent before they time out", arguments: [1, 2])
    func queuedTilesAreSentBeforeTheyTimeOut(connections: Int) async throws {
        let policy = FetchPolicy.fastTest(maxConnectionsPerHost: connections)
        let world = try UpstreamWorld(policy: policy)
        // Three turns of the connections.
        let tiles = (0..<3 * connections).map { TileID(z: 16, x: 32780 + $0, y: 21586) }
        world.upstream.inject(.timeout, for: nil, times: 100)
        let timed = await withTaskGroup(of: (TileID, TileFill, Duration).self) { group in
            for tile in tiles { group.addTask { let (fill, elapsed) = await world.store.timedFill(tile); return (tile, fill, elapsed) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let fills = Dictionary(uniqueKeysWithValues: timed.map { ($0.0, $0.1) })
        let elapsed = timed.map(\.2).max() ?? .zero

        for tile in tiles {
            let message = fills[tile]?.missing?.reason.fetchFailureMessage ?? "\(String(describing: fills[tile]))"
            #expect(message.contains("timed out") && !message.contains("resolve"), "\(tile): \(message)")
            #expect(world.requests(for: tile).count == 1, "\(tile) was sent \(world.requests(for: tile).count) times; expected once")
        }
        // Each waits for its turn, then has its own timeout.
        let bound = policy.totalTimeout * (tiles.count / connections) + Self.slack
        #expect(elapsed <= bound, "took \(elapsed); allowed \(bound)")
    }

    @Test("a refused connection says so, after the tries a refusal gets")
    func refusedConnection() async throws {
        let refusing = try RefusingPort()
        let world = try UpstreamWorld(style: SimulatedStyle(baseURL: refusing.baseURL))
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
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
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains(drop.mentions) && message.contains("after 3 tries"), "\(message)")
        #expect(world.requests(for: Self.tile).count == 3)
        try await world.expectNothingCached(Self.tile)
    }

    @Test("a slow failing upstream is tried again only within the fetch's deadline")
    func retriesEndAtTheDeadline() async throws {
        let policy = FetchPolicy.fastTest(maxAttempts: 8, fetchDeadline: .seconds(2))
        let world = try UpstreamWorld(policy: policy)
        // Every answer takes 0.8 s and is a 500: eight tries, with their waits, would take over 12 s.
        world.upstream.setDefaultHandler { _ in
            Thread.sleep(forTimeInterval: 0.8)
            return SimulatedResponse(status: 500)
        }
        let (fill, elapsed) = await world.store.timedFill(Self.tile)
        let missing = try #require(fill.missing)

        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains("timed out") || message.contains("deadline"), "\(message)")
        #expect(world.requests(for: Self.tile).count <= 3, "\(world.requests(for: Self.tile).count) tries in a 2 s deadline")
        #expect(elapsed <= policy.fetchDeadline + Self.slack, "took \(elapsed); allowed the \(policy.fetchDeadline) deadline and \(Self.slack) to spare")
    }
}
