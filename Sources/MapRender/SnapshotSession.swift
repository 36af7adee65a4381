import Foundation
import ImageCodec
import MapGeometry
import TileStore

/// Renders scene files against MBTiles caches, reusing open caches, decoded tiles and marker
/// sprites across frames. The CLI's `snapshot` and `goldens` commands both render through it.
public final class SnapshotSession {
    public let catalog: StyleCatalog
    public let cacheLocation: CacheLocation
    private let renderer = FrameRenderer()
    private let decodedTiles = LRUCache<DecodedTileKey, RasterImage>(capacity: TileStore.defaultMemoryCapacity)
    private var stores: [String: TileStore] = [:]

    public init(catalog: StyleCatalog, cacheLocation: CacheLocation) {
        self.catalog = catalog
        self.cacheLocation = cacheLocation
    }

    /// The tile store for a style, opening its cache on first use.
    public func store(for source: TileSource) throws(CacheError) -> TileStore {
        if let store = stores[source.name] { return store }
        let path = cacheLocation.path(for: source.name)
        let store = TileStore(source: source, cache: try MBTilesCache(openingExisting: path), decodedTiles: decodedTiles)
        stores[source.name] = store
        return store
    }

    /// Renders a parsed scene.
    public func render(_ scene: Scene) throws(CacheError) -> RenderedFrame {
        guard let source = catalog[scene.style] else {
            preconditionFailure("scene style \(scene.style) was checked against the catalogue when parsed")
        }
        return renderer.render(scene, source: source, tiles: try store(for: source))
    }
}
