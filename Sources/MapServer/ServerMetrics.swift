import Foundation
import Metrics
import TileStore

/// The server's own measurements, exported at /metrics beside Hummingbird's request counts.
struct ServerMetrics: Sendable {
    /// Counts a tile answer: hit (memory), cached, fetched, revalidated, stale, missing or placeholder.
    func tileResult(_ result: String) {
        Counter(label: "mapframe_tile_cache_total", dimensions: [("result", result)]).increment()
    }

    func record(_ fill: TileFill) {
        switch fill {
        case .cached: tileResult("cached")
        case .fetched: tileResult("fetched")
        case .revalidated: tileResult("revalidated")
        case .stale: tileResult("stale")
        case .missing: tileResult("missing")
        }
    }

    func upstreamDuration(since start: Date) {
        Timer(label: "mapframe_upstream_fetch_seconds", preferredDisplayUnit: .seconds)
            .recordSeconds(Date().timeIntervalSince(start))
    }

    func renderDuration(since start: Date) {
        Timer(label: "mapframe_render_seconds", preferredDisplayUnit: .seconds)
            .recordSeconds(Date().timeIntervalSince(start))
    }
}
