import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Metrics
import NIOCore
import Synchronization
import TileStore

/// Everything the server draws: base tiles through the cache, tiles with a route drawn on
/// them, and whole frames. Blocking work runs off the event loops: SQLite on a dispatch queue,
/// rendering on a bounded pool of threads that answers "overloaded" when its queue is full.
final class TileService: Sendable {
    /// What a client may keep a tile for when its source gave no freshness (fixture tiles).
    static let untrackedMaxAge = 86_400

    let configuration: MapServerConfiguration
    private let fetcher: TileFetcher?
    /// Decoded tiles for drawing: 64 of 256 KiB is 16 MiB, enough for the tiles a few frames
    /// and composited tiles are drawing at once (the server's memory target is 100 MB); the
    /// byte budget holds when tiles are 512 px too.
    private let decodedTiles = LRUCache<DecodedTileKey, RasterImage>(capacity: DecodedTileBudget(tiles: 64, bytes: 16 << 20))
    /// Encoded tiles ready to send, so that hot tiles never touch SQLite: 2048 of them, within
    /// 64 MiB, since a tile body may be up to 2 MB.
    private let encodedTiles = LRUCache<EncodedKey, EncodedEntry>(capacity: 2048, maxBytes: 64 << 20) { $0.image.body.readableBytes }
    private let stores = Mutex<[String: TileStore]>([:])
    private let io = DispatchQueue(label: "mapframe-io", attributes: .concurrent)
    private let renderPool: BlockingPool<FrameRenderer>
    private let metrics = ServerMetrics()

    private struct EncodedKey: Hashable, Sendable {
        var style: String
        var tile: TileID
        var retina: Bool
        var routeID: String?
    }

    private struct EncodedEntry: Sendable {
        var image: EncodedImage
        var expiresAt: Date
    }

    init(configuration: MapServerConfiguration) {
        self.configuration = configuration
        fetcher = configuration.fetchPolicy.map { TileFetcher(policy: $0, userAgentOverridden: configuration.userAgentOverridden) }
        renderPool = BlockingPool(
            threads: configuration.renderThreads, queueLimit: configuration.renderQueueLimit, name: "mapframe-render"
        ) { FrameRenderer() }
    }

    func shutdown() {
        renderPool.shutdown()
        fetcher?.shutdown()
        for store in stores.withLock({ Array($0.values) }) { try? store.flush() }
    }

    // MARK: - Base tiles

    /// A base tile held in memory and still fresh, without touching anything else; nil otherwise.
    /// Safe to call on an event loop.
    func memoryHit(style: String, z: Int, x: Int, y: Int) -> EncodedImage? {
        remembered(EncodedKey(style: style, tile: TileID(z: z, x: x, y: y), retina: false, routeID: nil))
    }

    /// A base tile as the source serves it, through memory, the cache and the upstream.
    func baseTile(_ address: TileAddress) async throws -> EncodedImage? {
        let key = EncodedKey(style: address.source.name, tile: address.tile, retina: address.retina, routeID: nil)
        if let image = remembered(key) { return image }
        if address.retina {
            return try await renderTile(address, route: nil, key: key)
        }
        let store = try await store(for: address.source)
        let fill = await fill(address.tile, in: store)
        metrics.record(fill)
        guard let stored = try await onIOQueue({ try store.storedTile(address.tile) }) else { return nil }
        // A cache file from elsewhere may hold a tile of another size; it is never sent on.
        guard (try? address.source.tileDecoder.checkSize(of: stored.data)) != nil else { return nil }
        let image = EncodedImage(
            data: stored.data, maxAge: TileService.maxAge(stored.freshness), lastModified: stored.freshness?.fetchedAt
        )
        if case .stale = fill {
            // A stale tile is served but not kept in memory, so the next request tries the upstream again.
            return image
        }
        remember(image, for: key)
        return image
    }

    /// The image kept in memory for `key`, unless its time there is up; counted as a hit.
    private func remembered(_ key: EncodedKey) -> EncodedImage? {
        guard let entry = encodedTiles.value(for: key), entry.expiresAt > Date() else { return nil }
        metrics.count(.hit)
        return entry.image
    }

    /// Keeps an image ready in memory until its max-age runs out, or `memoryLifetime` passes.
    private func remember(_ image: EncodedImage, for key: EncodedKey) {
        let lifetime = min(Double(image.maxAge), configuration.memoryLifetime)
        encodedTiles.insert(EncodedEntry(image: image, expiresAt: Date().addingTimeInterval(lifetime)), for: key)
    }

    /// The grey tile served when nothing better can be had.
    func placeholder(retina: Bool) -> EncodedImage {
        metrics.count(.placeholder)
        return retina ? TileService.retinaPlaceholder : TileService.basePlaceholder
    }

    private static let basePlaceholder = greyTile(side: 256)
    private static let retinaPlaceholder = greyTile(side: 512)

    private static func greyTile(side: Int) -> EncodedImage {
        let canvas = Canvas(width: side, height: side)
        canvas.clear(to: .missingTileGrey)
        return EncodedImage(data: (try? canvas.pngData(opaque: true)) ?? Data(), maxAge: 0, lastModified: nil, isPlaceholder: true)
    }

    // MARK: - Route tiles and frames

    /// A base tile with a stored route's line and start and finish markers drawn at the spec's
    /// values. Each tile is a frame whose corner is the tile's corner, so lines and markers
    /// continue across tile edges exactly as in a snapshot of the same area.
    func routeTile(_ address: TileAddress, route: StoredRoute) async throws -> EncodedImage {
        let key = EncodedKey(style: address.source.name, tile: address.tile, retina: address.retina, routeID: route.id)
        if let image = remembered(key) { return image }
        return try await renderTile(address, route: route, key: key)
    }

    /// A whole frame, drawn by the same renderer as `mapframe snapshot`.
    func frame(_ scene: Scene) async throws -> EncodedImage {
        guard let source = configuration.catalog[scene.style] else {
            throw HTTPProblem.notFound("style '\(scene.style)' is not known")
        }
        let store = try await store(for: source)
        let geometry = FrameRenderer.geometry(for: scene, source: source)
        for fill in await fill(geometry.tilePlacements(in: source.zoomRange).map(\.tile), in: store) { metrics.record(fill) }
        let started = Date()
        let png = try await renderPool.run { renderer in
            try renderer.render(scene, geometry: geometry, source: source, tiles: store).canvas.pngData(opaque: true)
        }
        metrics.renderDuration(since: started)
        return EncodedImage(data: png, maxAge: 0, lastModified: nil)
    }

    /// Draws one 256-pixel tile (512 at @2x) of the map, with a route if given.
    private func renderTile(_ address: TileAddress, route: StoredRoute?, key: EncodedKey) async throws -> EncodedImage {
        let scale = address.retina ? 2 : 1
        let viewport = Viewport(width: 256, height: 256, scale: scale)
        let side = Double(256 * scale)
        let geometry = FrameGeometry(
            origin: PixelPoint(x: Double(address.tile.x) * side, y: Double(address.tile.y) * side),
            zoom: Double(address.tile.z), viewport: viewport
        )
        let scene = Scene(
            viewport: viewport, style: address.source.name, camera: .fixed(geometry.camera),
            start: route?.start, finish: route?.finish, route: route?.coordinates ?? [], attribution: .hidden
        )
        let source = address.source
        if route != nil, !FrameRenderer.overlaysTouch(scene, geometry: geometry, source: source),
           let base = try await baseTile(address) {
            // Most tiles of a route's layer hold none of it: they are the base tile, byte for byte,
            // kept under the route's key too so the next request need not ask again.
            if !base.isPlaceholder { remember(base, for: key) }
            return base
        }
        let store = try await store(for: source)
        let fills = await fill(geometry.tilePlacements(in: source.zoomRange).map(\.tile), in: store)
        for fill in fills { metrics.record(fill) }
        let started = Date()
        let frame = try await renderPool.run { renderer -> (png: Data, missing: Int) in
            let frame = renderer.render(scene, geometry: geometry, source: source, tiles: store)
            return (try frame.canvas.pngData(opaque: true), frame.missingTiles.count)
        }
        metrics.renderDuration(since: started)
        guard frame.missing == 0 else {
            return EncodedImage(data: frame.png, maxAge: 0, lastModified: nil, isPlaceholder: true)
        }
        let maxAge = fills.contains { if case .stale = $0 { true } else { false } } ? 0 : 3600
        let image = EncodedImage(data: frame.png, maxAge: maxAge, lastModified: nil)
        if maxAge > 0 {
            remember(image, for: key)
        }
        return image
    }

    // MARK: - Stores

    func store(for source: TileSource) async throws -> TileStore {
        if let store = stores.withLock({ $0[source.name] }) { return store }
        let configuration = configuration
        let store = try await onIOQueue { [decodedTiles, fetcher] () throws -> TileStore in
            let cache = try CacheLocation.directory(configuration.cacheDirectory).openCache(for: source.name, writable: true)
            return TileStore(source: source, cache: cache, decodedTiles: decodedTiles, fetcher: fetcher, capacity: configuration.cacheCapacity)
        }
        return stores.withLock { stores in
            if let existing = stores[source.name] { return existing }
            stores[source.name] = store
            return store
        }
    }

    /// Writes tiles' last use and metadata; called now and then by the server.
    func flushStores() {
        for store in stores.withLock({ Array($0.values) }) {
            io.async { try? store.flush() }
        }
    }

    /// Fills a tile, waiting for the upstream at most `upstreamWait`: past it, the request goes
    /// on without the tile (a stale copy or grey), and the fetch goes on to fill the cache.
    private func fill(_ tile: TileID, in store: TileStore) async -> TileFill {
        let started = Date()
        let wait = configuration.upstreamWait
        let fill = await withCheckedContinuation { continuation in
            let result = FirstResult(continuation)
            io.async {
                store.fill(tile) { result.resume(returning: $0) }
                // Cached tiles complete at once, so only fetches need a timer.
                guard !result.isDone else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(wait.components.seconds * 1000))) {
                    let reason = "the upstream did not answer within \(wait.components.seconds) s; the tile is cached when it does"
                    result.resume(returning: .missing(MissingTile(tile: tile, reason: .fetchFailed(reason))))
                }
            }
        }
        if fill == .fetched || fill == .revalidated { metrics.upstreamDuration(since: started) }
        return fill
    }

    private func fill(_ tiles: [TileID], in store: TileStore) async -> [TileFill] {
        await withTaskGroup(of: TileFill.self) { group in
            for tile in tiles { group.addTask { await self.fill(tile, in: store) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func onIOQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            io.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func maxAge(_ freshness: TileFreshness?) -> Int {
        guard let freshness else { return untrackedMaxAge }
        return max(0, Int(freshness.expiresAt.timeIntervalSinceNow))
    }
}

/// Resumes a continuation with the first result it is given, and ignores the rest.
private final class FirstResult: Sendable {
    private let continuation: Mutex<CheckedContinuation<TileFill, Never>?>

    init(_ continuation: CheckedContinuation<TileFill, Never>) {
        self.continuation = Mutex(continuation)
    }

    var isDone: Bool { continuation.withLock { $0 == nil } }

    func resume(returning fill: TileFill) {
        continuation.withLock { $0.take() }?.resume(returning: fill)
    }
}
