import Foundation
import Metrics
import TileStore

/// The server's own measurements, exported at /metrics beside the request counts. Every metric
/// is made once: looking one up in the registry for each request would cost more than serving
/// a cached tile.
struct ServerMetrics: Sendable {
    /// How tile requests were answered.
    enum TileResult: String, CaseIterable {
        /// From encoded tiles in memory.
        case hit
        case cached, fetched, revalidated, stale
        /// Trying to get the tile failed: its fetch, or storing it (`MissingTile.Reason.isFailure`).
        case failed
        /// There was no tile to get: not cached while offline, or not on the upstream.
        case missing
        /// A grey tile was sent.
        case placeholder
    }

    private let tileResults: [TileResult: Counter] = Dictionary(uniqueKeysWithValues: TileResult.allCases.map {
        ($0, Counter(label: "mapframe_tile_cache_total", dimensions: [("result", $0.rawValue)]))
    })
    private let upstreamFetch = Timer(label: "mapframe_upstream_fetch_seconds", preferredDisplayUnit: .seconds)
    private let render = Timer(label: "mapframe_render_seconds", preferredDisplayUnit: .seconds)

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
        case .missing(let tile) where tile.reason.isFailure: count(.failed)
        case .missing: count(.missing)
        }
        if fill == .fetched || fill == .revalidated { upstreamFetch.record(duration: duration) }
    }

    func renderDuration(_ duration: Duration) {
        render.record(duration: duration)
    }
}
