import BlockingWork
import Foundation
import FrameRequest
import HTTPTypes
import Hummingbird
import HummingbirdCore
import ImageCodec
import Logging
import MapGeometry
import MapRender
import Metrics
import Prometheus
import RouteStore
import ServiceLifecycle
import TileStore
import UnixSignals

/// MapFrame's HTTP server: cached and composited tiles, stored routes, whole frames, a viewer
/// page and metrics. Every endpoint is declared in `router()`, top to bottom.
public final class MapServerApp: Sendable {
    let configuration: MapServerConfiguration
    let tiles: TileService
    let routes: any RouteStore
    let storageHealth: StorageHealth
    let writeAccess: WriteAccess
    let writeRateLimiter: ClientRateLimiter
    let publicURLs: PublicURLs
    private let viewer: ViewerAssets
    private let requestCounters = RequestCounters()
    private let requestLog: RequestLog?
    /// Where request bodies are parsed: a 5 MB body can take a second or more to read, which on
    /// Swift's cooperative threads (one per core) would hold up every other request. Two threads,
    /// so that one slow body does not hold up the rest, taking clients in turn; past a few
    /// waiting bodies (two a client) the server answers 503.
    let bodyWork = BlockingPool(threads: 2, queueLimit: 8)
    /// How `run` stops: on SIGTERM or SIGINT, or when `stop()` asks.
    private let shutdown: ShutdownGrace

    public init(configuration: MapServerConfiguration) async throws {
        // Before any metric is made, or it would go to the no-op default and never be seen.
        _ = MapServerApp.metricsRegistry
        self.configuration = configuration
        shutdown = ShutdownGrace(logger: configuration.logger)
        requestLog = configuration.accessLog.map(RequestLog.init)
        guard let routes = try await configuration.routeLocation.openRouteStore(quota: configuration.routeQuota) else {
            preconditionFailure("the server's route location is a directory or a database, never a single file or an archive")
        }
        self.routes = routes
        writeAccess = WriteAccess(
            token: configuration.writeToken, host: configuration.host, anonymousWritesAllowed: configuration.anonymousWritesAllowed
        )
        writeRateLimiter = ClientRateLimiter(burst: configuration.writeRateLimit.burst, perMinute: configuration.writeRateLimit.perMinute)
        publicURLs = PublicURLs(configured: configuration.publicURL, listening: "\(configuration.host):\(configuration.port)")
        tiles = TileService(configuration: configuration)
        storageHealth = StorageHealth(tiles: tiles, routes: routes, logger: configuration.logger, metrics: tiles.metrics)
        try await tiles.openExistingCaches()
        viewer = ViewerAssets(leafletDirectory: configuration.leafletDirectory)
    }

    /// The `Server` header of every answer.
    static let serverName = "MapFrame"

    /// Metrics go to one Prometheus registry per process (swift-metrics can be bootstrapped once).
    static let metricsRegistry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Serves until SIGTERM or SIGINT or `stop()`, then lets requests in flight finish, for
    /// `ShutdownGrace.period` at most, and returns. `onListening` gets the bound port (useful with port 0).
    /// Runs once.
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let logger = configuration.logger
        let flusher = PeriodicFlush(tiles: tiles, storageHealth: storageHealth)
        let (tiles, counters, limits, requestLog) = (tiles, requestCounters, configuration.connectionLimits, requestLog)
        let maxBodyBytes = configuration.maxBodyBytes
        let openConnections = OpenConnections(limit: connectionCap(logger: logger))
        let connectionChannel = { @Sendable (responder: @escaping HTTPChannelHandler.Responder) in
            TileServerChannel(responder: responder, limits: limits, openConnections: openConnections) {
                CachedTileFastPath(tiles: tiles, counters: counters, requestLog: requestLog, maxBodyBytes: maxBodyBytes)
            }
        }
        try connectionChannel { _, _, _ in }.instantiateConnectionTypes()
        let app = Application(
            router: router(),
            server: HTTPServerBuilder(connectionChannel),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: MapServerApp.serverName),
            services: [flusher],
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let stopped: Result<Void, any Error>
        do {
            try await shutdown.run([app])
            stopped = .success(())
        } catch {
            stopped = .failure(error)
        }
        await bodyWork.shutdown()
        await tiles.shutdown()
        await configuration.accessLog?.close()
        await StandardError.flush(within: .seconds(1))
        try stopped.get()
    }

    /// Stops `run` as SIGTERM does: no new connections, requests in flight finish (for
    /// `ShutdownGrace.period` at most), and a second call closes the connections still open.
    public func stop() {
        shutdown.requestStop("asked to stop")
    }

    /// The connections served at once: the configured number, or fewer when the descriptor limit,
    /// raised as far as the system allows, cannot hold that many.
    private func connectionCap(logger: Logger) -> Int {
        let descriptors = DescriptorLimit.raiseToHardLimit()
        let limits = configuration.connectionLimits
        let cap = limits.effectiveMaxConnections(descriptorLimit: descriptors)
        if cap < limits.maxConnections {
            logger.warning("serving at most \(cap) connections at once, not \(limits.maxConnections): the process may open only \(descriptors) descriptors")
        }
        return cap
    }

    func router() -> Router<MapRequestContext> {
        // HEAD is answered by each GET handler, without the body (the contract asks for HEAD support).
        let router = Router(context: MapRequestContext.self, options: .autoGenerateHeadEndpoints)
        // The log and metrics see the final status, after errors have become JSON answers.
        if let requestLog { router.add(middleware: RequestLoggingMiddleware(log: requestLog)) }
        router.add(middleware: RequestCountingMiddleware(counters: requestCounters))
        router.add(middleware: ResponseHeadersMiddleware())
        router.add(middleware: ClientTurnsMiddleware())

        router.get("/") { _, _ in self.viewer.page() }
        // Leaflet's files, read on the storage threads; a file that is not there gets this 404.
        router.group("/leaflet").add(middleware: viewer.leafletFiles).get("**") { request, _ in
            HTTPProblem.notFound(self.viewer.missingFile(request.uri.path)).response
        }
        // Degraded still answers 200: tiles are served from memory and the upstream meanwhile.
        // The reason is a public one unless --health-details; the log has it in full.
        router.get("/healthz") { _, _ in
            guard let reason = await self.storageHealth.unavailableReason() else { return JSONBody.response(["status": "ok"]) }
            return JSONBody.response(["status": "degraded", "reason": self.configuration.healthDetails ? reason : StorageHealth.publicReason])
        }
        router.get("/metrics") { _, _ in self.metrics() }

        // One trie node per position: the ":style" of "/tiles/:style" is the "<style>.json" document.
        router.get("/tiles/:style") { request, context in
            let source = try self.source(jsonFile: context.parameters.get("style") ?? "")
            return try self.linkedResponse(request, cacheControl: TileJSON.cacheControl) { base in
                TileJSON.document(for: source, tileURL: base + "/tiles/\(source.name)/{z}/{x}/{y}.png", name: source.title, bounds: nil, centerZoom: nil)
            }
        }
        router.get("/tiles/:style/:z/:x/:y") { request, context in
            // Most are answered before the router (`CachedTileFastPath`); these are HTTP/1.0 or
            // closing ones, and tiles that are not one of the source's own (@2x of 256 px tiles, 1x
            // of 512 px ones), drawn from those that cover it.
            try await self.baseTileResponse(try self.tileAddress(context), request: request)
        }

        // The same tiles for GIS clients: WMTS, whose templates are the /tiles URLs above, and TMS.
        router.get(RouterPath(WMTSCapabilities.path)) { request, _ in
            try WMTSCapabilities.checkQuery(request.queryPairs)
            return try self.linkedXMLResponse(request) { base in WMTSCapabilities.document(catalog: self.configuration.catalog, base: base) }
        }
        router.get(RouterPath(TMSDocuments.path)) { request, _ in
            try self.linkedXMLResponse(request) { base in TMSDocuments.tileMapService(catalog: self.configuration.catalog, base: base) }
        }
        router.get(RouterPath(TMSDocuments.path + "/:style")) { request, context in
            let source = try TileAddress.source(named: context.parameters.get("style") ?? "", catalog: self.configuration.catalog)
            return try self.linkedXMLResponse(request) { base in TMSDocuments.tileMap(source, base: base) }
        }
        router.get(RouterPath(TMSDocuments.path + "/:style/:z/:x/:y")) { request, context in
            try await self.baseTileResponse(try self.tileAddress(context, scheme: .tms), request: request)
        }

        router.post("/routes") { request, context in try await self.addRoute(request, context: context) }
        router.get("/routes") { request, _ in try await self.listRoutes(request) }
        router.get("/routes/:id") { request, context in
            let route = try await self.route(context)
            return try self.linkedResponse(request, cacheControl: "no-cache") { base in
                self.routeDocument(route, base: base, includeCoordinates: true)
            }
        }
        router.delete("/routes/:id") { request, context in try await self.deleteRoute(request, context: context) }
        router.get("/routes/:id/tiles/:style") { request, context in
            let route = try await self.route(context)
            let source = try self.source(jsonFile: context.parameters.get("style") ?? "")
            let theme = try Self.routeTileTheme(request)
            let bounds = route.line.bounds
            let fitted = CameraFit.camera(showing: [FitItem(bounds: bounds)], in: .iPhone, padding: MapDefaults.fitPadding, zoomRange: source.tileSet.zoomRange)
            let query = theme == .cycleStreets ? "" : "?theme=\(theme.rawValue)"
            return try self.linkedResponse(request, cacheControl: TileJSON.cacheControl) { base in
                TileJSON.document(
                    for: source, tileURL: base + "/routes/\(route.id)/tiles/\(source.name)/{z}/{x}/{y}.png" + query,
                    name: "\(source.title) with route \(route.id)", bounds: bounds, centerZoom: fitted.map { Int($0.zoom) }
                )
            }
        }
        router.get("/routes/:id/tiles/:style/:z/:x/:y") { request, context in
            let route = try await self.route(context)
            let address = try self.tileAddress(context)
            let theme = try Self.routeTileTheme(request)
            return self.imageResponse(try await self.tiles.routeTile(address, route: route, theme: theme), request: request)
        }

        for (path, format) in [("/frame.png", ImageHeader.Format.png), ("/frame.jpg", .jpeg), ("/frame.webp", .webp)] {
            router.get(RouterPath(path)) { request, _ in
                let parameters = request.queryPairs
                let encoding: FrameEncoding
                do {
                    encoding = try FrameQuery.encoding(format, parameters: parameters)
                } catch let error as FrameRequestError {
                    throw HTTPProblem(error)
                }
                let scene = try await self.frameScene(request, others: FrameQuery.encodingParameters(format))
                return self.imageResponse(try await self.tiles.frame(scene, encoding: encoding), request: request)
            }
        }
        router.get("/staticmap") { request, _ in
            let parameters = request.queryPairs
            let frame: (scene: Scene, encoding: FrameEncoding)
            do {
                frame = try GoogleStaticMap.frame(from: parameters, catalog: self.configuration.catalog)
            } catch let error as FrameRequestError {
                throw HTTPProblem(error)
            }
            return self.imageResponse(try await self.tiles.frame(frame.scene, encoding: frame.encoding), request: request)
        }
        router.get("/styles/v1/:user/:style/static/**") { request, context in
            let style = try context.parameters.require("style")
            let path = request.uri.path
            let marker = "/static/"
            // The overlays may hold any character once percent-decoded, `/` among them, so the
            // rest of the path is taken as sent and decoded a part at a time.
            guard let range = path.range(of: marker) else { throw HTTPProblem.notFound("no static/ in the path") }
            let scene: Scene
            do {
                scene = try MapboxStaticMap.scene(style: style, rest: path[range.upperBound...], parameters: request.queryPairs, catalog: self.configuration.catalog)
            } catch let error as FrameRequestError {
                throw HTTPProblem(error)
            }
            return self.imageResponse(try await self.tiles.frame(scene, encoding: .png), request: request)
        }
        router.get("/departures.png") { request, _ in
            self.imageResponse(try await self.tiles.frame(try await self.departuresScene(request)), request: request)
        }
        router.get("/departures/describe") { request, _ in try await self.describe(request, departures: true) }
        router.get("/departures.html") { request, _ in try await self.explorableFrame(request, departures: true) }
        router.get("/frame/hit") { request, _ in try await self.hit(request) }
        router.get("/frame/describe") { request, _ in try await self.describe(request) }
        router.get("/frame.html") { request, _ in try await self.explorableFrame(request) }
        router.post("/frame") { request, context in
            let body = try await self.body(of: request, context: context)
            let catalog = self.configuration.catalog, feeds = self.configuration.transitFeeds, realtime = self.configuration.transitRealtime
            let scene = try await self.bodyWork.run { () throws -> Scene in
                do {
                    return try SceneFile.parse(body, name: "scene", catalog: catalog, feeds: feeds, realtime: realtime)
                } catch let error as SceneError {
                    throw HTTPProblem.badRequest(error.description)
                }
            }
            return self.imageResponse(try await self.tiles.frame(scene), request: request)
        }
        router.add(middleware: MethodNotAllowed(routes: router.routes))
        return router
    }

    // MARK: - Handlers' helpers

    func body(of request: Request, context: MapRequestContext) async throws -> Data {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: configuration.maxBodyBytes)
            return Data(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPProblem(status: .contentTooLarge, message: "the body is larger than \(configuration.maxBodyBytes) bytes")
        }
    }

    func route(_ context: MapRequestContext) async throws -> StoredRoute {
        let id = context.parameters.get("id") ?? ""
        guard let route = try await storedRoute(id: id) else { throw HTTPProblem.notFound("route '\(id)' is not known") }
        return route
    }

    /// The route stored under `id`, or nil; 503 when the store cannot be read now.
    /// The scene a frame request's query parameters describe (`FrameQuery`); `others` are the
    /// endpoint's own parameters, left to it.
    func frameScene(_ request: Request, others: Set<String> = []) async throws -> Scene {
        let parameters = request.queryPairs
        do {
            return try await FrameQuery.scene(from: parameters, others: others, catalog: configuration.catalog) {
                try await self.storedRoute(id: $0)?.line
            }
        } catch let error as FrameRequestError {
            throw HTTPProblem(error)
        }
    }

    /// The departure board a `/departures.png` query describes (`DeparturesQuery`), read on the
    /// bodies' threads: finding a stop's departures reads `stop_times.txt` and the realtime files.
    func departuresScene(_ request: Request, others: Set<String> = []) async throws -> Scene {
        let parameters = request.queryPairs, catalog = configuration.catalog
        let (feeds, realtime) = (configuration.transitFeeds, configuration.transitRealtime)
        return try await bodyWork.run { () throws -> Scene in
            do {
                return try DeparturesQuery.scene(from: parameters, others: others, catalog: catalog, feeds: feeds, realtime: realtime, now: Date())
            } catch let error as FrameRequestError {
                throw HTTPProblem(error)
            }
        }
    }

    func storedRoute(id: String) async throws -> StoredRoute? {
        do {
            return try await routes.route(id: id)
        } catch {
            throw cannotRead("route '\(id)' cannot be read", error)
        }
    }

    private func tileAddress(_ context: MapRequestContext, scheme: TileAddress.Scheme = .xyz) throws -> TileAddress {
        try TileAddress(
            style: context.parameters.get("style") ?? "", z: context.parameters.get("z") ?? "",
            x: context.parameters.get("x") ?? "", y: context.parameters.get("y") ?? "", catalog: configuration.catalog, scheme: scheme
        )
    }

    /// A base tile as the router answers it, with the headers and errors the fast path gives.
    private func baseTileResponse(_ address: TileAddress, request: Request) async throws -> Response {
        switch await tiles.baseTileAnswer(address) {
        case .image(let image): return imageResponse(image, request: request)
        case .problem(let problem): throw problem
        }
    }

    /// The theme a route layer's tiles are drawn in: `?theme=`, the only parameter they take.
    private static func routeTileTheme(_ request: Request) throws -> Theme.Name {
        let query = request.uri.queryParameters
        for (name, _) in query where name != "theme" {
            throw HTTPProblem.badRequest("\(name): unknown parameter; the only parameter allowed is theme")
        }
        do {
            return try FrameQuery.themeName(query["theme"].map(String.init))
        } catch {
            throw HTTPProblem(error)
        }
    }

    /// The style named by a `<style>.json` path component.
    private func source(jsonFile: String) throws -> TileSource {
        guard jsonFile.hasSuffix(".json") else { throw HTTPProblem.notFound("'\(jsonFile)' is not a TileJSON document") }
        let name = String(jsonFile.dropLast(5))
        guard let source = configuration.catalog[name] else { throw HTTPProblem.notFound("style '\(name)' is not known") }
        return source
    }

    /// The image as an answer (see `EncodedImage.responseHead`).
    private func imageResponse(_ image: EncodedImage, request: Request) -> Response {
        let (status, headers) = image.responseHead(ifNoneMatch: request.headers[values: .ifNoneMatch])
        guard status == .ok else { return Response(status: status, headers: headers) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: image.body))
    }

    private func metrics() -> Response {
        var text: [UInt8] = []
        MapServerApp.metricsRegistry.emit(into: &text)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
        )
    }
}

/// Writes the caches' last-use times and metadata every few seconds while the server runs, and
/// looks at whether storage can be used, so that the log tells of a change within seconds.
struct PeriodicFlush: Service {
    let tiles: TileService
    let storageHealth: StorageHealth

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            // The wait ends at graceful shutdown, so that SIGTERM does not wait up to 5 s for it.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(5)) }
            await tiles.flushStores()
            await storageHealth.lookAtStorage()
            _ = await storageHealth.unavailableReason()
        }
    }
}

extension Request {
    /// The query's parameters as name and value, in the order given, repeats kept: what the
    /// frame readers of `FrameRequest` take.
    var queryPairs: [(String, String)] {
        uri.queryParameters.map { (String($0.key), String($0.value)) }
    }
}
