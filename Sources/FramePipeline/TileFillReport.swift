import MapGeometry
import TileStore

/// How a frame's (or a seed's) tiles were come by. Each tile counts once, so the counts add up
/// to the tiles: `failed` only when trying to get a tile failed (its fetch, or storing it), and
/// `missing` when there was nothing to get (not cached while offline, not on the upstream, or
/// unreadable or undecodable in the cache: a NULL or empty `tile_data`, say). A frame drawn
/// from a shallower zoom than it wants, because its cache file lacks that zoom, says so.
public struct TileFillReport: Sendable, Equatable, CustomStringConvertible {
    public var cached = 0
    public var fetched = 0
    public var revalidated = 0
    public var stale = 0
    public var failed = 0
    public var missing = 0
    /// The zoom the frame's tiles were drawn from, scaled up, in place of the one it wants.
    public var zoomStandIn: ZoomStandIn?

    public init() {}

    /// The report of a drawn frame: each tile by how it was drawn. A tile drawn from the cache
    /// counts by its fill, or as cached when its fill came to nothing (a fetch that gave up
    /// waiting, while the tile was in the cache by the time it was drawn); a tile drawn grey
    /// counts by why it is missing, whatever its fill said.
    public init(fills: [TileID: TileFill], drawnGrey: [MissingTile], zoomStandIn: ZoomStandIn? = nil) {
        self.zoomStandIn = zoomStandIn
        let grey = Dictionary(drawnGrey.map { ($0.tile, $0) }, uniquingKeysWith: { first, _ in first })
        for (tile, fill) in fills {
            if let missing = grey[tile] {
                count(.missing(missing))
            } else if case .missing = fill {
                count(.cached)
            } else {
                count(fill)
            }
        }
    }

    /// "2 cached, 3 fetched, 1 revalidated, 0 stale, 0 failed, 1 missing", as the commands report
    /// it, and "; no zoom 13 tiles: drawn from zoom 12, scaled up 2x" after, where so.
    public var description: String {
        let counts = "\(cached) cached, \(fetched) fetched, \(revalidated) revalidated, \(stale) stale, \(failed) failed, \(missing) missing"
        return zoomStandIn.map { "\(counts); \($0)" } ?? counts
    }

    public mutating func count(_ fill: TileFill) {
        switch fill {
        case .cached: cached += 1
        case .fetched: fetched += 1
        case .revalidated: revalidated += 1
        case .stale, .staleRevalidating, .staleRevalidationSkipped: stale += 1
        // Fetched, but the cache was unavailable: storing it failed.
        case .unstored: failed += 1
        case .missing(let tile) where tile.reason.isFailure: failed += 1
        case .missing: missing += 1
        }
    }
}
