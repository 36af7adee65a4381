import Dispatch
import Foundation
import MapFrameTestSupport
import MapGeometry
import Synchronization
import Testing
import TileStore
import UpstreamSimulator

/// Filling the cache from a real HTTP upstream (the simulator): what is asked, what is stored,
/// and what the store then hands a frame.
@Suite("Filling the cache from the upstream")
struct TileFillTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    @Test("a tile not cached is fetched, stored and drawn; the next fill is served from the cache")
    func fetchesStoresAndServes() async throws {
        let world = try UpstreamWorld()
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        try await world.expectCached(Self.tile, bytes: SimulatedTiles.png(for: Self.tile))
        #expect(await world.store.tile(Self.tile).fill == .cached)
        #expect(world.requests(for: Self.tile).count == 1)
    }

    @Test("a 500 is retried, and the answer to the retry is stored")
    func retriesAfterServerError() async throws {
        let world = try UpstreamWorld()
        world.inject(.status(500), for: Self.tile, times: 1)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).count == 2)
        try await world.expectCached(Self.tile, bytes: SimulatedTiles.png(for: Self.tile))
    }

    @Test("a 404 is missing, remembered for missingTileMemory without asking again, then asked again")
    func notFoundIsRemembered() async throws {
        let world = try UpstreamWorld()
        world.inject(.status(404), for: Self.tile, times: 1)
        #expect(await world.store.tile(Self.tile).fill.missing?.reason == .notFoundUpstream)
        try await world.expectNothingCached(Self.tile)

        world.clock.advance(by: world.fetcher.policy.missingTileMemory - 1)
        #expect(await world.store.tile(Self.tile).fill.missing?.reason == .notFoundUpstream)
        #expect(world.requests(for: Self.tile).count == 1, "a remembered 404 must not be asked again")

        // Once the memory has passed, the upstream is asked again, and now it has the tile.
        world.clock.advance(by: 2)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).count == 2)
        try await world.expectCached(Self.tile, bytes: SimulatedTiles.png(for: Self.tile))
    }

    @Test("an expired copy the upstream now answers 404 for is served stale, without asking again meanwhile")
    func notFoundWithExpiredCopyIsRemembered() async throws {
        let world = try UpstreamWorld()
        let old = try world.seedExpiredCopy(of: Self.tile)
        world.inject(.status(404), for: Self.tile, times: 1)
        #expect(await world.store.tile(Self.tile).fill.staleMessage?.contains("404") == true)
        world.clock.advance(by: world.fetcher.policy.missingTileMemory - 1)
        #expect(await world.store.tile(Self.tile).fill.staleMessage?.contains("404") == true)
        #expect(world.requests(for: Self.tile).count == 1, "a remembered 404 must not be asked again")
        try await world.expectCached(Self.tile, bytes: old)

        world.clock.advance(by: 2)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).count == 2)
    }

    @Test("a failed fetch is not tried again for failedFetchMemory, with or without a copy", arguments: [false, true])
    func failureIsRemembered(withCopy: Bool) async throws {
        let world = try UpstreamWorld(policy: .fastTest(maxAttempts: 2))
        if withCopy { try world.seedExpiredCopy(of: Self.tile) }
        world.inject(.status(500), for: Self.tile, times: 2)
        let first = await world.store.tile(Self.tile).fill
        #expect(withCopy ? first.staleMessage != nil : first.missing != nil, "\(first)")
        #expect(world.requests(for: Self.tile).count == 2, "both tries")

        world.clock.advance(by: world.fetcher.policy.failedFetchMemory - 1)
        let meanwhile = await world.store.tile(Self.tile).fill
        #expect(meanwhile == first, "the same answer, from memory")
        #expect(world.requests(for: Self.tile).count == 2, "a server in trouble is not asked again at once")

        world.clock.advance(by: 2)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).count == 3)
    }

    @Test("a 429 with Retry-After: 1 is retried after the wait")
    func waitsForRetryAfter() async throws {
        let world = try UpstreamWorld()
        world.inject(.status(429, headers: [("Retry-After", "1")]), for: Self.tile, times: 1)
        let started = ContinuousClock.now
        let fill = await world.store.tile(Self.tile).fill
        #expect(fill == .fetched, "\(fill)")
        // A lower bound only, which a busy machine cannot break: it makes waits longer, never shorter.
        #expect(ContinuousClock.now - started >= .milliseconds(950), "the retry came before the server's Retry-After")
        #expect(world.requests(for: Self.tile).count == 2)
        try await world.expectCached(Self.tile, bytes: SimulatedTiles.png(for: Self.tile))
    }

    /// Waiting the hour would hit the time limit, so passing shows the fill did not wait.
    @Test("a Retry-After that would end past the fetch's deadline fails the tile without waiting", .timeLimit(.minutes(1)))
    func refusesLongRetryAfter() async throws {
        let world = try UpstreamWorld()
        world.inject(.status(429, headers: [("Retry-After", "3600")]), for: Self.tile, times: 1)
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains("HTTP 429") && message.contains("the 3600 s the server asked for") && message.contains("10 s deadline"), "\(message)")
        #expect(world.requests(for: Self.tile).count == 1)
        try await world.expectNothingCached(Self.tile)
    }
}

/// What the tile usage policies ask: few requests, few connections, and an agent that says who
/// is asking.
@Suite("Politeness to the upstream")
struct PolitenessTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    @Test("100 concurrent requests for one tile make one upstream request, and all get the tile")
    func concurrentFillsShareOneRequest() async throws {
        // The upstream holds its answer until every request has been made, so most wait on the
        // one fetch however the tasks are scheduled; any that come after it find the tile cached.
        // Asking 100 times can take seconds on a loaded machine, so the fetch may wait far longer
        // than other tests allow.
        let world = try UpstreamWorld(policy: .fastTest(totalTimeout: .seconds(60), fetchDeadline: .seconds(60)))
        let gate = DispatchSemaphore(value: 0)
        world.upstream.setDefaultHandler { path in
            gate.wait()
            gate.signal()  // once open, the gate stays open
            return tileID(atUpstreamPath: path).flatMap { try? SimulatedTiles.png(for: $0) }.map { .png($0) }
        }
        let store = world.store
        async let fills = withTaskGroup(of: TileFill.self) { tasks in
            for _ in 0..<100 { tasks.addTask { await store.tile(Self.tile).fill } }
            return await tasks.reduce(into: []) { $0.append($1) }
        }
        while world.requests(for: Self.tile).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(200))
        gate.signal()
        let results = await fills

        #expect(results.count == 100 && results.allSatisfy { $0 == .fetched || $0 == .cached }, "\(results)")
        #expect(results.contains(.fetched))
        #expect(world.requests(for: Self.tile).count == 1)
        try await world.expectCached(Self.tile, bytes: SimulatedTiles.png(for: Self.tile))
    }

    @Test("20 slow tiles at once use at most maxConnectionsPerHost (2) connections, reused")
    func connectionsPerHost() async throws {
        let world = try UpstreamWorld(policy: .fastTest(maxConnectionsPerHost: 2))
        let tiles = (0..<20).map { TileID(z: 16, x: 32780 + $0, y: 21586) }
        // Each answer takes about a tenth of a second, so the fills overlap.
        let tileBytes = try SimulatedTiles.png(for: tiles[0]).count
        world.upstream.inject(.slowDrip(bytesPerSecond: tileBytes * 10), for: nil, times: tiles.count)
        let fills = await withTaskGroup(of: TileFill.self) { group in
            for tile in tiles { group.addTask { await world.store.tile(tile).fill } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(fills == Array(repeating: .fetched, count: tiles.count))
        #expect(world.upstream.requests.count == tiles.count)
        #expect((1...2).contains(world.upstream.connectionCount), "\(world.upstream.connectionCount) connections for 20 tiles")
    }

    struct AgentCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// The style's `userAgent` template, if any.
        let styleAgent: String?
        /// The agent the user chose (`--user-agent`), if any.
        let userAgent: String?
        let expected: String
    }

    static let agentCases = [
        AgentCase(testDescription: "the default agent", styleAgent: nil, userAgent: nil, expected: FetchPolicy.defaultUserAgent),
        AgentCase(
            testDescription: "the style's agent, with {version} filled in", styleAgent: "CycleFrames/{version} (+https://example.org/contact)",
            userAgent: nil, expected: "CycleFrames/\(FetchPolicy.version) (+https://example.org/contact)"
        ),
        AgentCase(
            testDescription: "the user's agent, over the style's", styleAgent: "CycleFrames/{version}",
            userAgent: "Alice's frames (alice@example.org)", expected: "Alice's frames (alice@example.org)"
        ),
    ]

    @Test("the User-Agent reaches the upstream as chosen", arguments: agentCases)
    func userAgent(_ agent: AgentCase) async throws {
        let world = try UpstreamWorld(
            policy: .fastTest(userAgent: agent.userAgent ?? FetchPolicy.defaultUserAgent), style: SimulatedStyle(userAgent: agent.styleAgent),
            userAgentOverridden: agent.userAgent != nil
        )
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).map { $0.headers["user-agent"] } == [agent.expected])
    }
}
