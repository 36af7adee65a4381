import Foundation

/// Which of a tile source's tiles draw the map at each zoom.
///
/// Map zooms count as 256 px tiles do (`WebMercator.tileSize`): at zoom z the world is 256 x 2^z
/// pixels across. A source of 256 px tiles draws zoom z from its tiles of zoom z. A source of
/// 512 px tiles draws it from its tiles of zoom z - 1, each covering the ground of four 256 px
/// tiles of zoom z with as many pixels, as Leaflet's `tileSize: 512, zoomOffset: -1` and
/// MapLibre's raster `tileSize: 512` do.
public struct TileGrid: Hashable, Sendable {
    /// The side of one tile in pixels: 256 times a power of two.
    public let tileSize: Int
    /// The map zooms the source is drawn at.
    public let zoomRange: ZoomRange

    public init(tileSize: Int, zoomRange: ZoomRange) {
        let base = Int(WebMercator.tileSize)
        precondition(tileSize % base == 0 && (tileSize / base).nonzeroBitCount == 1, "tile size \(tileSize) is not 256 times a power of two")
        self.tileSize = tileSize
        self.zoomRange = zoomRange
    }

    /// How many zooms shallower the tiles are than the map they draw: 0 for 256 px, 1 for 512 px.
    public var zoomOffset: Int { (tileSize / Int(WebMercator.tileSize)).trailingZeroBitCount }

    /// The zooms of the tiles the source is asked for: the map's, less the offset, from 0.
    public var tileZoomRange: ZoomRange {
        ZoomRange(min: max(0, zoomRange.min - zoomOffset), max: max(0, zoomRange.max - zoomOffset))
    }

    /// The tile zoom whose pixels are nearest to device pixels at `deviceZoom` without being
    /// coarser: the deepest whole one not beyond it, within the source's tiles.
    public func tileZoom(forDeviceZoom deviceZoom: Double) -> Int {
        let wanted = Int((deviceZoom + 1e-9).rounded(.down)) - zoomOffset
        return min(max(wanted, tileZoomRange.min), tileZoomRange.max)
    }
}
