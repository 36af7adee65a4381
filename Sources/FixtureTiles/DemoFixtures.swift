import Foundation
import MapGeometry
import TileStore

/// The fixture area behind the demo and the golden tests: central Cambridge at zoom 12-17,
/// and zoom 18 around the example route. About 1,200 tiles a style, built in about a second.
public enum DemoFixtures {
    public static let areas: [(bounds: GeoBounds, zoomLevels: ClosedRange<Int>)] = [
        (GeoBounds(south: 52.190, west: 0.100, north: 52.225, east: 0.190), 12...17),
        (GeoBounds(south: 52.203, west: 0.133, north: 52.211, east: 0.150), 18...18),
    ]

    /// The attribution written into fixture caches' metadata.
    public static let attribution = "MapFrame fixture tiles: a made-up town, not real map data"

    /// Builds the demo area's tiles for one style into an MBTiles file. Returns the tile count.
    @discardableResult
    public static func build(style: String, into path: String) throws -> Int {
        try areas.reduce(0) { count, area in
            try count + FixtureCacheBuilder(style: style, bounds: area.bounds, zoomLevels: area.zoomLevels)
                .build(into: path, attribution: attribution)
        }
    }

    /// Builds the demo area for every built-in style into `<style>.mbtiles` files in `directory`,
    /// creating it if needed: the cache directory the golden tests draw over.
    public static func buildCacheDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for style in StyleCatalog.builtin.names {
            try build(style: style, into: directory.appendingPathComponent(style + ".mbtiles").path)
        }
    }
}
