import BlockingWork
import Foundation
import FramePipeline
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import PhoneScreen
import Testing
import TileStore

/// What a frame is: the PNG of the whole viewport, drawn over the scene's tiles from an MBTiles
/// cache, with the map panel's geometry and an honest account of how each tile was come by.
@Suite struct FrameContentTests {
    @Test("a frame over a fixture cache is an opaque PNG of the viewport's device pixels, every tile drawn from the cache")
    func frameIsAPNGOfTheViewport() async throws {
        let scene = cambridgeScene(width: 300, height: 200, scale: 2)
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let pipeline = cache.pipeline()
        let frame = try await pipeline.render(scene, as: .png)
        await pipeline.shutdown()

        #expect(frame.output.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG signature")
        let image = try PNGCodec.decode(frame.output)
        #expect((image.width, image.height) == (600, 400))
        #expect(sameGeometry(frame.geometry, cache.geometry))
        #expect(frame.tileCount == cache.neededTiles.count)
        #expect(frame.missingTiles.isEmpty, "\(frame.missingTiles)")
        var expected = TileFillReport()
        expected.cached = cache.neededTiles.count
        #expect(frame.fills == expected)
        // Every tile is drawn from its fixture, not left grey.
        for placement in cache.placements {
            guard let found = colours(in: placement.rect, of: image) else { continue }
            #expect(found != [missingGrey], "\(placement.tile) is drawn grey")
        }
    }

    @Test("with phone chrome, the PNG is the whole viewport and the geometry is the map panel's, below the bars")
    func chromeFrameGeometryIsTheMapPanel() async throws {
        let chrome = PhoneChrome(leadingButtons: [], commentary: nil, trailingButtons: [], activeTab: .planRoute)
        let scene = cambridgeScene(width: 320, height: 480, chrome: chrome)
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let pipeline = cache.pipeline()
        let frame = try await pipeline.render(scene, as: .pixels)
        await pipeline.shutdown()

        #expect((frame.output.width, frame.output.height) == (320, 480))
        #expect(frame.geometry.viewport == scene.mapPanelViewport)
        #expect(frame.geometry.viewport.height < scene.viewport.height)
        #expect(frame.missingTiles.isEmpty, "\(frame.missingTiles)")
    }

    @Test("tiles not in the cache are reported missing, counted as missing and drawn grey; the rest are drawn")
    func missingTilesAreReportedNotHidden() async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let placements = cache.placements.sorted { ($0.tile.x, $0.tile.y) < ($1.tile.x, $1.tile.y) }
        // Two of the tiles with a good part of them in the frame, so their pixels can be judged.
        let frame = cache.geometry.pixelRect
        let judged = placements.filter {
            min($0.rect.maxX, frame.maxX) - max($0.rect.minX, frame.minX) >= 32 && min($0.rect.maxY, frame.maxY) - max($0.rect.minY, frame.minY) >= 32
        }
        try #require(judged.count >= 3 && placements.count > 2)
        let gone: Set<TileID> = [judged[0].tile, judged[2].tile]
        try cache.delete(gone)

        let pipeline = cache.pipeline()
        let drawn = try await pipeline.render(scene, as: .pixels)
        #expect(Set(drawn.missingTiles.map(\.tile)) == gone)
        #expect(drawn.missingTiles.allSatisfy { $0.reason == .notCached }, "\(drawn.missingTiles)")
        #expect(drawn.fills.missing == gone.count)
        #expect(drawn.fills.cached == cache.neededTiles.count - gone.count)
        #expect(drawn.fills.failed == 0)
        for placement in placements {
            guard let found = colours(in: placement.rect, of: drawn.output) else { continue }
            if gone.contains(placement.tile) {
                #expect(found == [missingGrey], "missing \(placement.tile) is drawn in \(found)")
            } else {
                #expect(found != [missingGrey], "\(placement.tile) is drawn grey")
            }
        }

        // A miss is not remembered: once the tiles are in the cache, the next frame draws them.
        try cache.store(gone)
        let later = try await pipeline.render(scene, as: .pixels)
        await pipeline.shutdown()
        #expect(later.missingTiles.isEmpty, "\(later.missingTiles)")
        #expect(later.fills.cached == cache.neededTiles.count)
    }
}

/// The decoded-tile memory the pipeline's frames share: a frame's tiles are had from the store
/// once, and later frames draw them from memory, within `DecodedTileBudget`.
@Suite struct DecodedTileMemoryTests {
    @Test("a frame's tiles are had from the store once each; the next frame draws them from memory though the store has lost them")
    func laterFramesDrawFromMemory() async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let log = FillLog()
        let pipeline = cache.pipeline(observer: log)
        let first = try await pipeline.render(scene, as: .png)
        let tileCount = cache.neededTiles.count
        #expect(first.missingTiles.isEmpty)
        // One fill for each tile, each one a lookup in the store (which takes time).
        let firstFills = log.entries(from: 0)
        #expect(firstFills.count == tileCount)
        #expect(firstFills.allSatisfy { $0.fill == .cached && $0.took > .zero }, "\(firstFills)")

        try cache.delete(cache.neededTiles)
        // A pipeline of its own, with nothing in memory, finds the store has none of them now.
        let fresh = cache.pipeline()
        let control = try await fresh.render(scene, as: .png)
        await fresh.shutdown()
        #expect(control.missingTiles.count == tileCount, "the tiles are still in the store: \(control.missingTiles)")

        let second = try await pipeline.render(scene, as: .png)
        await pipeline.shutdown()
        #expect(second.missingTiles.isEmpty, "\(second.missingTiles)")
        #expect(second.fills.cached == tileCount)
        #expect(second.output == first.output, "the frame drawn from memory differs from the first")
        // The store was told of each tile drawn from memory, as a cached tile that took no time.
        let secondFills = log.entries(from: firstFills.count)
        #expect(secondFills.count == tileCount)
        #expect(secondFills.allSatisfy { $0.fill == .cached && $0.took == .zero }, "\(secondFills)")
    }

    /// A 256-pixel tile decoded is 256 x 256 x 4 bytes.
    static let decodedTileBytes = 256 * 256 * 4

    @Test(
        "memory keeps no more decoded tiles than its budget allows, by count or by bytes, whichever is reached first",
        arguments: [
            (DecodedTileBudget(tiles: 1, bytes: 32 << 20), 1),
            (DecodedTileBudget(tiles: 128, bytes: 2 * DecodedTileMemoryTests.decodedTileBytes), 2),
        ]
    )
    func memoryKeepsToItsBudget(budget: DecodedTileBudget, kept: Int) async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let tileCount = cache.neededTiles.count
        try #require(tileCount > kept + 1)
        let pipeline = cache.pipeline(budget: budget)
        let first = try await pipeline.render(scene, as: .pixels)
        #expect(first.missingTiles.isEmpty)

        try cache.delete(cache.neededTiles)
        let second = try await pipeline.render(scene, as: .pixels)
        await pipeline.shutdown()
        #expect(second.tileCount - second.missingTiles.count == kept, "drawn: \(second.tileCount), missing: \(second.missingTiles.count)")
        #expect(second.fills.cached == kept)
        #expect(second.fills.missing == tileCount - kept)
    }
}

/// Render threads draw what the frame's tiles were before they took it up: every tile had, as
/// bytes or decoded, and nothing from storage.
@Suite struct RenderThreadTests {
    @Test("every tile is had before drawing starts, and none while or after the frame is drawn")
    func tilesAreAllHadBeforeDrawing() async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let log = FillLog()
        let pipeline = cache.pipeline(observer: log)
        let frame = try await pipeline.render(scene, as: FrameOutput { _ in log.count })
        await pipeline.shutdown()
        #expect(frame.output == cache.neededTiles.count, "tiles had when drawing began")
        #expect(log.count == cache.neededTiles.count, "tiles had in all")
        #expect(frame.renderDuration > .zero)
    }

    @Test("withTiles hands the render thread the frame's tiles in hand; a tile it was not given is missing, not read from the cache")
    func renderThreadSeesOnlyTheTilesInHand() async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let log = FillLog()
        let pipeline = cache.pipeline(observer: log)
        let spare = try #require(cache.spareTiles.first)
        let needed = cache.neededTiles
        let seen = try await pipeline.withTiles(of: scene) { tiles, source, geometry in
            let hadBefore = log.count
            let lookups = needed.map { tiles.tile($0) }
            let drawn = lookups.filter { if case .image = $0 { true } else { false } }.count
            // In the cache file, but not one of the frame's tiles.
            let spareLookup = tiles.tile(spare)
            return (hadBefore, drawn, spareLookup, log.count, source.name, geometry)
        }
        await pipeline.shutdown()
        #expect(seen.0 == needed.count)
        #expect(seen.1 == needed.count)
        if case .missing(let missing) = seen.2 {
            #expect(missing.tile == spare)
        } else {
            Issue.record("a tile outside the frame was had on the render thread: \(seen.2)")
        }
        #expect(seen.3 == needed.count, "the render thread had tiles from the store")
        #expect(seen.4 == "osm")
        #expect(sameGeometry(seen.5, cache.geometry))
    }
}

/// The render queue: as many frames as there are render threads are drawn at once, at most
/// `renderQueueLimit` wait, and any more are refused with `BlockingWorkRefused`.
@Suite struct RenderQueueTests {
    private enum Outcome: Sendable {
        case drawn(missing: Int)
        case refused
        case failed(String)
        case watchdog
    }

    @Test("with its one thread busy and its queue of one full, a frame is refused at once; the queued one is drawn after")
    func framesPastTheQueueAreRefused() async throws {
        let outcomes = try await Self.twoFramesBehindABusyThread(renderQueueLimit: 1, client: nil)
        guard case .refused = outcomes[0] else {
            Issue.record("the first frame to end was not refused: \(outcomes[0])")
            return
        }
        guard case .drawn(let missing) = outcomes[1] else {
            Issue.record("the queued frame was not drawn: \(outcomes[1])")
            return
        }
        #expect(missing == 0)
    }

    @Test("one client may have its share of the queue waiting, and no more once it is half full: its second waiting frame is refused while the queue has room")
    func aClientHasItsShareOfTheQueue() async throws {
        // A queue of two: its share is one frame (a quarter, at least one), and with that one
        // frame waiting the queue is half full.
        let outcomes = try await Self.twoFramesBehindABusyThread(renderQueueLimit: 2, client: "192.0.2.1")
        guard case .refused = outcomes[0] else {
            Issue.record("the client's second waiting frame was not refused: \(outcomes[0])")
            return
        }
        guard case .drawn(let missing) = outcomes[1] else {
            Issue.record("the client's first waiting frame was not drawn: \(outcomes[1])")
            return
        }
        #expect(missing == 0)
    }

    /// Asks a pipeline with one render thread, held busy, for two frames (from `client`, when
    /// given) and returns how each ended, in the order they did, then the watchdog. Neither can
    /// be drawn until the thread is let go, which happens when the first ends: so a refusal, if
    /// any, comes first.
    private static func twoFramesBehindABusyThread(renderQueueLimit: Int, client: String?) async throws -> [Outcome] {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let pipeline = cache.pipeline(renderThreads: 1, renderQueueLimit: renderQueueLimit)
        let gate = DispatchSemaphore(value: 0)
        let (started, startedNow) = AsyncStream.makeStream(of: Void.self)
        let busy = Task {
            try await pipeline.onRenderThread {
                startedNow.yield()
                gate.wait()
            }
        }
        for await _ in started { break }

        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do {
                        let frame = { try await pipeline.render(scene, as: .pixels) }
                        let drawn = if let client { try await BlockingPool.$client.withValue(client, operation: frame) } else { try await frame() }
                        return .drawn(missing: drawn.missingTiles.count)
                    } catch is BlockingWorkRefused {
                        return .refused
                    } catch {
                        return .failed("\(error)")
                    }
                }
            }
            // Should no frame be refused, the gate opens anyway rather than hang the test.
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return .watchdog
            }
            var outcomes: [Outcome] = []
            while let outcome = await group.next() {
                if outcomes.isEmpty { gate.signal() }
                outcomes.append(outcome)
                if outcomes.count == 2 { group.cancelAll() }
            }
            return outcomes
        }
        try await busy.value
        await pipeline.shutdown()
        try #require(outcomes.count == 3)
        return outcomes
    }
}

/// Each style's store is opened once, however many frames ask at once; one that could not be
/// opened is tried again by the next frame.
@Suite struct StoreOpeningTests {
    @Test("frames asking at once for a style's store share one")
    func oneStorePerStyle() async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let pipeline = cache.pipeline()
        let source = try osmSource()
        let stores = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { ObjectIdentifier(try await pipeline.store(for: source)) } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        await pipeline.shutdown()
        #expect(stores.count == 1)
    }

    @Test("a cache file that is not there fails the frame, and the next frame opens it once it is")
    func unopenedCacheIsTriedAgain() async throws {
        let scene = cambridgeScene()
        let cache = try SceneCache(for: scene)
        defer { cache.remove() }
        let elsewhere = cache.directory.path("later.mbtiles")
        let pipeline = FramePipeline(FramePipeline.Configuration(catalog: .builtin, cacheLocation: .file(elsewhere)))
        await #expect(throws: CacheError.self) { try await pipeline.render(scene, as: .pixels) }

        try FileManager.default.copyItem(atPath: cache.path, toPath: elsewhere)
        let frame = try await pipeline.render(scene, as: .pixels)
        await pipeline.shutdown()
        #expect(frame.missingTiles.isEmpty, "\(frame.missingTiles)")
        #expect(frame.fills.cached == cache.neededTiles.count)
    }
}

/// How `TileFillReport` counts a drawn frame's tiles: each once, by how it was drawn.
@Suite struct TileFillReportTests {
    let tiles = (0..<6).map { TileID(z: 16, x: 32_000 + $0, y: 21_000) }

    @Test("each tile counts once, by its fill; a tile drawn grey counts as missing whatever its fill said")
    func countsEachTileByHowItWasDrawn() {
        let grey = MissingTile(tile: tiles[1], reason: .undecodable("not a PNG"))
        let report = TileFillReport(
            fills: [
                tiles[0]: .cached,
                // Had as bytes that did not decode: drawn grey.
                tiles[1]: .cached,
                tiles[2]: .fetched,
                tiles[3]: .stale("upstream down"),
                tiles[4]: .unstored("cache unavailable"),
                tiles[5]: .missing(MissingTile(tile: tiles[5], reason: .fetchFailed("timed out"))),
            ],
            drawnGrey: [grey, MissingTile(tile: tiles[5], reason: .fetchFailed("timed out"))]
        )
        #expect(report.cached == 1)
        #expect(report.fetched == 1)
        #expect(report.stale == 1)
        #expect(report.failed == 2, "an unstored fetch and a failed one")
        #expect(report.missing == 1)
        #expect(report.revalidated == 0)
        let total = report.cached + report.fetched + report.revalidated + report.stale + report.failed + report.missing
        #expect(total == tiles.count)
        #expect(report.description == "1 cached, 1 fetched, 0 revalidated, 1 stale, 2 failed, 1 missing")
    }

    @Test("a tile whose fetch gave up but which was drawn from the cache counts as cached")
    func drawnAfterAGiveUpIsCached() {
        let report = TileFillReport(
            fills: [tiles[0]: .missing(MissingTile(tile: tiles[0], reason: .notCached))], drawnGrey: []
        )
        var expected = TileFillReport()
        expected.cached = 1
        #expect(report == expected)
    }
}
