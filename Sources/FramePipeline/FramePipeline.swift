import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Synchronization
import TileStore

/// A drawn frame as its caller wants it (PNG bytes, or pixels to compare), with the geometry it
/// was drawn with and how its tiles were come by.
public struct Frame<Output: Sendable>: Sendable {
    public let output: Output
    /// The map panel's geometry; with chrome, the panel starts `Scene.mapPanelTop` below the frame's top.
    public let geometry: FrameGeometry
    /// How many tiles the frame needed.
    public let tileCount: Int
    /// Tiles drawn as grey because they were not available, with the reason from their fill.
    public let missingTiles: [MissingTile]
    /// How the frame's tiles were come by, as they were drawn.
    public let fills: TileFillReport
    /// How long drawing and encoding took, once a render thread took the frame up.
    public let renderDuration: Duration
}

/// What a frame is turned into once drawn, on the drawing thread.
public struct FrameOutput<Value: Sendable>: Sendable {
    let make: @Sendable (RenderedFrame) throws -> Value

    /// An output made by `make` from the drawn frame.
    public init(_ make: @escaping @Sendable (RenderedFrame) throws -> Value) {
        self.make = make
    }

    /// Opaque PNG bytes, as files and HTTP responses carry frames.
    public static var png: FrameOutput<Data> { FrameOutput<Data> { try $0.canvas.pngData(opaque: true) } }

    /// The pixels, for comparing with a golden image.
    public static var pixels: FrameOutput<RasterImage> { FrameOutput<RasterImage> { $0.canvas.image() } }
}

/// The one way from a scene to a frame: opens the style's tile store, works out the geometry
/// once, fills the frame's tiles (from the upstream unless offline), draws, and encodes.
/// `snapshot`, `play`, `goldens` and every server endpoint that draws go through it, and share
/// its decoded-tile memory. Blocking work runs on bounded threads of its own: SQLite on
/// `ioThreads`, Cairo and libpng on `renderThreads`.
public final class FramePipeline: Sendable {
    public struct Configuration: Sendable {
        public var catalog: StyleCatalog
        public var cacheLocation: CacheLocation
        /// The upstream; nil draws offline, from the caches alone.
        public var fetcher: TileFetcher?
        public var capacity: CacheCapacity?
        /// Whether a style's missing cache file in a cache directory is created. By default it
        /// is when tiles can be fetched into it; a file named with `--cache` must always exist.
        public var createsMissingCaches: Bool
        /// How long a fill waits for the upstream; past it the frame is drawn without the tile
        /// (a stale copy or grey) while the fetch goes on to fill the cache. nil waits for the
        /// fetch's own deadline.
        public var upstreamWait: Duration?
        public var decodedTileBudget: DecodedTileBudget
        public var renderThreads: Int
        /// Frames that may wait for a render thread before more are refused.
        public var renderQueueLimit: Int
        /// Told of every fill and how long it took, for metrics.
        public var fillObserver: (@Sendable (TileFill, Duration) -> Void)?

        public init(
            catalog: StyleCatalog, cacheLocation: CacheLocation, fetcher: TileFetcher? = nil, capacity: CacheCapacity? = nil,
            createsMissingCaches: Bool? = nil, upstreamWait: Duration? = nil,
            decodedTileBudget: DecodedTileBudget = TileStore.defaultMemoryCapacity,
            renderThreads: Int = 2, renderQueueLimit: Int = 64, fillObserver: (@Sendable (TileFill, Duration) -> Void)? = nil
        ) {
            self.catalog = catalog
            self.cacheLocation = cacheLocation
            self.fetcher = fetcher
            self.capacity = capacity
            self.createsMissingCaches = createsMissingCaches ?? (fetcher != nil)
            self.upstreamWait = upstreamWait
            self.decodedTileBudget = decodedTileBudget
            self.renderThreads = renderThreads
            self.renderQueueLimit = renderQueueLimit
            self.fillObserver = fillObserver
        }
    }

    public let configuration: Configuration
    public var catalog: StyleCatalog { configuration.catalog }
    private let decodedTiles: LRUCache<DecodedTileKey, RasterImage>
    private let stores = Mutex<[String: TileStore]>([:])
    /// SQLite's blocking calls: short, and as many at once as the server's connection limit lets
    /// through, so they are never refused.
    private let io = BlockingThreads(threads: 4, queueLimit: nil)
    private let rendering: BlockingThreads
    private let renderers = RendererShelf()

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        decodedTiles = LRUCache(capacity: configuration.decodedTileBudget)
        rendering = BlockingThreads(threads: configuration.renderThreads, queueLimit: configuration.renderQueueLimit)
    }

    // MARK: - Frames

    /// Draws `scene` and turns it into `output`, filling its tiles first. `geometry` is the
    /// map panel's, when the caller has worked it out already (`FrameRenderer.geometry`); a map
    /// tile is a frame whose top-left corner is the tile's corner.
    /// Throws `BlockingWorkRefused` when too many frames are waiting to be drawn.
    public func render<Output>(
        _ scene: Scene, geometry: FrameGeometry? = nil, as output: FrameOutput<Output>
    ) async throws -> Frame<Output> {
        guard let source = catalog[scene.style] else {
            preconditionFailure("scene style \(scene.style) was checked against the catalogue when read")
        }
        let store = try await store(for: source)
        let geometry = geometry ?? FrameRenderer.geometry(for: scene, source: source)
        let fills = await fill(geometry.tilePlacements(in: source.tileGrid).map(\.tile), in: store)
        let renderers = renderers
        let drawn = try await rendering.run { () throws -> (Output, tileCount: Int, missing: [MissingTile], took: Duration) in
            let started = ContinuousClock.now
            return try renderers.withRenderer { renderer in
                let frame = renderer.render(scene, geometry: geometry, source: source, tiles: store)
                return (try output.make(frame), frame.tileCount, frame.missingTiles, ContinuousClock.now - started)
            }
        }
        let missing = Self.explaining(drawn.missing, with: fills)
        return Frame(
            output: drawn.0, geometry: geometry, tileCount: drawn.tileCount, missingTiles: missing,
            fills: TileFillReport(fills: fills, drawnGrey: missing), renderDuration: drawn.took
        )
    }

    /// Fills `scene`'s tiles as `render` does, then runs `body` on a render thread with them, the
    /// style's source and the map panel's geometry: for work that draws more than the frame,
    /// such as measuring its contrast.
    public func withTiles<Value: Sendable>(
        of scene: Scene, _ body: @escaping @Sendable (TileProviding, TileSource, FrameGeometry) throws -> Value
    ) async throws -> Value {
        guard let source = catalog[scene.style] else {
            preconditionFailure("scene style \(scene.style) was checked against the catalogue when read")
        }
        let store = try await store(for: source)
        let geometry = FrameRenderer.geometry(for: scene, source: source)
        _ = await fill(geometry.tilePlacements(in: source.tileGrid).map(\.tile), in: store)
        return try await rendering.run { try body(store, source, geometry) }
    }

    /// Each missing tile's reason taken from its fill where that says more (a failed fetch, a
    /// 404) than the renderer's "not cached".
    private static func explaining(_ missing: [MissingTile], with fills: [TileID: TileFill]) -> [MissingTile] {
        missing.map { tile in
            if case .missing(let reason)? = fills[tile.tile], tile.reason == .notCached { return reason }
            return tile
        }
    }

    // MARK: - Tiles

    /// The tile store for a style, opening its cache on first use.
    public func store(for source: TileSource) async throws -> TileStore {
        if let store = stores.withLock({ $0[source.name] }) { return store }
        let configuration = configuration
        let store = try await io.run { [decodedTiles] () throws -> TileStore in
            // Only a cache tiles are fetched into is written; with no upstream, nothing is.
            let cache = try configuration.cacheLocation.openCache(
                for: source.name, readOnly: configuration.fetcher == nil, createIfMissing: configuration.createsMissingCaches
            )
            return TileStore(
                source: source, cache: cache, decodedTiles: decodedTiles, fetcher: configuration.fetcher, capacity: configuration.capacity
            )
        }
        return stores.withLock { stores in
            if let existing = stores[source.name] { return existing }
            stores[source.name] = store
            return store
        }
    }

    /// Makes sure tiles are cached and fresh (each once), fetching or revalidating where needed,
    /// and waits for the upstream at most `upstreamWait`: past it, a tile still being fetched
    /// counts as missing, and its fetch goes on to fill the cache. One trip to the io threads
    /// asks the cache about every tile; fetches complete on the fetcher's own threads.
    public func fill(_ tiles: [TileID], in store: TileStore) async -> [TileID: TileFill] {
        let unique = Array(Set(tiles))
        guard !unique.isEmpty else { return [:] }
        let started = ContinuousClock.now
        let wait = configuration.upstreamWait
        let observer = configuration.fillObserver
        let fills = await withCheckedContinuation { continuation in
            let collector = FillCollector(expecting: unique, continuation) { fill in observer?(fill, ContinuousClock.now - started) }
            Task {
                do {
                    try await io.run { for tile in unique { store.fill(tile) { collector.add($0, for: tile) } } }
                } catch {
                    collector.finish { MissingTile(tile: $0, reason: .unreadable("\(error)")) }
                }
                guard let wait, !collector.isDone else { return }
                try? await Task.sleep(for: wait)
                let reason = "the upstream did not answer within \(wait.components.seconds) s; the tile is cached when it does"
                collector.finish { MissingTile(tile: $0, reason: .fetchFailed(reason)) }
            }
        }
        return fills
    }

    /// `fill(_:in:)` for one tile.
    public func fill(_ tile: TileID, in store: TileStore) async -> TileFill {
        await fill([tile], in: store)[tile] ?? .missing(MissingTile(tile: tile, reason: .notCached))
    }

    /// A tile's stored bytes and freshness, for serving as they are; nil when not stored.
    public func storedTile(_ tile: TileID, in store: TileStore) async throws -> StoredTile? {
        try await io.run { try store.storedTile(tile) }
    }

    // MARK: - Upkeep

    /// Writes every open store's tile use and metadata (`TileStore.flush`).
    public func flush() async throws {
        for store in stores.withLock({ Array($0.values) }) {
            try await io.run { try store.flush() }
        }
    }

    /// Flushes the stores, as far as they can be, and stops the threads and the fetcher.
    public func shutdown() async {
        try? await flush()
        await rendering.shutdown()
        await io.shutdown()
        configuration.fetcher?.shutdown()
    }
}

/// Frame renderers for the render threads: each frame borrows one, so no two threads share a
/// renderer's sprites (Cairo surfaces are not safe to share between threads).
private final class RendererShelf: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [FrameRenderer] = []

    func withRenderer<T>(_ body: (FrameRenderer) throws -> T) rethrows -> T {
        let renderer = lock.withLock { idle.popLast() } ?? FrameRenderer()
        defer { lock.withLock { idle.append(renderer) } }
        return try body(renderer)
    }
}

/// Gathers the fills of a set of tiles and resumes a continuation once, when every tile has
/// one or when `finish` gives the rest theirs; later fills are ignored.
private final class FillCollector: Sendable {
    private struct State {
        var fills: [TileID: TileFill] = [:]
        var continuation: CheckedContinuation<[TileID: TileFill], Never>?
    }

    private let tiles: [TileID]
    private let state: Mutex<State>
    private let observe: @Sendable (TileFill) -> Void

    init(
        expecting tiles: [TileID], _ continuation: CheckedContinuation<[TileID: TileFill], Never>,
        observe: @escaping @Sendable (TileFill) -> Void
    ) {
        self.tiles = tiles
        state = Mutex(State(continuation: continuation))
        self.observe = observe
    }

    var isDone: Bool { state.withLock { $0.continuation == nil } }

    func add(_ fill: TileFill, for tile: TileID) {
        complete { state in
            guard state.fills[tile] == nil else { return }
            state.fills[tile] = fill
            observe(fill)
        }
    }

    /// Gives every tile without a fill yet the missing tile `reason` makes for it.
    func finish(_ reason: (TileID) -> MissingTile) {
        complete { state in
            for tile in tiles where state.fills[tile] == nil {
                let fill = TileFill.missing(reason(tile))
                state.fills[tile] = fill
                observe(fill)
            }
        }
    }

    private func complete(_ change: (inout State) -> Void) {
        let ready = state.withLock { state -> (CheckedContinuation<[TileID: TileFill], Never>, [TileID: TileFill])? in
            guard state.continuation != nil else { return nil }
            change(&state)
            guard state.fills.count == tiles.count, let continuation = state.continuation.take() else { return nil }
            return (continuation, state.fills)
        }
        if let (continuation, fills) = ready { continuation.resume(returning: fills) }
    }
}
