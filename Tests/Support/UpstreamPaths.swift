import MapGeometry

// The tests' upstreams (UpstreamSimulator) serve tiles at "/z/x/y.png".

/// The upstream path of a tile: "/z/x/y.png".
public func upstreamPath(_ tile: TileID) -> String { "/\(tile.z)/\(tile.x)/\(tile.y).png" }

/// The tile a path such as "/16/32793/21583.png" names, if it names one.
public func tileID(atUpstreamPath path: String) -> TileID? {
    guard path.hasPrefix("/"), path.hasSuffix(".png") else { return nil }
    let numbers = path.dropFirst().dropLast(4).split(separator: "/").compactMap { Int($0) }
    guard numbers.count == 3 else { return nil }
    let tile = TileID(z: numbers[0], x: numbers[1], y: numbers[2])
    return tile.isValid ? tile : nil
}
