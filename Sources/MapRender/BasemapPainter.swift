import ImageCodec
import MapGeometry

/// The outcome of asking for one tile to draw.
public enum TileLookup: Sendable {
    case image(RasterImage)
    case missing(MissingTile)
}

/// Anything that can hand out decoded tiles: a frame's tiles as the pipeline decoded them, or a
/// test's stand-in. Never storage: whoever draws must not wait for it.
public protocol TileProviding {
    func tile(_ id: TileID) -> TileLookup
}

/// Draws the map tiles. Where a tile is missing the frame shows plain grey
/// (`PlaceholderTilePainter`), and the tile is reported. A theme with a flat basemap then
/// turns every pixel into its road or background colour (`BasemapStyle.flat`).
public final class BasemapPainter: OverlayPainter {
    private let tiles: TileProviding
    private let grid: TileGrid
    /// The tiles that could not be drawn, filled in by `draw`.
    public private(set) var missingTiles: [MissingTile] = []
    /// How many tiles the frame needed.
    public private(set) var tileCount = 0

    public init(tiles: TileProviding, grid: TileGrid) {
        self.tiles = tiles
        self.grid = grid
    }

    /// The tiles are the map itself, not elements on it.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] { [] }

    public func draw(in context: DrawingContext) {
        let placements = context.frame.tilePlacements(in: grid)
        tileCount = placements.count
        missingTiles = []
        if !copiesSoleTile(placements, in: context) {
            // Rows beyond the poles have no tiles; the placeholder covers them and any missing tile.
            PlaceholderTilePainter().draw(in: context)
            for placement in placements {
                switch tiles.tile(placement.tile) {
                case .image(let image):
                    context.canvas.draw(image, in: placement.rect)
                case .missing(let missing):
                    missingTiles.append(missing)
                }
            }
        }
        if case .flat(let background, let roads) = context.theme.basemap {
            context.canvas.recolourOpaquePixels { RoadPixels.isRoad($0) ? roads : background }
        }
    }

    /// Whether the frame is one opaque tile exactly (a composited tile), whose pixels have then
    /// been copied, with nothing under them to clear or composite over (`Canvas.copyCovering`).
    private func copiesSoleTile(_ placements: [TilePlacement], in context: DrawingContext) -> Bool {
        guard placements.count == 1, case .image(let image) = tiles.tile(placements[0].tile) else { return false }
        return context.canvas.copyCovering(image, in: placements[0].rect)
    }
}

/// Fills the frame with the grey the app showed where no tile was available.
public struct PlaceholderTilePainter: OverlayPainter {
    public init() {}

    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] { [] }

    public func draw(in context: DrawingContext) {
        context.canvas.clear(to: .missingTileGrey)
    }
}
