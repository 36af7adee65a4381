import MapGeometry

/// A rectangle of tiles at one zoom: the columns and rows it spans, both ranges inclusive, rows
/// counted from the north as `TileID` counts them. How an expire list names tiles, and how a
/// cache marks them: by range, never one tile at a time, so that zoom 0 marked down to zoom 19
/// is one block a zoom, not a trillion tiles.
public struct TileBlock: Hashable, Sendable {
    public let zoom: Int
    public let columns: ClosedRange<Int>
    public let rows: ClosedRange<Int>

    public init(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        self.zoom = zoom
        self.columns = columns
        self.rows = rows
    }

    /// The block of one tile.
    public init(_ tile: TileID) {
        self.init(zoom: tile.z, columns: tile.x...tile.x, rows: tile.y...tile.y)
    }

    /// The same area at a zoom as deep or deeper: every descendant of every tile.
    public func covering(atZoom deeper: Int) -> TileBlock {
        precondition(deeper >= zoom && deeper <= TileID.maxZoom, "zoom \(deeper) is not between \(zoom) and \(TileID.maxZoom)")
        let shift = deeper - zoom
        func widened(_ range: ClosedRange<Int>) -> ClosedRange<Int> {
            (range.lowerBound << shift)...(((range.upperBound + 1) << shift) - 1)
        }
        return TileBlock(zoom: deeper, columns: widened(columns), rows: widened(rows))
    }

    /// The block, then the area it covers at each deeper zoom through `deepest`: one block a
    /// zoom. Empty when `deepest` is shallower than the block.
    public func withDescendants(through deepest: Int) -> [TileBlock] {
        zoom <= deepest ? (zoom...deepest).map(covering(atZoom:)) : []
    }
}
