import Foundation
import FramePipeline
import GTFS
import Logging
import Payloads
import RouteStore
import TileStore

/// Everything `mapframe serve` is told.
public struct MapServerConfiguration: Sendable {
    /// What to answer for a base tile that is neither cached nor fetchable.
    public enum MissingTileAnswer: String, Sendable {
        /// A grey tile with `Cache-Control: no-store` and `X-MapFrame-Placeholder: true`.
        case placeholder
        /// 404 with a JSON error.
        case notFound = "404"
    }

    public var host: String
    public var port: Int
    /// Where the tiles live: a directory of `<style>.mbtiles` files, a PostgreSQL database shared
    /// with other instances, or a PMTiles archive only read (never a single MBTiles file).
    public var cacheLocation: CacheLocation
    /// Where stored routes live: a directory's `routes.sqlite` or the database; the cache
    /// location unless that is an archive, which has no place for them.
    public var routeLocation: CacheLocation
    public var catalog: StyleCatalog
    /// The upstream; nil serves only what is cached.
    public var fetchPolicy: FetchPolicy?
    public var userAgentOverridden: Bool
    public var cacheCapacity: CacheCapacity?
    public var missingTileAnswer: MissingTileAnswer
    /// Threads that render frames and composited tiles.
    public var renderThreads: Int
    /// Render jobs that may wait for a thread; beyond this the server answers 503.
    public var renderQueueLimit: Int
    /// The largest request body accepted (routes, scenes).
    public var maxBodyBytes: Int
    /// The longest a request waits for the upstream: past it, a tile is answered stale or grey,
    /// and a frame is drawn with what is cached, while the fetch goes on to fill the cache.
    public var upstreamWait: Duration
    /// Seconds past its expiry during which a base tile is answered at once from the cache while
    /// it is revalidated in the background (`TileStore.tile(_:staleWhileRevalidate:)`), and what
    /// its answers' `stale-while-revalidate` directive offers other caches; 0 waits for the
    /// revalidation. Frames, and tiles drawn from other tiles, always wait.
    public var staleWhileRevalidate: TimeInterval
    /// A day: a tile expired for longer is waited for.
    public static let defaultStaleWhileRevalidate: TimeInterval = 86_400
    /// Timeouts for slow clients, and how many connections are served at once.
    public var connectionLimits: ConnectionLimits
    /// The bearer token route writes need; nil for none (see `anonymousWritesAllowed`).
    public var writeToken: String?
    /// Whether a server on a non-loopback address with no token takes writes from anyone.
    public var anonymousWritesAllowed: Bool
    /// Route writes each client may make.
    public var writeRateLimit: WriteRateLimit
    /// How many routes and points the route store holds at most.
    public var routeQuota: RouteQuota
    /// The base of the absolute URLs the server writes, such as "https://maps.example.org";
    /// nil to use the Host each request names.
    public var publicURL: String?
    /// Whether `/healthz` says in full why the cache is unavailable (its address and the
    /// database's error) rather than only "cache unavailable": for a health check that only
    /// operators can reach. The log has the full reason either way.
    public var healthDetails: Bool
    /// Where Leaflet's files are (Debian's libjs-leaflet).
    public var leafletDirectory: String
    /// Seconds a tile is answered from memory before it is read from its cache again: so the
    /// max-age it is sent with counts down with its freshness, and changes to the cache file
    /// (a `mapframe seed`, say) are seen.
    public var memoryLifetime: TimeInterval
    /// GTFS feeds loaded at start-up (`serve --gtfs NAME=PATH`), by name: a scene posted to
    /// `/frame` names its transit feed by one of these names, never by a path.
    public var transitFeeds: [String: GTFSFeed]
    /// The GTFS-realtime files read afresh for every frame drawn from a loaded feed
    /// (`serve --gtfs-realtime NAME=PATH`), by the feed's name: files another program rewrites
    /// as its agency publishes them.
    public var transitRealtime: [String: [URL]]
    /// Where the server logs: a line per request at `info`, and what goes wrong. By default only
    /// warnings and worse, as text; `mapframe serve` sets it from `--log-level` and `--log-format`.
    public var logger: Logger
    /// Where the line per request goes; nil writes none. `mapframe serve` opens it from
    /// `--access-log` when `--log-level` is info or more talkative.
    public var accessLog: AccessLog?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, cacheLocation: CacheLocation, routeLocation: CacheLocation? = nil, catalog: StyleCatalog = .builtin,
        fetchPolicy: FetchPolicy? = FetchPolicy(), userAgentOverridden: Bool = false, cacheCapacity: CacheCapacity? = nil,
        missingTileAnswer: MissingTileAnswer = .placeholder, renderThreads: Int = FramePipeline.defaultRenderThreads, renderQueueLimit: Int = FramePipeline.defaultRenderQueueLimit,
        maxBodyBytes: Int = PayloadLimits.defaultMaxBytes, upstreamWait: Duration = .seconds(15),
        staleWhileRevalidate: TimeInterval = MapServerConfiguration.defaultStaleWhileRevalidate, connectionLimits: ConnectionLimits = ConnectionLimits(), writeToken: String? = nil,
        anonymousWritesAllowed: Bool = false, writeRateLimit: WriteRateLimit = WriteRateLimit(), routeQuota: RouteQuota = RouteQuota(),
        publicURL: String? = nil, healthDetails: Bool = false, leafletDirectory: String = "/usr/share/javascript/leaflet",
        memoryLifetime: TimeInterval = 60, transitFeeds: [String: GTFSFeed] = [:], transitRealtime: [String: [URL]] = [:],
        logger: Logger = .mapFrameServer(level: .warning, format: .text), accessLog: AccessLog? = nil
    ) {
        self.host = host
        self.port = port
        self.cacheLocation = cacheLocation
        self.routeLocation = routeLocation ?? cacheLocation
        self.catalog = catalog
        self.fetchPolicy = fetchPolicy
        self.userAgentOverridden = userAgentOverridden
        self.cacheCapacity = cacheCapacity
        self.missingTileAnswer = missingTileAnswer
        self.renderThreads = renderThreads
        self.renderQueueLimit = renderQueueLimit
        self.maxBodyBytes = maxBodyBytes
        self.upstreamWait = upstreamWait
        self.staleWhileRevalidate = staleWhileRevalidate
        self.connectionLimits = connectionLimits
        self.writeToken = writeToken
        self.anonymousWritesAllowed = anonymousWritesAllowed
        self.writeRateLimit = writeRateLimit
        self.routeQuota = routeQuota
        self.publicURL = publicURL
        self.healthDetails = healthDetails
        self.leafletDirectory = leafletDirectory
        self.memoryLifetime = memoryLifetime
        self.transitFeeds = transitFeeds
        self.transitRealtime = transitRealtime
        self.logger = logger
        self.accessLog = accessLog
    }
}

/// Route writes one client may make: `burst` at once, then `perMinute` a minute.
public struct WriteRateLimit: Hashable, Sendable {
    public var perMinute: Int
    public var burst: Int

    public init(perMinute: Int = 60, burst: Int = 20) {
        self.perMinute = perMinute
        self.burst = burst
    }
}
