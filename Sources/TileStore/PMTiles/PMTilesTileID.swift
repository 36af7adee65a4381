import MapGeometry

/// PMTiles' numbering of tiles: one number a tile, counting every tile of the zooms above it,
/// then the tile's place along a Hilbert curve through its own zoom's grid. Zoom 0's tile is 0,
/// zoom 1's are 1 to 4 (0/0, 0/1, 1/1, 1/0 as x/y), zoom 2's 5 to 20, and so on; neighbouring
/// tiles get near numbers, so an archive's directories and tile bytes keep an area together.
public enum PMTilesTileID {
    /// The number of every tile of zooms 0 to z - 1: (4^z - 1) / 3, the first number of zoom z.
    static func firstID(ofZoom z: Int) -> UInt64 {
        ((1 as UInt64) << (2 * UInt64(z)) - 1) / 3
    }

    /// The tile's number. `tile` must be valid (`TileID.isValid`).
    public static func id(of tile: TileID) -> UInt64 {
        precondition(tile.isValid, "tile \(tile) is outside the map")
        var (x, y) = (UInt64(tile.x), UInt64(tile.y))
        var position: UInt64 = 0
        var side = (1 as UInt64) << UInt64(tile.z)
        while side > 1 {
            let half = side / 2
            let right: UInt64 = x >= half ? 1 : 0
            let lower: UInt64 = y >= half ? 1 : 0
            position += half * half * ((3 * right) ^ lower)
            (x, y) = rotated(x: x & (half - 1), y: y & (half - 1), side: half, right: right, lower: lower)
            side = half
        }
        return firstID(ofZoom: tile.z) + position
    }

    /// The tile numbered `id`, or nil when it lies deeper than `TileID.maxZoom`.
    public static func tile(for id: UInt64) -> TileID? {
        guard let z = zoom(of: id) else { return nil }
        var position = id - firstID(ofZoom: z)
        var (x, y): (UInt64, UInt64) = (0, 0)
        var side: UInt64 = 1
        while side < (1 as UInt64) << UInt64(z) {
            let right = (position / 2) & 1
            let lower = (position ^ right) & 1
            (x, y) = rotated(x: x, y: y, side: side, right: right, lower: lower)
            x += side * right
            y += side * lower
            position /= 4
            side *= 2
        }
        return TileID(z: z, x: Int(x), y: Int(y))
    }

    /// The zoom of the tile numbered `id`, or nil when it lies deeper than `TileID.maxZoom`.
    public static func zoom(of id: UInt64) -> Int? {
        var z = 0
        while z <= TileID.maxZoom {
            if id < firstID(ofZoom: z + 1) { return z }
            z += 1
        }
        return nil
    }

    /// The Hilbert curve's turn within one quadrant of `side` tiles a side: the lower-left
    /// quadrant is mirrored about its diagonal, the lower-right about the other diagonal.
    private static func rotated(x: UInt64, y: UInt64, side: UInt64, right: UInt64, lower: UInt64) -> (UInt64, UInt64) {
        guard lower == 0 else { return (x, y) }
        if right == 1 { return (side - 1 - y, side - 1 - x) }
        return (y, x)
    }
}
