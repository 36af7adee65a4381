import Foundation
import ImageCodec
import MapGeometry
import TileStore

/// How a frame's (or a seed's) tiles were come by.
public struct TileFillReport: Sendable, Equatable, CustomStringConvertible {
    public var cached = 0
    public var fetched = 0
    public var revalidated = 0
    public var stale = 0
    public var failed = 0

    public init() {}

    /// "2 cached, 3 fetched, 1 revalidated, 0 stale, 0 failed", as the commands report it.
    public var description: String {
        "\(cached) cached, \(fetched) fetched, \(revalidated) revalidated, \(stale) stale, \(failed) failed"
    }

    public mutating func count(_ fill: TileFill) {
        switch fill {
        case .cached: cached += 1
        case .fetched: fetched += 1
        case .revalidated: revalidated += 1
        case .stale: stale += 1
        case .missing: failed += 1
        }
    }
}

extension RenderedFrame {
    /// The frame with each missing tile's reason taken from its fill where that says more
    /// (a failed fetch, a 404) than the renderer's "not cached".
    func explainingMissingTiles(with fills: [TileID: TileFill]) -> RenderedFrame {
        let missing = missingTiles.map { tile -> MissingTile in
            if case .missing(let reason)? = fills[tile.tile], tile.reason == .notCached { return reason }
            return tile
        }
        return RenderedFrame(canvas: canvas, geometry: geometry, tileCount: tileCount, missingTiles: missing)
    }
}

/// Renders scenes against MBTiles caches, filling them from the upstream unless offline, and
/// reusing open caches, decoded tiles and marker sprites across frames. The CLI's `snapshot`
/// and `goldens` commands both render through it.
public final class SnapshotSession {
    public let catalog: StyleCatalog
    public let cacheLocation: CacheLocation
    private let fetcher: TileFetcher?
    private let capacity: CacheCapacity?
    private let renderer = FrameRenderer()
    private let decodedTiles = LRUCache<DecodedTileKey, RasterImage>(capacity: TileStore.defaultMemoryCapacity)
    private var stores: [String: TileStore] = [:]

    /// - Parameter fetcher: the upstream; nil renders offline, from the caches alone.
    public init(catalog: StyleCatalog, cacheLocation: CacheLocation, fetcher: TileFetcher? = nil, capacity: CacheCapacity? = nil) {
        self.catalog = catalog
        self.cacheLocation = cacheLocation
        self.fetcher = fetcher
        self.capacity = capacity
    }

    /// The tile store for a style, opening its cache on first use. A style's file in a cache
    /// directory is created when tiles can be fetched; a file named with `--cache` must exist.
    public func store(for source: TileSource) throws(CacheError) -> TileStore {
        if let store = stores[source.name] { return store }
        let cache = try cacheLocation.openCache(for: source.name, writable: fetcher != nil)
        let store = TileStore(source: source, cache: cache, decodedTiles: decodedTiles, fetcher: fetcher, capacity: capacity)
        stores[source.name] = store
        return store
    }

    /// Renders a parsed scene, fetching the tiles it needs first unless offline.
    public func render(_ scene: Scene) throws(CacheError) -> (frame: RenderedFrame, fills: TileFillReport) {
        guard let source = catalog[scene.style] else {
            preconditionFailure("scene style \(scene.style) was checked against the catalogue when parsed")
        }
        let store = try store(for: source)
        var report = TileFillReport()
        let geometry = FrameRenderer.geometry(for: scene, source: source)
        let fills = store.fillAndWait(geometry.tilePlacements(in: source.zoomRange).map(\.tile))
        for fill in fills.values { report.count(fill) }
        let frame = renderer.render(scene, geometry: geometry, source: source, tiles: store)
        try store.flush()
        return (frame.explainingMissingTiles(with: fills), report)
    }
}
