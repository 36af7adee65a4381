import Foundation
import ImageCodec
import MapGeometry

/// Tiles that show where, and at what scale, a frame drew them. A tile of zoom z is an n x n grid
/// of cells, each one the colour (`colour(of:)`) of the tile of zoom z + log2(n) it covers, so a
/// frame at that deeper zoom shows each of its tiles' colours at that tile's centre, whatever the
/// size and zoom of the tiles it was drawn from: 256 px tiles of one cell at the frame's zoom,
/// 512 px tiles of 2 x 2 cells one zoom shallower, or 256 px tiles of 2 x 2 cells one zoom
/// shallower, scaled up.
public enum CellTiles {
    /// A colour of each tile, never the grey of a missing tile.
    public static func colour(of tile: TileID) -> Colour {
        Colour(
            redLevel: UInt8(30 + tile.x * 67 % 90), greenLevel: UInt8(140 + tile.y * 43 % 100), blueLevel: UInt8(20 + tile.z * 29 % 60)
        )
    }

    /// The cell tile `tile`, `side` pixels square, of `cells` x `cells` cells; `alpha` gives each
    /// cell's opacity by the deeper tile it covers.
    public static func image(_ tile: TileID, side: Int, cells: Int, alpha: (TileID) -> UInt8 = { _ in 255 }) -> RasterImage {
        let cellSide = side / cells
        let deeperZoom = tile.z + cells.trailingZeroBitCount
        var words = [UInt32](repeating: 0, count: side * side)
        for row in 0..<cells {
            for column in 0..<cells {
                let covered = TileID(z: deeperZoom, x: tile.x * cells + column, y: tile.y * cells + row)
                let opaque = Self.colour(of: covered)
                let word = RasterImage.premultipliedWord(Colour(
                    redLevel: opaque.redLevel, greenLevel: opaque.greenLevel, blueLevel: opaque.blueLevel, alphaLevel: alpha(covered)
                ))
                for y in (row * cellSide)..<((row + 1) * cellSide) {
                    for x in (column * cellSide)..<((column + 1) * cellSide) { words[y * side + x] = word }
                }
            }
        }
        return words.withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: side, height: side, stride: side * 4) }
    }

    /// The tiles of zoom `z` within `radius` tiles of the one under `centre`, each side.
    public static func block(around centre: Coordinate, zoom z: Int, radius: Int) -> [TileID] {
        let middle = TileID.containing(centre, zoom: z)
        return (-radius...radius).flatMap { dy in (-radius...radius).map { dx in TileID(z: z, x: middle.x + dx, y: middle.y + dy) } }
    }

    /// PNG cell tiles of zoom `z` within `radius` tiles of the one under `centre`, `side` px
    /// square, of `cells` x `cells` cells.
    public static func pngTiles(
        around centre: Coordinate, zoom z: Int, side: Int = 256, cells: Int = 1, radius: Int = 2, alpha: (TileID) -> UInt8 = { _ in 255 }
    ) throws -> [TileID: Data] {
        Dictionary(uniqueKeysWithValues: try Self.block(around: centre, zoom: z, radius: radius).map { tile in
            (tile, try Self.image(tile, side: side, cells: cells, alpha: alpha).pngData())
        })
    }

    /// Where the centre of each tile of zoom `cellZoom` lands in a frame of `width` x `height`
    /// pixels centred on `centre` at zoom `frameZoom` (scale 1), by the slippy-map formula alone;
    /// only those at least `margin` pixels inside the frame.
    public static func cellCentres(
        in width: Int, _ height: Int, centre: Coordinate, frameZoom: Int, cellZoom: Int, margin: Double = 3
    ) -> [(tile: TileID, x: Int, y: Int)] {
        let worldSide = 256 * pow(2, Double(frameZoom))
        let centreX = (centre.longitude + 180) / 360 * worldSide
        let centreY = (1 - asinh(tan(centre.latitude * .pi / 180)) / .pi) / 2 * worldSide
        // A frame's top-left corner is on a whole world pixel.
        let originX = (centreX - Double(width) / 2).rounded(), originY = (centreY - Double(height) / 2).rounded()
        let cellSide = 256 * pow(2, Double(frameZoom - cellZoom))
        var centres: [(tile: TileID, x: Int, y: Int)] = []
        let firstColumn = Int((originX / cellSide).rounded(.down)), firstRow = Int((originY / cellSide).rounded(.down))
        for row in firstRow...Int(((originY + Double(height)) / cellSide).rounded(.down)) {
            for column in firstColumn...Int(((originX + Double(width)) / cellSide).rounded(.down)) {
                let x = (Double(column) + 0.5) * cellSide - originX, y = (Double(row) + 0.5) * cellSide - originY
                guard x >= margin, y >= margin, x < Double(width) - margin, y < Double(height) - margin else { continue }
                centres.append((tile: TileID(z: cellZoom, x: column, y: row), x: Int(x.rounded(.down)), y: Int(y.rounded(.down))))
            }
        }
        return centres
    }
}
