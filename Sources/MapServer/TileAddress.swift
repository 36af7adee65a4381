import MapGeometry
import TileStore

/// A tile URL's parts, checked: `/{style}/{z}/{x}/{y}.png` or `.../{y}@2x.png`.
struct TileAddress: Hashable, Sendable {
    let source: TileSource
    /// The tile, its row counted from the north whatever the URL's scheme.
    let tile: TileID
    /// A double-resolution (512 px) tile.
    let retina: Bool

    /// How a tile URL counts its rows, and which tiles it offers.
    enum Scheme {
        /// `/tiles` (and WMTS, whose templates point there): rows from the north, `@2x` offered.
        case xyz
        /// TMS 1.0.0 (`/tms/1.0.0`): rows from the south (`TileID.tmsRow`); 256 px only.
        case tms
    }

    /// Checks the path parameters: 400 for malformed numbers, 404 for an unknown style or a
    /// zoom outside the style's range.
    init(style: String, z: String, x: String, y lastComponent: String, catalog: StyleCatalog, scheme: Scheme = .xyz) throws(HTTPProblem) {
        let source = try Self.source(named: style, catalog: catalog)
        let retina = scheme == .xyz && lastComponent.hasSuffix("@2x.png")
        guard retina || lastComponent.hasSuffix(".png") else {
            throw .badRequest("y: '\(lastComponent)' must end in \(scheme == .xyz ? ".png or @2x.png" : ".png")")
        }
        let yText = String(lastComponent.dropLast(retina ? 7 : 4))
        try self.init(
            source: source, z: try Self.number(z, name: "z"), x: try Self.number(x, name: "x"), y: try Self.number(yText, name: "y"), retina: retina,
            scheme: scheme
        )
    }

    /// The style a URL names; 404 naming the known ones when it is not one of them.
    static func source(named style: String, catalog: StyleCatalog) throws(HTTPProblem) -> TileSource {
        guard let source = catalog[style] else {
            throw .notFound("style '\(style)' is not known; known styles: \(catalog.names.joined(separator: ", "))")
        }
        return source
    }

    /// A base tile's address as the fast path reads it, checked as the router checks it; nil
    /// where the router would refuse it (and so answers it, saying why).
    init?(_ path: BaseTilePath, catalog: StyleCatalog) {
        guard let source = catalog[path.style], let address = try? TileAddress(source: source, z: path.z, x: path.x, y: path.y, retina: false) else {
            return nil
        }
        self = address
    }

    /// The checks every way in shares: 400 for a zoom beyond `TileID.maxZoom` or a column or row
    /// outside the world, 404 for a zoom outside the style's range.
    private init(source: TileSource, z: Int, x: Int, y: Int, retina: Bool, scheme: Scheme = .xyz) throws(HTTPProblem) {
        guard z <= TileID.maxZoom else { throw .badRequest("z: \(z) is outside 0...\(TileID.maxZoom)") }
        guard source.tileSet.zoomRange.contains(Double(z)) else {
            throw .notFound("z: \(z) is outside the \(source.name) style's zoom range \(source.tileSet.zoomRange)")
        }
        let last = TileID.tilesPerSide(zoom: z) - 1
        guard x <= last else { throw .badRequest("x: \(x) is outside 0...\(last)") }
        guard y <= last else { throw .badRequest("y: \(y) is outside 0...\(last)") }
        self.source = source
        tile = scheme == .tms ? TileID(z: z, x: x, tmsRow: y) : TileID(z: z, x: x, y: y)
        self.retina = retina
    }

    /// Whether this address's pixels are exactly one of the style's tiles, as the style says.
    var isSourceTile: Bool { isSourceTile(of: source) }

    /// Whether this address's pixels are exactly one of `drawn`'s tiles (the style as its cache
    /// holds them), the one of the same z/x/y, so that the stored tile is the answer as it is: a
    /// 256 px source's tiles at 1x, and a 512 px source's at @2x (its tile z/x/y covers map tile
    /// z/x/y with 512 pixels). Any other address is drawn from the source's tiles that cover it.
    func isSourceTile(of drawn: TileSource) -> Bool {
        let side = Int(WebMercator.tileSize) * (retina ? 2 : 1)
        let deviceZoom = Double(tile.z) + (retina ? 1 : 0)
        return drawn.tileSet.tileSize == side && drawn.tileSet.grid.tileZoom(forDeviceZoom: deviceZoom) == tile.z
    }

    /// A path parameter as a whole number, 0 or more; 400 otherwise.
    private static func number(_ text: String, name: String) throws(HTTPProblem) -> Int {
        guard !text.isEmpty, text.count <= 10, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text) else {
            throw .badRequest("\(name): '\(text.prefix(20))' is not a whole number")
        }
        return value
    }
}
