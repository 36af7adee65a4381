import Foundation
import MapFrameTestSupport
import MapGeometry
import Synchronization
import Testing
import TileStore
import UpstreamSimulator

/// An expired tile answered at once from the cache, within a window past its expiry, while one
/// revalidation runs in the background. The store's clock is moved by hand; the upstream is held
/// back by a gate the test opens, so nothing here depends on how fast the machine is.
@Suite("Stale while revalidating")
struct StaleWhileRevalidateTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)
    /// An hour past expiry.
    static let window: TimeInterval = 3600
    /// Tiles the upstream tags, so that a revalidation is a conditional request answered 304.
    static let headers = [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]
    /// Patient enough that no try times out while the gate holds it, however slow the machine.
    static let patient = FetchPolicy.fastTest(totalTimeout: .seconds(20), fetchDeadline: .seconds(30))

    /// A world whose tile was fetched, tagged "v1", and has expired since, its upstream now held
    /// back by a gate.
    static func expiredTileBehindGate() async throws -> (UpstreamWorld, UpstreamGate) {
        let world = try UpstreamWorld(policy: patient, tileHeaders: headers)
        #expect(await world.store.tile(tile).fill == .fetched)
        world.clock.advance(by: 61)
        return (world, UpstreamGate(world, headers: headers))
    }

    @Test("20 concurrent askers are answered the expired copy at once, and one conditional revalidation reaches the upstream")
    func oneRevalidationForConcurrentAskers() async throws {
        let (world, gate) = try await Self.expiredTileBehindGate()
        defer { gate.open() }
        let stored = try world.cached(Self.tile)

        let answers = await withTaskGroup(of: SuppliedTile.self) { group in
            for _ in 0..<20 { group.addTask { await world.store.tile(Self.tile, staleWhileRevalidate: Self.window) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // Answered while the upstream has not: none of them waited for it.
        #expect(answers.allSatisfy { $0.fill == .staleRevalidating && $0.stored?.data == stored.bytes }, "\(answers.map(\.fill))")
        try await waitUntil("the revalidation reaches the upstream") { world.requests(for: Self.tile).count == 2 }

        gate.open()
        try await waitUntil("the revalidation is stored") { try world.cached(Self.tile).freshness?.fetchedAt == world.clock.now }
        let requests = world.requests(for: Self.tile)
        #expect(requests.count == 2, "one revalidation for 20 askers: \(requests.count - 1)")
        #expect(requests.last?.headers["if-none-match"] == "\"v1\"", "a conditional request: \(requests.last?.headers ?? [:])")
        #expect(try world.cached(Self.tile).bytes == stored.bytes, "a 304 keeps the bytes")
        // The fetch is listed under way from just before it stores until just after, and an
        // asker meanwhile still takes the copy it began with; once it is done, the tile is fresh.
        try await waitUntil("the revalidated tile is answered from the cache") {
            await world.store.tile(Self.tile, staleWhileRevalidate: Self.window).fill == .cached
        }
        #expect(world.requests(for: Self.tile).count == 2, "no second revalidation")
    }

    @Test("past the window, and with no window, the asker waits for the revalidation as before")
    func outsideTheWindowWaits() async throws {
        let world = try UpstreamWorld(tileHeaders: Self.headers)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        world.clock.advance(by: 60 + Self.window)
        #expect(await world.store.tile(Self.tile, staleWhileRevalidate: Self.window).fill == .revalidated)
        world.clock.advance(by: 61)
        #expect(await world.store.tile(Self.tile, staleWhileRevalidate: 0).fill == .revalidated)
        #expect(world.requests(for: Self.tile).count == 3)
    }

    @Test("an asker that wants the tile fresh waits for the revalidation begun in the background")
    func freshAskerJoinsTheBackgroundRevalidation() async throws {
        let (world, gate) = try await Self.expiredTileBehindGate()
        defer { gate.open() }
        #expect(await world.store.tile(Self.tile, staleWhileRevalidate: Self.window).fill == .staleRevalidating)

        let started = ContinuousClock.now
        let waiting = Task { await world.store.tile(Self.tile).fill }
        try await Task.sleep(for: .milliseconds(300))
        gate.open()
        // Answered only by the revalidation: an answer from the cache would say staleRevalidating.
        #expect(await waiting.value == .revalidated)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(world.requests(for: Self.tile).count == 2, "the frame shared the background revalidation")
    }

    @Test("a failed revalidation keeps the expired tile, byte for byte, and a later request tries again")
    func failureKeepsTheStaleTile() async throws {
        let world = try UpstreamWorld(tileHeaders: Self.headers)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        let stored = try world.cached(Self.tile)
        world.clock.advance(by: 61)
        world.inject(.status(500), for: Self.tile, times: 3)

        #expect(await world.store.tile(Self.tile, staleWhileRevalidate: Self.window).fill == .staleRevalidating)
        // Once the revalidation has failed (every try), the failure is remembered for a while.
        var fill = TileFill.staleRevalidating
        try await waitUntil("the revalidation fails") {
            fill = await world.store.tile(Self.tile, staleWhileRevalidate: Self.window).fill
            return fill != .staleRevalidating
        }
        #expect(fill.staleMessage?.contains("HTTP 500") == true, "\(fill)")
        let kept = try world.cached(Self.tile)
        #expect(kept.bytes == stored.bytes && kept.freshness == stored.freshness, "the cached tile changed: \(kept.freshness as Any)")
        #expect(world.requests(for: Self.tile).count == 4)

        world.clock.advance(by: world.fetcher.policy.failedFetchMemory)
        #expect(await world.store.tile(Self.tile, staleWhileRevalidate: Self.window).fill == .staleRevalidating)
        try await waitUntil("the next revalidation is stored") { try world.cached(Self.tile).freshness?.fetchedAt == world.clock.now }
        #expect(world.requests(for: Self.tile).count == 5)
        #expect(try world.cached(Self.tile).bytes == stored.bytes)
    }

    @Test("at most backgroundRevalidationLimit revalidations run at once; tiles past it are answered stale without one, and tried again later")
    func backgroundRevalidationsAreBounded() async throws {
        let world = try UpstreamWorld(policy: Self.patient, tileHeaders: Self.headers)
        let gate = UpstreamGate(world, headers: Self.headers)
        defer { gate.open() }
        let limit = TileStore.backgroundRevalidationLimit
        let tiles = (0..<limit + 6).map { TileID(z: 16, x: 32_700 + $0 % 40, y: 21_500 + $0 / 40) }
        for tile in tiles { try world.seedExpiredCopy(of: tile) }

        var fills: [TileFill] = []
        for tile in tiles { fills.append(await world.store.tile(tile, staleWhileRevalidate: 10 * 24 * 3600).fill) }
        #expect(fills.prefix(limit).allSatisfy { $0 == .staleRevalidating }, "\(fills.prefix(limit))")
        #expect(fills.suffix(6).allSatisfy { $0 == .staleRevalidationSkipped }, "\(fills.suffix(6))")
        // Asked again while the others run: still skipped, and still answered.
        #expect(await world.store.tile(tiles.last!, staleWhileRevalidate: 10 * 24 * 3600).fill == .staleRevalidationSkipped)

        gate.open()
        try await waitUntil("the revalidations end") {
            var done = true
            for tile in tiles.prefix(limit) where try world.cached(tile).freshness?.fetchedAt != world.clock.now { done = false }
            return done
        }
        #expect(await world.store.tile(tiles.last!, staleWhileRevalidate: 10 * 24 * 3600).fill == .staleRevalidating)
        // The last tile's revalidation, begun in the background, reaches the upstream in its own time.
        try await waitUntil("the last tile's revalidation reaches the upstream") {
            Set(world.upstream.requests.map(\.path)).count == limit + 1
        }
    }

    @Test("stopping the store ends the revalidations under way, and the expired tile stays as it was")
    func shutdownEndsBackgroundRevalidations() async throws {
        let world = try UpstreamWorld(policy: Self.patient, tileHeaders: Self.headers)
        let gate = UpstreamGate(world, headers: Self.headers)
        defer { gate.open() }
        let bytes = try world.seedExpiredCopy(of: Self.tile)
        let before = try world.cached(Self.tile)
        #expect(await world.store.tile(Self.tile, staleWhileRevalidate: 10 * 24 * 3600).fill == .staleRevalidating)
        try await waitUntil("the revalidation reaches the upstream") { world.requests(for: Self.tile).count == 1 }

        let started = ContinuousClock.now
        await world.fetcher.shutdown()
        await world.store.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5), "stopping waited for the upstream")
        gate.open()
        let after = try world.cached(Self.tile)
        #expect(after.bytes == bytes && after.freshness == before.freshness)
    }
}

/// Holds every answer of a world's upstream back until `open()`, then answers tiles as the world
/// does, with `headers`: a slow upstream whose speed the test decides.
final class UpstreamGate: Sendable {
    private let isOpen = Atomic<Bool>(false)

    init(_ world: UpstreamWorld, headers: [(String, String)]) {
        world.upstream.setDefaultHandler { [self] path in
            while !isOpen.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
            guard let tile = tileID(atUpstreamPath: path), let png = try? SimulatedTiles.png(for: tile) else { return nil }
            return .png(png, headers: headers)
        }
    }

    /// Lets every held answer, and every later one, go.
    func open() {
        isOpen.store(true, ordering: .releasing)
    }
}
