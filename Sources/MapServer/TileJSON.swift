import Foundation
import MapGeometry
import TileStore

/// TileJSON 3.0.0 documents, so that Leaflet, MapLibre and friends can find the tiles.
enum TileJSON {
    /// How long a client or shared cache may keep a TileJSON document, or any other describing
    /// the styles (WMTS capabilities, TMS tile maps): each changes only when the server is
    /// restarted with other styles.
    static let cacheControl = "public, max-age=300"

    /// The whole Web Mercator world.
    static let worldBounds = [-180.0, -WebMercator.maxInputLatitude, 180.0, WebMercator.maxInputLatitude]

    static func document(for source: TileSource, tileURL: String, name: String, bounds: GeoBounds?, centerZoom: Int?) -> [String: Any] {
        var document: [String: Any] = [
            "tilejson": "3.0.0",
            "name": name,
            "attribution": source.attributionLine,
            "tiles": [tileURL],
            "minzoom": source.tileSet.zoomRange.min,
            "maxzoom": source.tileSet.zoomRange.max,
            "scheme": "xyz",
            "bounds": bounds.map { [$0.west, $0.south, $0.east, $0.north] } ?? worldBounds,
        ]
        if let bounds, let centerZoom {
            document["center"] = [bounds.center.longitude, bounds.center.latitude, Double(centerZoom)]
        }
        return document
    }
}

extension TileSource {
    /// The attribution on one line, its lines joined by "; ", as the documents describing a style
    /// (TileJSON, WMTS capabilities, TMS tile maps) carry it.
    var attributionLine: String {
        tileSet.attribution.replacingOccurrences(of: "\n", with: "; ")
    }
}
