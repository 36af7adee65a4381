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

    private static func number(_ text: String, name: String, limit: Int) throws(HTTPProblem) -> Int {
        guard !text.isEmpty, text.count <= 10, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text) else {
            throw .badRequest("\(name): '\(text.prefix(20))' is not a whole number")
        }
        guard value <= limit else { throw .badRequest("\(name): \(value) is outside 0...\(limit)") }
        return value
    }
}
