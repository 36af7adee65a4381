import Foundation
import MapGeometry
import Metrics
import TileStore

/// The server's own measurements, exported at /metrics beside the request counts. Every metric
/// is made once: looking one up in the registry for each request would cost more than serving
/// a cached tile. Tile results, upstream fetches and the cache's availability carry the cache
/// backend (`mbtiles` or `postgres`) as a dimension, so instances of either kind compare.
struct ServerMetrics: Sendable {
    /// How tile requests were answered.
    enum TileResult: String, CaseIterable {
        /// From encoded tiles in memory.
        case hit
        case cached, fetched, revalidated, stale
        /// Expired, answered at once from the cache while it is revalidated in the background.
        case staleRevalidating = "stale-revalidating"
        /// As `staleRevalidating`, but too many revalidations were under way to begin one.
        case staleRevalidationSkipped = "stale-revalidation-skipped"
        /// Fetched while the cache was unavailable, and kept in memory only.
        case unstored
        /// Trying to get the tile failed: its fetch, or storing it (`MissingTile.Reason.isFailure`).
        case failed
        /// There was no tile to get: not cached while offline, or not on the upstream.
        case missing
        /// A grey tile was sent.
        case placeholder
    }

    private let tileResults: [TileResult: Counter]
    private let upstreamFetch: Timer
    private let render = Timer(label: "mapframe_render_seconds", preferredDisplayUnit: .seconds)
    /// 1 while the cache answers, 0 while it is unavailable (a shared database that is down).
    private let cacheAvailable: Gauge

    init(backend: CacheBackendKind) {
        let dimension = ("backend", backend.rawValue)
        tileResults = Dictionary(uniqueKeysWithValues: TileResult.allCases.map {
            ($0, Counter(label: "mapframe_tile_cache_total", dimensions: [("result", $0.rawValue), dimension]))
        })
        upstreamFetch = Timer(label: "mapframe_upstream_fetch_seconds", dimensions: [dimension], preferredDisplayUnit: .seconds)
        cacheAvailable = Gauge(label: "mapframe_cache_available", dimensions: [dimension])
        cacheAvailable.record(1)
    }

    /// Records whether the cache answers now.
    func cacheAvailable(_ available: Bool) {
        cacheAvailable.record(available ? 1 : 0)
    }

    func count(_ result: TileResult) {
        tileResults[result]?.increment()
    }

    /// Counts a fill, and times it when it went to the upstream.
    func record(_ fill: TileFill, took duration: Duration) {
        switch fill {
        case .cached: count(.cached)
        case .fetched: count(.fetched)
        case .revalidated: count(.revalidated)
        case .stale: count(.stale)
        case .staleRevalidating: count(.staleRevalidating)
        case .staleRevalidationSkipped: count(.staleRevalidationSkipped)
        case .unstored: count(.unstored)
        case .missing(let tile) where tile.reason.isFailure: count(.failed)
        case .missing: count(.missing)
        }
        switch fill {
        case .fetched, .revalidated, .unstored: upstreamFetch.record(duration: duration)
        case .cached, .stale, .staleRevalidating, .staleRevalidationSkipped, .missing: break
        }
    }

    func renderDuration(_ duration: Duration) {
        render.record(duration: duration)
    }
}
