import Foundation
import ImageCodec
import MapGeometry
import Payloads
import StrictJSON

/// A GeoJSON document drawn over the map, styled by its features' `simplestyle-spec` 1.1
/// properties, as Mapbox and Martin take them: its lines and polygons drawn as `Path`s, its
/// points as `Marker`s, so that each theme, `hit`, `describe` and the audit treat them as they
/// treat paths and markers. Lines and polygons draw beneath points, each in document order.
///
/// In a scene's `layers`, the document as `data`; as a frame query parameter, the document's
/// text, URL-encoded (send a large one as a scene layer in `POST /frame`):
///
///     {"type": "geojson", "data": {"type": "Feature", "properties": {"stroke": "#d7191c", "fill": "#fdae61"},
///      "geometry": {"type": "Polygon", "coordinates": [[[0.119, 52.203], [0.125, 52.203], [0.122, 52.206], [0.119, 52.203]]]}}}
///     geojson={"type":"Point","coordinates":[0.119,52.205]}
///
/// | property | default | allowed |
/// |---|---|---|
/// | `stroke` | `#555555` | `#RGB` or `#RRGGBB`, `#` optional: lines and polygon outlines |
/// | `stroke-width` | 2 | 0 to 50 pixels |
/// | `stroke-opacity` | 1 | 0 to 1 |
/// | `fill` | `#555555` | a colour as above: polygons |
/// | `fill-opacity` | 0.6 | 0 to 1 |
/// | `marker-color` | `#7e7e7e` | a colour as above: points |
/// | `marker-size` | `medium` | `small`, `medium`, `large` |
/// | `marker-symbol` | none | a letter or digit, a number 0 to 99, or an icon: `circle` (drawn as `dot`), `dot`, `star`, `plus`. Other Maki icons are refused, not drawn as something else |
/// | `title` | none | up to 200 characters, spoken for the feature's shapes |
///
/// Numbers may be written as strings ("3"), as some editors write them. Other properties are
/// the document's own and are passed over. A document may hold at most
/// `GeoJSONFeatures.maximumPositions` positions, and draw at most `MapObjects.maximumPerScene`
/// shapes.
public struct GeoJSONOverlay: MapObject {
    /// The lines and polygons, in document order.
    public var paths: [Path]
    /// The points, in document order.
    public var markers: [Marker]

    public init(paths: [Path], markers: [Marker]) {
        self.paths = paths
        self.markers = markers
    }

    /// simplestyle-spec 1.1's defaults: lines and outlines 2 px of `#555555`, fills of
    /// `#555555` at 0.6 opacity, markers `#7e7e7e`. Other front doors draw with them too.
    public static let defaultStroke = Colour(hex: 0x555555)
    public static let defaultStrokeWidth = 2.0
    static let defaultFill = Colour(hex: 0x555555)
    public static let defaultFillOpacity = 0.6
    public static let defaultMarkerColour = Colour(hex: 0x7E7E7E)

    /// The icons `marker-symbol` may name: Maki's `circle` and `star`, and MapFrame's own names.
    static let iconOfSymbol: [String: Marker.Icon] = ["circle": .dot, "dot": .dot, "star": .star, "plus": .plus]

    // MARK: Drawing

    public static let typeName = "geojson"
    /// Its shapes report themselves as paths and markers.
    public static let elementKinds: [ElementKind] = []

    public func fitItems(in theme: Theme) -> [FitItem] {
        paths.flatMap { $0.fitItems(in: theme) } + markers.flatMap { $0.fitItems(in: theme) }
    }

    public func draw(in context: DrawingContext) {
        for path in paths { path.draw(in: context) }
        for marker in markers { marker.draw(in: context) }
    }

    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        paths.flatMap { $0.elements(in: frame, theme: theme) } + markers.flatMap { $0.elements(in: frame, theme: theme) }
    }

    // MARK: Reading

    public init(reading layer: JSONObjectReader) throws(JSONFieldError) {
        try layer.rejectUnknownFields(allowed: ["type", "data"])
        try self.init(document: layer.required("data", expected: "a GeoJSON object"), path: layer.path(of: "data"))
    }

    public static func read(query value: Substring, parameter: String) throws(JSONFieldError) -> [GeoJSONOverlay] {
        [try GeoJSONOverlay(document: JSONValue.parse(Data(value.utf8), documentName: parameter), path: parameter)]
    }

    /// The overlay `document` draws; `path` names where it sits, for messages.
    public init(document: JSONValue, path: String) throws(JSONFieldError) {
        var paths: [Path] = [], markers: [Marker] = []
        for feature in try GeoJSONFeatures.read(document, path: path) {
            let style = Style(feature.properties, path: feature.propertiesPath)
            let title = try MapObjects.title(style.string("title"), path: style.path(of: "title"))
            if !feature.lines.isEmpty || !feature.polygons.isEmpty {
                let stroke = try style.colour("stroke", default: Self.defaultStroke, opacityKey: "stroke-opacity", defaultOpacity: 1)
                let width = try style.number("stroke-width", in: Path.widths) ?? Self.defaultStrokeWidth
                for line in feature.lines {
                    paths.append(Path(points: line, colour: stroke, width: width, title: title))
                }
                if !feature.polygons.isEmpty {
                    let fill = try style.colour("fill", default: Self.defaultFill, opacityKey: "fill-opacity", defaultOpacity: Self.defaultFillOpacity)
                    for rings in feature.polygons {
                        paths.append(Path(points: rings[0], colour: stroke, width: width, fill: fill, holes: Array(rings.dropFirst()), title: title))
                    }
                }
            }
            if !feature.points.isEmpty {
                let colour = try style.colour("marker-color", default: Self.defaultMarkerColour, opacityKey: nil, defaultOpacity: 1)
                let sizeText = try style.string("marker-size") ?? "medium"
                guard let size = Marker.Size(rawValue: sizeText) else {
                    throw JSONFieldError(path: style.path(of: "marker-size"), value: .string(sizeText), allowed: "small, medium or large")
                }
                let glyph = try Self.glyph(style.string("marker-symbol"), size: size, path: style.path(of: "marker-symbol"))
                markers += feature.points.map { Marker(coordinate: $0, colour: colour, size: size, glyph: glyph, title: title) }
            }
            guard paths.count + markers.count <= MapObjects.maximumPerScene else {
                throw JSONFieldError(path: path, message: "draws more than \(MapObjects.maximumPerScene) shapes; allowed at most \(MapObjects.maximumPerScene)")
            }
        }
        self.init(paths: paths, markers: markers)
    }

    /// What a `marker-symbol` puts in a marker's head.
    public static func glyph(_ symbol: String?, size: Marker.Size, path: String) throws(JSONFieldError) -> Marker.Glyph {
        guard let symbol, !symbol.isEmpty else { return .none }
        if let icon = iconOfSymbol[symbol] { return .icon(icon) }
        let isLetter = symbol.count == 1 && symbol.allSatisfy { $0.isASCII && $0.isLetter }
        let isNumber = (1...2).contains(symbol.count) && symbol.allSatisfy { $0.isASCII && $0.isNumber }
        guard isLetter || isNumber else {
            throw JSONFieldError(
                path: path, value: .string(symbol),
                allowed: "a letter, a number 0 to 99, or one of \(iconOfSymbol.keys.sorted().joined(separator: ", ")); other Maki icons are not drawn"
            )
        }
        guard size != .small else {
            throw JSONFieldError(path: path, message: "a small marker has no room for a label; use marker-size medium or large")
        }
        return .label(symbol)
    }

    /// A colour as simplestyle writes it: `#RGB` or `#RRGGBB`, `#` optional; nil for anything else.
    public static func colour(_ text: Substring) -> Colour? {
        let digits = text.hasPrefix("#") ? text.dropFirst() : text
        guard digits.count == 3 else { return digits.count == 6 ? Colour(webHex: digits) : nil }
        return Colour(webHex: Substring(digits.flatMap { [$0, $0] }))
    }

    /// A feature's simplestyle properties, read with messages naming each.
    private struct Style {
        let properties: [String: JSONValue]
        let path: String

        init(_ properties: [String: JSONValue], path: String) {
            self.properties = properties
            self.path = path
        }

        func path(of key: String) -> String { "\(path).\(key)" }

        func string(_ key: String) throws(JSONFieldError) -> String? {
            switch properties[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw JSONFieldError(path: path(of: key), value: other, allowed: "a string")
            }
        }

        /// A number, or a number written as a string, in `range`.
        func number(_ key: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double? {
            switch properties[key] {
            case nil, .null?: return nil
            case .string(let text)?:
                guard let number = Double(text) else { throw JSONFieldError(path: path(of: key), value: .string(text), allowed: "a number") }
                return try JSONObjectReader.number(.number(number), path: path(of: key), in: range)
            case let value?: return try JSONObjectReader.number(value, path: path(of: key), in: range)
            }
        }

        func colour(_ key: String, default fallback: Colour, opacityKey: String?, defaultOpacity: Double) throws(JSONFieldError) -> Colour {
            var colour = fallback
            if let text = try string(key) {
                guard let read = GeoJSONOverlay.colour(Substring(text)) else {
                    throw JSONFieldError(path: path(of: key), value: .string(text), allowed: "#RGB or #RRGGBB in hexadecimal, # optional")
                }
                colour = read
            }
            let opacity = try opacityKey.flatMap { key throws(JSONFieldError) in try number(key, in: 0...1) } ?? defaultOpacity
            return colour.withAlpha(opacity)
        }
    }
}
