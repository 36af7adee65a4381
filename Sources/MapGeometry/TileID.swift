/// An XYZ tile address: `y` counts from the north, as slippy maps do.
/// MBTiles stores rows the TMS way, counting from the south; `tmsRow` converts.
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let z: Int
    public let x: Int
    public let y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Creates a tile from a TMS row (`tile_row` in MBTiles).
    public init(z: Int, x: Int, tmsRow: Int) {
        self.init(z: z, x: x, y: (1 << z) - 1 - tmsRow)
    }

    /// The deepest zoom a tile address may have: 2^30 tiles a side still fit a 32-bit column.
    public static let maxZoom = 30

    /// The number of tiles along one side of the world at zoom `z`.
    public static func tilesPerSide(zoom z: Int) -> Int { 1 << z }

    /// The row as TMS counts it: `2^z - 1 - y`.
    public var tmsRow: Int { (1 << z) - 1 - y }

    /// Whether x and y lie inside the world at this zoom.
    public var isValid: Bool {
        z >= 0 && z <= Self.maxZoom && x >= 0 && y >= 0 && x < (1 << z) && y < (1 << z)
    }

    /// The geographic box the tile covers.
    public var bounds: GeoBounds {
        let zoom = Double(z)
        let size = WebMercator.tileSize
        let northWest = WebMercator.unproject(PixelPoint(x: Double(x) * size, y: Double(y) * size), zoom: zoom)
        let southEast = WebMercator.unproject(PixelPoint(x: Double(x + 1) * size, y: Double(y + 1) * size), zoom: zoom)
        return GeoBounds(
            south: southEast.latitude, west: northWest.longitude,
            north: northWest.latitude, east: southEast.longitude
        )
    }

    /// The tile containing `coordinate` at zoom `z`.
    public static func containing(_ coordinate: Coordinate, zoom z: Int) -> TileID {
        let point = WebMercator.project(coordinate, zoom: Double(z))
        let last = (1 << z) - 1
        let x = min(max(Int((point.x / WebMercator.tileSize).rounded(.down)), 0), last)
        let y = min(max(Int((point.y / WebMercator.tileSize).rounded(.down)), 0), last)
        return TileID(z: z, x: x, y: y)
    }

    /// Every tile at zoom `z` that touches `bounds`, row by row.
    public static func covering(_ bounds: GeoBounds, zoom z: Int) -> [TileID] {
        let northWest = containing(bounds.northEast.withLongitude(bounds.west), zoom: z)
        let southEast = containing(bounds.southWest.withLongitude(bounds.east), zoom: z)
        var tiles: [TileID] = []
        tiles.reserveCapacity((southEast.x - northWest.x + 1) * (southEast.y - northWest.y + 1))
        for y in northWest.y...southEast.y {
            for x in northWest.x...southEast.x { tiles.append(TileID(z: z, x: x, y: y)) }
        }
        return tiles
    }

    public static func < (lhs: TileID, rhs: TileID) -> Bool {
        (lhs.z, lhs.y, lhs.x) < (rhs.z, rhs.y, rhs.x)
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}

extension Coordinate {
    func withLongitude(_ longitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }
}
