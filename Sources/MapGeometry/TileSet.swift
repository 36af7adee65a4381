import Foundation

/// What drawing needs to know of a tile source: which of its tiles draw each zoom, and the
/// attribution that must be shown wherever they appear. Where the tiles come from is the tile
/// store's business (`TileSource`), not the renderer's.
public struct TileSet: Hashable, Sendable {
    /// The tile size and the zooms the tiles draw.
    public var grid: TileGrid
    /// The attribution text; a "\n" splits it into lines.
    public var attribution: String
    /// The attribution the CycleStreets app showed in 2010, kept for faithful reproductions.
    public var legacyAttribution: String?

    public init(grid: TileGrid, attribution: String, legacyAttribution: String? = nil) {
        self.grid = grid
        self.attribution = attribution
        self.legacyAttribution = legacyAttribution
    }

    /// The map zooms the tiles are drawn at, as scenes and tile URLs count them.
    public var zoomRange: ZoomRange { grid.zoomRange }

    /// The side of one tile in pixels.
    public var tileSize: Int { grid.tileSize }
}
