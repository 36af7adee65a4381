import BlockingWork
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
    /// Tiles drawn as grey because they were not available, with the reason.
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
    public static var png: FrameOutput<Data> { encoded(as: .png) }

    /// The frame's bytes in `encoding`.
    public static func encoded(as encoding: FrameEncoding) -> FrameOutput<Data> {
        FrameOutput<Data> { try $0.canvas.encoded(as: encoding) }
    }

    /// The pixels, for comparing with a golden image.
    public static var pixels: FrameOutput<RasterImage> { FrameOutput<RasterImage> { $0.canvas.image() } }
}

/// How much memory decoded tiles may take: at most `tiles` of them and `bytes` of pixels,
/// whichever comes first. A 256-pixel tile is 256 KiB decoded, a 512-pixel (retina) one 1 MiB.
public struct DecodedTileBudget: Hashable, Sendable {
    public var tiles: Int
    public var bytes: Int

    public init(tiles: Int, bytes: Int) {
        self.tiles = tiles
        self.bytes = bytes
    }

    /// 128 tiles of 256 KiB each is 32 MiB, and 32 MiB holds 32 retina tiles.
    public static let standard = DecodedTileBudget(tiles: 128, bytes: 32 << 20)
}

/// The one way from a scene to a frame: opens the style's tile store, works out the geometry
/// once, has each of the frame's tiles (from memory, else `TileStore.tile`, which fetches unless
/// offline), then decodes, draws and encodes on a render thread. `snapshot`, `play`, `goldens`
/// and every server endpoint that draws go through it, and share its decoded-tile memory.
///
/// Render threads never touch storage: a frame's tiles are all in hand, as bytes or decoded,
/// before a render thread takes it up.
public final class FramePipeline: Sendable {
    /// Threads that draw frames, unless told otherwise.
    public static let defaultRenderThreads = 2
    /// Render jobs that may wait for a thread before more are refused.
    public static let defaultRenderQueueLimit = 64

    public struct Configuration: Sendable {
        public var catalog: StyleCatalog
        public var cacheLocation: CacheLocation
        /// The upstream; nil draws offline, from the caches alone.
        public var fetcher: TileFetcher?
        public var capacity: CacheCapacity?
        /// Whether a style's missing cache file in a cache directory is created. By default it
        /// is when tiles can be fetched into it; a file named with `--cache` must always exist.
        public var createsMissingCaches: Bool
        /// How long a tile waits for the upstream (see `TileStore.init`).
        public var upstreamWait: Duration?
        public var decodedTileBudget: DecodedTileBudget
        public var renderThreads: Int
        /// Frames that may wait for a render thread before more are refused.
        public var renderQueueLimit: Int
        /// Told of every tile had and how long it took, for metrics.
        public var fillObserver: (@Sendable (TileFill, Duration) -> Void)?
        /// Told, as each cache file is opened, what was read from its tiles' bytes because its
        /// metadata was silent or wrong (`TilesetDescription.readFromTiles`), naming the file.
        public var tilesetNotice: (@Sendable (String) -> Void)?

        public init(
            catalog: StyleCatalog, cacheLocation: CacheLocation, fetcher: TileFetcher? = nil, capacity: CacheCapacity? = nil,
            createsMissingCaches: Bool? = nil, upstreamWait: Duration? = nil, decodedTileBudget: DecodedTileBudget = .standard,
            renderThreads: Int = FramePipeline.defaultRenderThreads, renderQueueLimit: Int = FramePipeline.defaultRenderQueueLimit,
            fillObserver: (@Sendable (TileFill, Duration) -> Void)? = nil, tilesetNotice: (@Sendable (String) -> Void)? = nil
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
            self.tilesetNotice = tilesetNotice
        }
    }

    public let configuration: Configuration
    public var catalog: StyleCatalog { configuration.catalog }
    /// Decoded tiles, where frames read them, each until its freshness runs out.
    private let decodedTiles: LRUCache<DecodedTileKey, DecodedTile>
    /// Each style's store, opened once however many frames ask at once.
    private let stores = Mutex<[String: Task<TileStore, any Error>]>([:])
    /// The caches whose tiles' own account has been given (`Configuration.tilesetNotice`): once
    /// a cache, however many styles share it.
    private let describedCaches = Mutex<Set<String>>([])
    private let rendering: BlockingPool
    private let renderers = RendererShelf()

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        decodedTiles = LRUCache(capacity: configuration.decodedTileBudget.tiles, maxBytes: configuration.decodedTileBudget.bytes) {
            $0.image.byteCount
        }
        rendering = BlockingPool(threads: configuration.renderThreads, queueLimit: configuration.renderQueueLimit)
    }

    // MARK: - Frames

    /// Draws `scene` and turns it into `output`, having its tiles first, as its cache holds them
    /// (`store(for:)`). `geometry` is the map panel's, when the caller has worked it out already
    /// (`FrameRenderer.geometry`); a map tile is a frame whose top-left corner is the tile's corner.
    /// Throws `BlockingWorkRefused` when too many frames are waiting to be drawn, and
    /// `RenderStopped` when `cutoff` stopped the drawing (a render whose client has gone is not
    /// started at all).
    public func render<Output>(
        _ scene: Scene, geometry: FrameGeometry? = nil, as output: FrameOutput<Output>, cutoff: RenderCutoff? = nil
    ) async throws -> Frame<Output> {
        let store = try await store(for: try self.source(of: scene))
        let source = store.source
        let geometry = geometry ?? FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
        // A panel a layer covers whole (a departure board) needs no tiles.
        let had = await tiles(scene.coversMapPanel ? [] : geometry.tilePlacements(in: source.tileSet.grid).map(\.tile), in: store)
        let (renderers, decodedTiles) = (renderers, decodedTiles)
        let drawn = try await rendering.run { () throws -> (Output, tileCount: Int, missing: [MissingTile], took: Duration) in
            assertNotOnEventLoop("drawing a frame")
            if let cutoff, cutoff.isAbandoned() { throw RenderStopped.abandoned }
            let started = ContinuousClock.now
            let tiles = had.decoded(into: decodedTiles, source: source)
            return try renderers.withRenderer { renderer in
                let frame = renderer.render(scene, geometry: geometry, tileSet: source.tileSet, tiles: tiles, cutoff: cutoff)
                if let stopped = frame.stopped { throw stopped }
                return (try output.make(frame), frame.tileCount, frame.missingTiles, ContinuousClock.now - started)
            }
        }
        return Frame(
            output: drawn.0, geometry: geometry, tileCount: drawn.tileCount, missingTiles: drawn.missing,
            fills: TileFillReport(
                fills: had.fills, drawnGrey: drawn.missing, zoomStandIn: source.tileSet.grid.standIn(forDeviceZoom: geometry.deviceZoom)
            ),
            renderDuration: drawn.took
        )
    }

    /// Has `scene`'s tiles as `render` does, then runs `body` on a render thread with them, the
    /// style's source as its cache holds it and the map panel's geometry: for work that draws
    /// more than the frame, such as measuring its contrast.
    public func withTiles<Value: Sendable>(
        of scene: Scene, _ body: @escaping @Sendable (TileProviding, TileSource, FrameGeometry) throws -> Value
    ) async throws -> Value {
        let store = try await store(for: try self.source(of: scene))
        let source = store.source
        let geometry = FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
        let had = await tiles(geometry.tilePlacements(in: source.tileSet.grid).map(\.tile), in: store)
        let decodedTiles = decodedTiles
        return try await rendering.run {
            assertNotOnEventLoop("drawing a frame")
            return try body(had.decoded(into: decodedTiles, source: source), source, geometry)
        }
    }

    /// Runs `body`, work of the CPU's that needs no tiles (hit-testing, describing a frame), on a
    /// render thread; throws `BlockingWorkRefused` when too many frames are waiting.
    public func onRenderThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await rendering.run(body)
    }

    private func source(of scene: Scene) throws -> TileSource {
        guard let source = catalog[scene.style] else {
            preconditionFailure("scene style \(scene.style) was checked against the catalogue when read")
        }
        return source
    }

    // MARK: - Tiles

    /// The tile store for a style, opening its cache on first use. Its source is the style as
    /// the cache holds it: where a cache file's tiles say what they are, at their tile size, and,
    /// drawn offline, from the zooms the file holds (`TileSource.drawn(from:fromFileAlone:)`).
    public func store(for source: TileSource) async throws -> TileStore {
        let configuration = configuration
        let opening = stores.withLock { stores in
            if let opening = stores[source.name] { return opening }
            let opening = Task { [self] () async throws -> TileStore in
                // Only a cache tiles are fetched into is written; with no upstream, nothing is.
                let cache = try await configuration.cacheLocation.openCache(
                    for: source.name, readOnly: configuration.fetcher == nil, createIfMissing: configuration.createsMissingCaches
                )
                var drawn = source
                if let tileset = try await cache.tilesetDescription() {
                    announce(tileset, of: cache)
                    drawn = source.drawn(from: tileset, fromFileAlone: configuration.fetcher == nil)
                }
                return TileStore(
                    source: drawn, cache: cache, fetcher: configuration.fetcher, capacity: configuration.capacity,
                    upstreamWait: configuration.upstreamWait, observer: configuration.fillObserver
                )
            }
            stores[source.name] = opening
            return opening
        }
        do {
            return try await opening.value
        } catch {
            // A cache that could not be opened is tried afresh by the next frame.
            stores.withLock { if $0[source.name] == opening { $0[source.name] = nil } }
            throw error
        }
    }

    /// The tiles of a frame, each once: decoded from memory where it holds them fresh, else had
    /// from the store (all at once), as bytes for the render thread to decode.
    private func tiles(_ ids: [TileID], in store: TileStore) async -> FrameTiles {
        let now = Date()
        var had = FrameTiles()
        var wanted: [TileID] = []
        for id in Set(ids) {
            if let decoded = decodedTiles.value(for: DecodedTileKey(cache: store.cacheName, tile: id)), decoded.isFresh(at: now) {
                had.add(id, .decoded(decoded.image), fill: .cached)
                store.noteMemoryHit(id)
            } else {
                wanted.append(id)
            }
        }
        let supplied: [(TileID, SuppliedTile)]
        if wanted.count == 1 {
            // A composited tile's one tile is asked for directly: a task group would start a
            // child task, and wait for it, to ask for one tile.
            supplied = [(wanted[0], await store.tile(wanted[0]))]
        } else {
            supplied = await withTaskGroup(of: (TileID, SuppliedTile).self) { group in
                for id in wanted { group.addTask { (id, await store.tile(id)) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        for (id, tile) in supplied {
            if let stored = tile.stored {
                // A stale tile is drawn but not kept decoded, so the next frame asks again.
                had.add(id, .encoded(stored, cache: store.cacheName, keep: !tile.fill.isStale), fill: tile.fill)
            } else if case .missing(let missing) = tile.fill {
                had.add(id, .missing(missing), fill: tile.fill)
            }
        }
        return had
    }

    /// Tells `tilesetNotice` what was read from the cache's tiles' bytes because its metadata was
    /// silent or wrong, the first time the cache is opened.
    private func announce(_ tileset: TilesetDescription, of cache: any TileCacheBackend) {
        guard let notice = tileset.readFromTiles, describedCaches.withLock({ $0.insert(cache.name).inserted }) else { return }
        configuration.tilesetNotice?("cache \(cache.name): \(notice)")
    }

    // MARK: - Upkeep

    /// Writes every open store's tile use and metadata (`TileStore.flush`).
    public func flush() async throws {
        for store in await openStores() { try await store.flush() }
    }

    /// Stops the fetcher and the fetches under way, then flushes the stores as far as they can
    /// be (so that the tiles those fetches stored are counted), and stops the render threads.
    public func shutdown() async {
        await configuration.fetcher?.shutdown()
        try? await flush()
        for store in await openStores() { await store.shutdown() }
        await rendering.shutdown()
    }

    /// Why each open cache that cannot be used now cannot; empty when all can.
    public func unavailableCaches() async -> [Unavailability] {
        var found: [Unavailability] = []
        for store in await openStores() {
            if let unavailable = await store.cacheUnavailability(), !found.contains(unavailable) { found.append(unavailable) }
        }
        return found
    }

    /// Opens the cache of each source whose cache file is there already, so that a server finds
    /// one that is not an MBTiles file, or is cut short, as it starts, not at its first request.
    public func openExistingCaches(of sources: [TileSource]) async throws {
        for source in sources {
            guard let path = configuration.cacheLocation.path(for: source.name), FileManager.default.fileExists(atPath: path) else { continue }
            _ = try await store(for: source)
        }
    }

    private func openStores() async -> [TileStore] {
        var opened: [TileStore] = []
        for opening in stores.withLock({ Array($0.values) }) { if let store = try? await opening.value { opened.append(store) } }
        return opened
    }
}

/// Where a decoded tile came from: the cache (`TileCacheBackend.name`) and the tile address.
struct DecodedTileKey: Hashable, Sendable {
    var cache: String
    var tile: TileID
}

/// A decoded tile and when it stops being fresh (never, for a tile without freshness).
struct DecodedTile: Sendable {
    var image: RasterImage
    var expiresAt: Date?

    func isFresh(at now: Date) -> Bool { expiresAt.map { now < $0 } ?? true }
}

/// A frame's tiles as they were had, before a render thread decodes those that came as bytes.
private struct FrameTiles: Sendable {
    enum Tile: Sendable {
        case decoded(RasterImage)
        /// Bytes to decode, and whether to keep the decoded tile in memory.
        case encoded(StoredTile, cache: String, keep: Bool)
        case missing(MissingTile)
    }

    private(set) var tiles: [TileID: Tile] = [:]
    private(set) var fills: [TileID: TileFill] = [:]

    mutating func add(_ id: TileID, _ tile: Tile, fill: TileFill) {
        tiles[id] = tile
        fills[id] = fill
    }

    /// Every tile decoded, or missing with the reason: bytes that do not decode, or are not of a
    /// tile's size, are undecodable. Decoded tiles are kept in `memory`. Call on a render thread.
    func decoded(into memory: LRUCache<DecodedTileKey, DecodedTile>, source: TileSource) -> DecodedFrameTiles {
        let decoder = source.tileDecoder
        var lookups: [TileID: TileLookup] = [:]
        for (id, tile) in tiles {
            switch tile {
            case .decoded(let image):
                lookups[id] = .image(image)
            case .missing(let missing):
                lookups[id] = .missing(missing)
            case .encoded(let stored, let cache, let keep):
                do throws(TileImageError) {
                    let image = try decoder.decode(stored.data)
                    if keep { memory.insert(DecodedTile(image: image, expiresAt: stored.freshness?.expiresAt), for: DecodedTileKey(cache: cache, tile: id)) }
                    lookups[id] = .image(image)
                } catch {
                    lookups[id] = .missing(MissingTile(tile: id, reason: .undecodable(error.description)))
                }
            }
        }
        return DecodedFrameTiles(lookups: lookups)
    }
}

/// A frame's tiles, decoded, as the renderer draws them.
private struct DecodedFrameTiles: TileProviding {
    let lookups: [TileID: TileLookup]

    func tile(_ id: TileID) -> TileLookup {
        lookups[id] ?? .missing(MissingTile(tile: id, reason: .notCached))
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
