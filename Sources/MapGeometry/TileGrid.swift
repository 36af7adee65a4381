import Foundation

/// Which of a tile source's tiles draw the map at each zoom.
///
/// Map zooms count as 256 px tiles do (`WebMercator.tileSize`): at zoom z the world is 256 x 2^z
/// pixels across. A source of 256 px tiles draws zoom z from its tiles of zoom z. A source of
/// 512 px tiles draws it from its tiles of zoom z - 1, each covering the ground of four 256 px
/// tiles of zoom z with as many pixels, as Leaflet's `tileSize: 512, zoomOffset: -1` and
/// MapLibre's raster `tileSize: 512` do; 1024 px tiles, from zoom z - 2.
///
/// A source drawn from what a file holds alone may lack some zooms between its shallowest and
/// deepest (a file with zooms 10, 12 and 14 only): a frame that wants one of those is drawn from
/// the nearest shallower zoom held, its tiles scaled up (`ZoomStandIn`).
public struct TileGrid: Hashable, Sendable {
    /// The side of one tile in pixels: 256 times a power of two.
    public let tileSize: Int
    /// The map zooms the source is drawn at.
    public let zoomRange: ZoomRange
    /// The tile zooms the source holds, shallowest first, when it is drawn from them alone;
    /// empty when every zoom can be had.
    public let heldTileZooms: [Int]

    public init(tileSize: Int, zoomRange: ZoomRange, heldTileZooms: [Int] = []) {
        let base = Int(WebMercator.tileSize)
        precondition(tileSize % base == 0 && (tileSize / base).nonzeroBitCount == 1, "tile size \(tileSize) is not 256 times a power of two")
        self.tileSize = tileSize
        self.zoomRange = zoomRange
        self.heldTileZooms = Set(heldTileZooms).sorted()
    }

    /// How many zooms shallower the tiles are than the map they draw: 0 for 256 px, 1 for 512 px.
    public var zoomOffset: Int { (tileSize / Int(WebMercator.tileSize)).trailingZeroBitCount }

    /// The zooms of the tiles the source is asked for: the map's, less the offset, from 0.
    public var tileZoomRange: ZoomRange {
        ZoomRange(min: max(0, zoomRange.min - zoomOffset), max: max(0, zoomRange.max - zoomOffset))
    }

    /// The tile zoom a frame at `deviceZoom` is drawn from: the one it wants
    /// (`wantedTileZoom(forDeviceZoom:)`), or, where the source lacks that one but holds a deeper
    /// zoom, the nearest shallower zoom it holds.
    public func tileZoom(forDeviceZoom deviceZoom: Double) -> Int {
        standIn(forDeviceZoom: deviceZoom)?.drawn ?? wantedTileZoom(forDeviceZoom: deviceZoom)
    }

    /// The tile zoom whose pixels are nearest to device pixels at `deviceZoom` without being
    /// coarser: the deepest whole one not beyond it, within the source's tiles.
    public func wantedTileZoom(forDeviceZoom deviceZoom: Double) -> Int {
        let wanted = Int((deviceZoom + 1e-9).rounded(.down)) - zoomOffset
        return min(max(wanted, tileZoomRange.min), tileZoomRange.max)
    }

    /// The shallower zoom a frame at `deviceZoom` is drawn from, when the source lacks the zoom
    /// it wants between two it holds; nil when it is drawn from the zoom it wants. Nothing
    /// stands in deeper than the deepest zoom held, nor shallower than the shallowest: the tiles
    /// wanted there are missing.
    public func standIn(forDeviceZoom deviceZoom: Double) -> ZoomStandIn? {
        let wanted = wantedTileZoom(forDeviceZoom: deviceZoom)
        guard let deepest = heldTileZooms.last, wanted < deepest, !heldTileZooms.contains(wanted),
              let nearest = heldTileZooms.last(where: { $0 < wanted })
        else { return nil }
        return ZoomStandIn(wanted: wanted, drawn: nearest)
    }
}

/// A frame drawn from tiles of a shallower zoom than it wants, scaled up, because the source
/// holds none of the zoom it wants: both are tile zooms, as the source numbers its tiles.
public struct ZoomStandIn: Hashable, Sendable, CustomStringConvertible {
    public var wanted: Int
    public var drawn: Int

    public init(wanted: Int, drawn: Int) {
        precondition(drawn < wanted, "a stand-in zoom is shallower than the one wanted")
        self.wanted = wanted
        self.drawn = drawn
    }

    /// How many times the drawn tiles are enlarged: 2 for one zoom shallower.
    public var scale: Int { 1 << (wanted - drawn) }

    /// "no zoom 13 tiles: drawn from zoom 12, scaled up 2x".
    public var description: String { "no zoom \(wanted) tiles: drawn from zoom \(drawn), scaled up \(scale)x" }
}
