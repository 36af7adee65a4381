import BlockingWork
import FrameExplain
import FramePipeline
import FrameRequest
import Foundation
import HTTPTypes
import ImageCodec
import Logging
import MapGeometry
import MapRender
import Metrics
import NIOCore
import PhoneScreen
import RouteStore
import Synchronization
import TileStore

/// Everything the server draws: base tiles through the cache, tiles with a route drawn on
/// them, and whole frames, all through the one frame pipeline. Storage runs on the storage
/// threads and Cairo and libpng on the render threads, never on the event loops. Encoded tiles
/// ready to send are kept here.
final class TileService: Sendable {
    /// What a client may keep a tile for when its source gave no freshness (fixture tiles).
    static let untrackedMaxAge = 86_400

    let configuration: MapServerConfiguration
    private let pipeline: FramePipeline
    /// Encoded tiles ready to send, so that hot tiles never touch SQLite: 2048 of them, within
    /// 64 MiB, since a tile body may be up to 2 MB.
    private let encodedTiles = LRUCache<EncodedKey, EncodedEntry>(capacity: 2048, maxBytes: 64 << 20) { $0.image.body.readableBytes }
    let metrics: ServerMetrics

    private struct EncodedKey: Hashable, Sendable {
        var style: String
        var tile: TileID
        var retina: Bool
        var routeID: String?
        var theme = Theme.Name.cycleStreets
    }

    private struct EncodedEntry: Sendable {
        var image: EncodedImage
        var expiresAt: Date
    }

    init(configuration: MapServerConfiguration) {
        self.configuration = configuration
        let metrics = ServerMetrics(backend: configuration.cacheLocation.backendKind)
        self.metrics = metrics
        pipeline = FramePipeline(FramePipeline.Configuration(
            catalog: configuration.catalog,
            cacheLocation: configuration.cacheLocation,
            fetcher: configuration.fetchPolicy.map { TileFetcher(policy: $0, userAgentOverridden: configuration.userAgentOverridden) },
            capacity: configuration.cacheCapacity,
            createsMissingCaches: true,
            upstreamWait: configuration.upstreamWait,
            // Decoded tiles for drawing: 32 of 256 KiB is 8 MiB, more than the nine tiles under
            // a 320x480 frame on each of two render threads; a composited tile needs one. 64 tiles held the server at
            // 102 MB under `make bench`'s composited load, where the target is 100 MB, and since
            // each route tile needs its own base tile they were seldom used again. The byte
            // budget holds when tiles are 512 px too. Base tiles are served as they are stored,
            // and never decoded.
            decodedTileBudget: DecodedTileBudget(tiles: 32, bytes: 8 << 20),
            renderThreads: configuration.renderThreads,
            renderQueueLimit: configuration.renderQueueLimit,
            fillObserver: { fill, duration in metrics.record(fill, took: duration) },
            tilesetNotice: { [logger = configuration.logger] in logger.warning("\($0)") }
        ))
    }

    func shutdown() async {
        await pipeline.shutdown()
    }

    // MARK: - Base tiles

    /// A base tile held in memory and still fresh, without touching anything else; nil otherwise.
    /// Safe to call on an event loop.
    func memoryHit(style: String, z: Int, x: Int, y: Int) -> EncodedImage? {
        remembered(EncodedKey(style: style, tile: TileID(z: z, x: x, y: y), retina: false, routeID: nil))
    }

    /// A base tile through memory, the cache and the upstream: the source's own tile, in its own
    /// format, where the address is one of the source's tiles as its cache holds them
    /// (`TileAddress.isSourceTile(of:)`), else drawn as PNG from the source's tiles that cover it.
    func baseTile(_ address: TileAddress) async throws -> EncodedImage? {
        let key = EncodedKey(style: address.source.name, tile: address.tile, retina: address.retina, routeID: nil)
        if let image = remembered(key) { return image }
        // A cache file from elsewhere may hold tiles of another size than the style's, or lack a zoom.
        let store = try await pipeline.store(for: address.source)
        guard address.isSourceTile(of: store.source) else {
            return try await renderTile(address, route: nil, theme: .cycleStreets, key: key)
        }
        let window = configuration.staleWhileRevalidate
        let supplied = await store.tile(address.tile, staleWhileRevalidate: window)
        guard let stored = supplied.stored else { return nil }
        // A tile of another size than its cache's is never sent on.
        guard let header = try? store.source.tileDecoder.checkedHeader(of: stored.data) else { return nil }
        let image = EncodedImage(
            data: stored.data, format: header.format, maxAge: TileService.maxAge(stored.freshness),
            staleWhileRevalidate: TileService.staleWhileRevalidate(supplied, window: window), lastModified: stored.freshness?.fetchedAt
        )
        if supplied.fill.isStale {
            // A stale tile is served but not kept in memory, so the next request looks again.
            return image
        }
        remember(image, for: key)
        return image
    }

    /// What a request for a base tile is answered with: the tile, the grey placeholder, or, with
    /// `--missing 404`, a 404 naming the tile; an error the router would have answered.
    enum BaseTileAnswer: Sendable {
        case image(EncodedImage)
        case problem(HTTPProblem)
    }

    /// The answer to a request for the base tile at `address`, for the router and the fast path.
    func baseTileAnswer(_ address: TileAddress) async -> BaseTileAnswer {
        let image: EncodedImage?
        do {
            image = try await baseTile(address)
        } catch let problem as HTTPProblem {
            return .problem(problem)
        } catch is BlockingWorkRefused {
            return .problem(.overloaded)
        } catch {
            configuration.logger.error("tile \(address.tile) of \(address.source.name) failed: \(error)")
            return .problem(HTTPProblem(status: .internalServerError, message: "internal error"))
        }
        if let image, !image.isPlaceholder { return .image(image) }
        guard configuration.missingTileAnswer == .placeholder else {
            return .problem(.notFound("tile \(address.tile) of \(address.source.name) is not cached and could not be fetched"))
        }
        return .image(image ?? placeholder(retina: address.retina))
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

    private static let basePlaceholder = greyTile(side: TileSource.standardTileSize)
    private static let retinaPlaceholder = greyTile(side: 2 * TileSource.standardTileSize)

    private static func greyTile(side: Int) -> EncodedImage {
        let canvas = Canvas(width: side, height: side)
        canvas.clear(to: .missingTileGrey)
        return EncodedImage(data: (try? canvas.pngData(opaque: true)) ?? Data(), format: .png, maxAge: 0, lastModified: nil, isPlaceholder: true)
    }

    // MARK: - Route tiles and frames

    /// A base tile with a stored route's line and start and finish markers drawn in `theme`
    /// (the spec's values by default). Each tile is a frame whose corner is the tile's corner,
    /// so lines and markers continue across tile edges exactly as in a snapshot of the same area.
    func routeTile(_ address: TileAddress, route: StoredRoute, theme: Theme.Name) async throws -> EncodedImage {
        let key = EncodedKey(style: address.source.name, tile: address.tile, retina: address.retina, routeID: route.id, theme: theme)
        if let image = remembered(key) { return image }
        return try await renderTile(address, route: route, theme: theme.theme, key: key)
    }

    /// A whole frame, drawn by the same pipeline as `mapframe snapshot`.
    func frame(_ scene: Scene, encoding: FrameEncoding = .png) async throws -> EncodedImage {
        guard configuration.catalog[scene.style] != nil else {
            throw HTTPProblem.notFound("style '\(scene.style)' is not known")
        }
        let frame = try await timedRender(scene, geometry: nil, encoding: encoding)
        return EncodedImage(data: frame.output, format: encoding.format, maxAge: 0, lastModified: nil)
    }

    /// Where the frame of `scene` shows water, for the explorable frame's tones: it is drawn
    /// as `/frame.png` draws it, and its pixels read.
    func waterMask(_ scene: Scene) async throws -> WaterMask {
        guard configuration.catalog[scene.style] != nil else {
            throw HTTPProblem.notFound("style '\(scene.style)' is not known")
        }
        let presence = ClientPresence.current
        let cutoff = RenderCutoff(maximum: Self.maximumDrawing) { presence?.isGone ?? false }
        let scale = scene.viewport.scale
        let frame = try await pipeline.render(scene, geometry: nil, as: FrameOutput { WaterMask(image: $0.canvas.image(), scale: scale) }, cutoff: cutoff)
        metrics.renderDuration(frame.renderDuration)
        return frame.output
    }

    /// Draws one 256-pixel tile (512 at @2x) of the map in `theme`, with a route if given.
    private func renderTile(_ address: TileAddress, route: StoredRoute?, theme: Theme, key: EncodedKey) async throws -> EncodedImage {
        let scale = address.retina ? 2 : 1
        let side = TileSource.standardTileSize
        let viewport = Viewport(width: side, height: side, scale: scale)
        let geometry = FrameGeometry(
            origin: PixelPoint(x: Double(address.tile.x * side * scale), y: Double(address.tile.y * side * scale)),
            zoom: Double(address.tile.z), viewport: viewport
        )
        // The route as the app draws it: its start and finish markers, and the line over them.
        let overlays = Scene.Overlays(start: route?.line.first, finish: route?.line.last, route: route?.line, attribution: .hidden)
        let scene = SceneBuilder(
            mapAlone: viewport, style: address.source.name, theme: theme, camera: .fixed(geometry.camera), overlays: overlays
        ).build()
        if route != nil, !FrameRenderer.changesTiles(scene, geometry: geometry, tileSet: address.source.tileSet),
           let base = try await baseTile(address) {
            // Most tiles of a route's layer hold none of it: they are the base tile, byte for byte,
            // kept under the route's key too so the next request need not ask again.
            if !base.isPlaceholder { remember(base, for: key) }
            return base
        }
        let frame = try await timedRender(scene, geometry: geometry)
        guard frame.missingTiles.isEmpty else {
            return EncodedImage(data: frame.output, format: .png, maxAge: 0, lastModified: nil, isPlaceholder: true)
        }
        let maxAge = frame.fills.stale > 0 ? 0 : 3600
        let image = EncodedImage(data: frame.output, format: .png, maxAge: maxAge, lastModified: nil)
        if maxAge > 0 {
            remember(image, for: key)
        }
        return image
    }

    /// The longest a frame or composited tile may draw. Past it the drawing stops and the answer
    /// is 503 with `Retry-After`; an ordinary frame draws in well under a second.
    static let maximumDrawing = Duration.seconds(5)

    /// Renders through the pipeline, timing the drawing and encoding for the metrics. The drawing
    /// stops past `maximumDrawing`, or once the request's client has gone (`ClientPresence`).
    private func timedRender(_ scene: Scene, geometry: FrameGeometry?, encoding: FrameEncoding = .png) async throws -> Frame<Data> {
        let presence = ClientPresence.current
        let cutoff = RenderCutoff(maximum: Self.maximumDrawing) { presence?.isGone ?? false }
        let frame = try await pipeline.render(scene, geometry: geometry, as: .encoded(as: encoding), cutoff: cutoff)
        metrics.renderDuration(frame.renderDuration)
        return frame
    }

    // MARK: - Stores

    func store(for source: TileSource) async throws -> TileStore {
        try await pipeline.store(for: source)
    }

    /// Runs `body` on a render thread: work of the CPU's that needs no tiles.
    func onRenderThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await pipeline.onRenderThread(body)
    }

    /// Writes tiles' last use and metadata; called now and then by the server.
    func flushStores() async {
        try? await pipeline.flush()
    }

    /// Why each open cache that cannot be used now cannot (`FramePipeline.unavailableCaches`).
    func unavailableCaches() async -> [Unavailability] {
        await pipeline.unavailableCaches()
    }

    /// Opens every cache file already there, so that one that is not an MBTiles file, or is cut
    /// short, stops the server as it starts.
    func openExistingCaches() async throws {
        try await pipeline.openExistingCaches(of: Array(configuration.catalog.sources.values))
    }

    private static func maxAge(_ freshness: TileFreshness?) -> Int {
        guard let freshness else { return untrackedMaxAge }
        return max(0, Int(freshness.expiresAt.timeIntervalSinceNow))
    }

    /// What a tile's answer lets other caches serve it stale for past its max-age: what is left of
    /// the server's own window. None for a tile that never expires, nor for one served stale
    /// because the upstream failed (`no-store`: a failure is never kept).
    private static func staleWhileRevalidate(_ supplied: SuppliedTile, window: TimeInterval) -> Int {
        if case .stale = supplied.fill { return 0 }
        return supplied.stored?.freshness?.staleWindowLeft(window, at: Date()) ?? 0
    }
}
