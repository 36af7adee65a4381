import MapGeometry
import TileStore

/// The Tile Map Service 1.0.0 documents (OSGeo's TMS specification): the service, listing a tile
/// map a style, and each style's tile map, whose tile sets are its zooms. Tiles are at
/// `{tile set}/{x}/{y}.png`, rows counted from the south (`TileAddress.Scheme.tms`), and are the
/// tiles `/tiles` serves. The grid is GoogleMapsCompatible, which TMS calls the `mercator` profile
/// as gdal2tiles writes it: one tile at zoom 0. (The specification's `global-mercator` profile
/// numbers its zooms from a 2x2 level, which these are not.)
enum TMSDocuments {
    static let path = "/tms/1.0.0"
    static let profile = "mercator"

    /// `GET /tms/1.0.0`: every style as a tile map, its URL starting with `base` (`PublicURLs`).
    static func tileMapService(catalog: StyleCatalog, base: String) -> String {
        var xml = XMLWriter()
        xml.element("TileMapService", ["version": "1.0.0"]) { xml in
            xml.element("Title", text: "MapFrame")
            xml.element("Abstract", text: "The styles this MapFrame server serves")
            xml.element("TileMaps") { xml in
                for source in catalog.names.compactMap({ catalog[$0] }) {
                    xml.element("TileMap", [
                        "title": source.title, "srs": GoogleMapsCompatible.srs, "profile": profile, "href": base + path + "/" + source.name,
                    ])
                }
            }
        }
        return xml.text
    }

    /// `GET /tms/1.0.0/{style}`: the style's grid, tile format and zooms.
    static func tileMap(_ source: TileSource, base: String) -> String {
        let corner = WebMercator.halfWorldMetres
        let size = String(GoogleMapsCompatible.tileSize)
        var xml = XMLWriter()
        xml.element("TileMap", ["version": "1.0.0", "tilemapservice": base + path]) { xml in
            xml.element("Title", text: source.title)
            xml.element("Attribution") { xml in
                xml.element("Title", text: source.attributionLine)
            }
            xml.element("SRS", text: GoogleMapsCompatible.srs)
            xml.element("BoundingBox", ["minx": "\(-corner)", "miny": "\(-corner)", "maxx": "\(corner)", "maxy": "\(corner)"])
            xml.element("Origin", ["x": "\(-corner)", "y": "\(-corner)"])
            xml.element("TileFormat", ["width": size, "height": size, "mime-type": "image/png", "extension": "png"])
            xml.element("TileSets", ["profile": profile]) { xml in
                let zooms = source.tileSet.zoomRange
                for zoom in zooms.min...zooms.max {
                    xml.element("TileSet", [
                        "href": base + path + "/\(source.name)/\(zoom)",
                        "units-per-pixel": "\(GoogleMapsCompatible.metresPerPixel(zoom: zoom))",
                        "order": String(zoom),
                    ])
                }
            }
        }
        return xml.text
    }
}
