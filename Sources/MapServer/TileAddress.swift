import MapGeometry
import TileStore

/// A tile URL's parts, checked: `/{style}/{z}/{x}/{y}.png` or `.../{y}@2x.png`.
struct TileAddress: Hashable, Sendable {
    let source: TileSource
    let tile: TileID
    /// A double-resolution (512 px) tile.
    let retina: Bool

    /// Checks the path parameters: 400 for malformed numbers, 404 for an unknown style or a
    /// zoom outside the style's range.
    init(style: String, z: String, x: String, y lastComponent: String, catalog: StyleCatalog) throws(HTTPProblem) {
        guard let source = catalog[style] else {
            throw .notFound("style '\(style)' is not known; known styles: \(catalog.names.joined(separator: ", "))")
        }
        let retina = lastComponent.hasSuffix("@2x.png")
        guard retina || lastComponent.hasSuffix(".png") else {
            throw .badRequest("y: '\(lastComponent)' must end in .png or @2x.png")
        }
        let yText = String(lastComponent.dropLast(retina ? 7 : 4))
        let z = try TileAddress.number(z, name: "z", limit: 30)
        guard source.zoomRange.contains(Double(z)) else {
            throw .notFound("z: \(z) is outside the \(style) style's zoom range \(source.zoomRange)")
        }
        let side = TileID.tilesPerSide(zoom: z)
        let x = try TileAddress.number(x, name: "x", limit: side - 1)
        let y = try TileAddress.number(yText, name: "y", limit: side - 1)
        self.source = source
        tile = TileID(z: z, x: x, y: y)
        self.retina = retina
    }

    /// A base tile's address as the fast path reads it, checked as the router checks it; nil
    /// where the router would refuse it (and so answers it, saying why).
    init?(_ path: BaseTilePath, catalog: StyleCatalog) {
        guard let source = catalog[path.style], source.zoomRange.contains(Double(path.z)), path.z <= 30 else { return nil }
        let side = TileID.tilesPerSide(zoom: path.z)
        guard path.x < side, path.y < side else { return nil }
        self.source = source
        tile = TileID(z: path.z, x: path.x, y: path.y)
        retina = false
    }

    /// Whether this address's pixels are exactly one of the source's tiles, the one of the same
    /// z/x/y, so that the stored tile is the answer as it is: a 256 px source's tiles at 1x, and
    /// a 512 px source's at @2x (its tile z/x/y covers map tile z/x/y with 512 pixels). Any other
    /// address is drawn from the source's tiles that cover it.
    var isSourceTile: Bool {
        let side = Int(WebMercator.tileSize) * (retina ? 2 : 1)
        let deviceZoom = Double(tile.z) + (retina ? 1 : 0)
        return source.tileSize == side && source.tileGrid.tileZoom(forDeviceZoom: deviceZoom) == tile.z
    }

    private static func number(_ text: String, name: String, limit: Int) throws(HTTPProblem) -> Int {
        guard !text.isEmpty, text.count <= 10, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text) else {
            throw .badRequest("\(name): '\(text.prefix(20))' is not a whole number")
        }
        guard value <= limit else { throw .badRequest("\(name): \(value) is outside 0...\(limit)") }
        return value
    }
}
