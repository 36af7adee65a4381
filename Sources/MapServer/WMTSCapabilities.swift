import MapGeometry
import TileStore

/// The WMTS 1.0.0 capabilities document (OGC 07-057r7), RESTful, for QGIS, ArcGIS, GDAL,
/// OpenLayers and other GIS clients: one layer a style, each in the GoogleMapsCompatible tile
/// matrix set, whose tile template is the style's own `/tiles/{style}/{z}/{x}/{y}.png`. So WMTS
/// clients get the very tiles, headers and errors XYZ clients get, through the same fast path.
///
/// The set holds a matrix for every zoom from 0 to the deepest any style reaches, and each
/// layer's `TileMatrixSetLimits` names the zooms its style has. There is no
/// `OperationsMetadata`: a RESTful-only service leaves it out, and clients then use the templates.
enum WMTSCapabilities {
    static let path = "/wmts/1.0.0/WMTSCapabilities.xml"

    /// The document for `catalog`'s styles, every URL in it starting with `base` (`PublicURLs`).
    static func document(catalog: StyleCatalog, base: String) -> String {
        let sources = catalog.names.compactMap { catalog[$0] }
        var xml = XMLWriter()
        xml.element("Capabilities", [
            "xmlns": "http://www.opengis.net/wmts/1.0",
            "xmlns:ows": "http://www.opengis.net/ows/1.1",
            "xmlns:xlink": "http://www.w3.org/1999/xlink",
            "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
            "xsi:schemaLocation": "http://www.opengis.net/wmts/1.0 http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd",
            "version": "1.0.0",
        ]) { xml in
            xml.element("ows:ServiceIdentification") { xml in
                xml.element("ows:Title", text: "MapFrame")
                xml.element("ows:ServiceType", text: "OGC WMTS")
                xml.element("ows:ServiceTypeVersion", text: "1.0.0")
            }
            xml.element("Contents") { xml in
                for source in sources { layer(source, base: base, into: &xml) }
                tileMatrixSet(deepestZoom: sources.map(\.tileSet.zoomRange.max).max() ?? 0, into: &xml)
            }
            xml.element("ServiceMetadataURL", ["xlink:href": base + path])
        }
        return xml.text
    }

    /// A style as a layer: its title, attribution (as the abstract), bounds, zooms and template.
    private static func layer(_ source: TileSource, base: String, into xml: inout XMLWriter) {
        xml.element("Layer") { xml in
            xml.element("ows:Title", text: source.title)
            xml.element("ows:Abstract", text: source.attributionLine)
            let world = TileJSON.worldBounds
            xml.element("ows:WGS84BoundingBox") { xml in
                xml.element("ows:LowerCorner", text: "\(world[0]) \(world[1])")
                xml.element("ows:UpperCorner", text: "\(world[2]) \(world[3])")
            }
            xml.element("ows:Identifier", text: source.name)
            xml.element("Style", ["isDefault": "true"]) { xml in
                xml.element("ows:Identifier", text: "default")
            }
            xml.element("Format", text: "image/png")
            xml.element("TileMatrixSetLink") { xml in
                xml.element("TileMatrixSet", text: GoogleMapsCompatible.identifier)
                xml.element("TileMatrixSetLimits") { xml in
                    let zooms = source.tileSet.zoomRange
                    for zoom in zooms.min...zooms.max {
                        let last = String(TileID.tilesPerSide(zoom: zoom) - 1)
                        xml.element("TileMatrixLimits") { xml in
                            xml.element("TileMatrix", text: String(zoom))
                            xml.element("MinTileRow", text: "0")
                            xml.element("MaxTileRow", text: last)
                            xml.element("MinTileCol", text: "0")
                            xml.element("MaxTileCol", text: last)
                        }
                    }
                }
            }
            xml.element("ResourceURL", [
                "format": "image/png", "resourceType": "tile",
                "template": base + "/tiles/\(source.name)/{TileMatrix}/{TileCol}/{TileRow}.png",
            ])
        }
    }

    /// GoogleMapsCompatible from zoom 0 to `deepestZoom`.
    private static func tileMatrixSet(deepestZoom: Int, into xml: inout XMLWriter) {
        xml.element("TileMatrixSet") { xml in
            xml.element("ows:Identifier", text: GoogleMapsCompatible.identifier)
            xml.element("ows:SupportedCRS", text: GoogleMapsCompatible.crs)
            xml.element("WellKnownScaleSet", text: GoogleMapsCompatible.wellKnownScaleSet)
            let corner = WebMercator.halfWorldMetres
            for zoom in 0...deepestZoom {
                let side = String(TileID.tilesPerSide(zoom: zoom))
                xml.element("TileMatrix") { xml in
                    xml.element("ows:Identifier", text: String(zoom))
                    xml.element("ScaleDenominator", text: "\(GoogleMapsCompatible.scaleDenominator(zoom: zoom))")
                    xml.element("TopLeftCorner", text: "\(-corner) \(corner)")
                    xml.element("TileWidth", text: String(GoogleMapsCompatible.tileSize))
                    xml.element("TileHeight", text: String(GoogleMapsCompatible.tileSize))
                    xml.element("MatrixWidth", text: side)
                    xml.element("MatrixHeight", text: side)
                }
            }
        }
    }

    /// The OGC parameters a client may add to the capabilities' URL, by lower-cased name, with
    /// the one value each may ask for. OWSLib adds `service=WMTS&request=GetCapabilities&version=1.0.0`.
    private static let offeredParameters = ["service": "WMTS", "request": "GetCapabilities", "version": "1.0.0", "acceptversions": "1.0.0"]

    /// Checks the OGC parameters given, their names and values in any case: 400 naming one that
    /// asks for something else. Other parameters are left alone, as on TileJSON.
    static func checkQuery(_ parameters: [(String, String)]) throws(HTTPProblem) {
        for (name, value) in parameters {
            guard let offered = offeredParameters[name.lowercased()] else { continue }
            // AcceptVersions lists every version the client takes.
            let asked = name.lowercased() == "acceptversions" ? value.split(separator: ",").map(String.init) : [value]
            guard asked.contains(where: { $0.lowercased() == offered.lowercased() }) else {
                throw .badRequest("\(name): '\(value.prefix(40))' is not offered; allowed: \(offered)")
            }
        }
    }
}
