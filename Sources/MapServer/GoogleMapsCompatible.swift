import MapGeometry
import TileStore

/// The grid `/tiles` serves, as OGC names it: the GoogleMapsCompatible well-known scale set
/// (WMTS 1.0.0, OGC 07-057r7 annex E.4). Spherical Web Mercator (EPSG:3857) on 256 px tiles:
/// one tile covers the world at zoom 0, and each zoom doubles the tiles a side. WMTS
/// capabilities and TMS tile maps describe it in their own words; the numbers live here.
enum GoogleMapsCompatible {
    /// The tile matrix set's identifier in WMTS capabilities.
    static let identifier = "GoogleMapsCompatible"
    static let wellKnownScaleSet = "urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible"
    /// EPSG:3857 as WMTS writes a CRS.
    static let crs = "urn:ogc:def:crs:EPSG::3857"
    /// EPSG:3857 as TMS writes it.
    static let srs = "EPSG:3857"

    /// The side of a tile in pixels: every tile `/tiles/{style}/{z}/{x}/{y}.png` serves, whatever
    /// the size of the source's own tiles.
    static let tileSize = TileSource.standardTileSize

    /// Ground metres a pixel covers at the equator at `zoom`: TMS's units-per-pixel, and
    /// 156543.03392804097 at zoom 0.
    static func metresPerPixel(zoom: Int) -> Double {
        WebMercator.equatorMetresPerPixelAtZoom0 / Double(TileID.tilesPerSide(zoom: zoom))
    }

    /// The side of WMTS's standardised rendering pixel, in metres (0.28 mm, OGC 07-057r7 6.1).
    private static let standardPixelSize = 0.00028

    /// The scale denominator WMTS gives `zoom`: 559082264.0287178 at zoom 0.
    static func scaleDenominator(zoom: Int) -> Double {
        metresPerPixel(zoom: zoom) / standardPixelSize
    }
}
