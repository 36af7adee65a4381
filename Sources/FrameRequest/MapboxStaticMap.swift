import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Payloads
import StrictJSON
import TileStore

/// `GET /styles/v1/{user}/{style}/static/{overlays}/{position}/{width}x{height}[@2x]`: the
/// Mapbox Static Images API's grammar, so that code written for that service (such as the
/// Mapbox SDK's `StaticStyle.image`) draws with MapFrame by changing the host. What it cannot
/// honour is refused with a 400 naming the part, never drawn differently. Frames are PNG.
///
/// | part | taken | refused |
/// |---|---|---|
/// | `user` | any; not used | |
/// | `style` | `streets-v11`, `streets-v12` (the `osm` style), `outdoors-v11`, `outdoors-v12` (`opencyclemap`), or a MapFrame style's own name | other Mapbox styles, such as `satellite-v9` |
/// | `overlays` | optional; comma-separated, bottom to top: `geojson(...)` (simplestyle, as `GeoJSONOverlay`), `path-{width}+{colour}-{opacity}+{fill}-{fillOpacity}({polyline})` (every part after `path` optional; precision 5), `pin-s` and `pin-l` markers with an optional label (a letter, 0 to 99, or the icons `circle` and `star`) and colour: `pin-s-a+f44(lon,lat)` | `url-` markers (custom images are not fetched), other Maki icons |
/// | `position` | `lon,lat,zoom` with an optional bearing and pitch of 0; `[west,south,east,north]`; `auto` (fits the overlays) | a bearing or pitch other than 0 |
/// | size | `{width}x{height}` within MapFrame's size limit; `@2x` doubles the pixels | |
/// | `access_token` | taken and ignored; the request log redacts it | |
/// | `padding` | with `auto` or a box: one number, or the same number for every side | different padding on different sides |
/// | `attribution` | `true` | `false`: the tiles' licence asks for it |
/// | `logo` | `true` or `false`; there is no logo to draw | |
/// | `before_layer`, `addlayer`, `setfilter`, `layer_id` | | vector style layers are not offered |
///
/// Paths draw as simplestyle's defaults where a part is left out: 2 px of `#555555` at full
/// opacity, and a fill at 0.6 opacity when a fill colour is given. A pin is grey (`#7e7e7e`)
/// unless coloured. By drawn size, Mapbox's `pin-s` is MapFrame's medium marker and `pin-l`
/// its large one.
public enum MapboxStaticMap {
    /// The query parameters taken.
    public static let allowed: Set<String> = ["access_token", "padding", "attribution", "logo"]

    /// Query parameters for vector style layers, refused by name.
    static let styleLayerParameters: Set<String> = ["before_layer", "addlayer", "setfilter", "layer_id"]

    /// MapFrame styles by Mapbox style ID.
    static let styleOfID = ["streets-v11": "osm", "streets-v12": "osm", "outdoors-v11": "opencyclemap", "outdoors-v12": "opencyclemap"]

    /// The scene a request asks for. `style` is the style ID of the path, and `rest` the path
    /// after `static/`, still percent-encoded; `parameters` are the query's.
    public static func scene(style: String, rest: Substring, parameters: [(String, String)], catalog: StyleCatalog) throws(FrameRequestError) -> Scene {
        var values: [String: String] = [:]
        for (name, value) in parameters {
            if styleLayerParameters.contains(name) { throw .invalid("\(name): not offered; vector style layers are not offered") }
            guard allowed.contains(name) else { throw .invalid("\(name): not offered; allowed: \(allowed.sorted().joined(separator: ", "))") }
            guard values.updateValue(value, forKey: name) == nil else { throw .invalid("\(name): given more than once; allowed once") }
        }
        if let attribution = values["attribution"], attribution != "true" {
            throw .invalid("attribution: '\(attribution.prefix(20))' is not offered; the tiles' licence asks for their attribution, so only true is taken")
        }
        if let logo = values["logo"], logo != "true", logo != "false" { throw .invalid("logo: '\(logo.prefix(20))' is not true or false") }

        var frame: [String: String] = [:]
        guard let styleName = styleOfID[style] ?? (catalog[style] != nil ? style : nil) else {
            let names = (Array(styleOfID.keys) + catalog.names).sorted().joined(separator: ", ")
            throw .invalid("style: '\(style.prefix(40))' is not offered; allowed: \(names)")
        }
        frame["style"] = styleName

        let parts = try rest.split(separator: "/", omittingEmptySubsequences: false).map { part throws(FrameRequestError) in
            guard let decoded = part.removingPercentEncoding else { throw .invalid("path: '\(part.prefix(40))' is not percent-encoded correctly") }
            return decoded
        }
        guard parts.count == 2 || parts.count == 3 else {
            throw .invalid("path: expected static/{overlays}/{position}/{width}x{height}, the overlays optional; got \(parts.count) parts after static/")
        }
        let objects = parts.count == 3 ? try overlays(parts[0]) : []
        let (position, size) = (parts[parts.count - 2], parts[parts.count - 1])

        var sizeText = Substring(size)
        if sizeText.hasSuffix("@2x") {
            frame["scale"] = "2"
            sizeText = sizeText.dropLast(3)
        }
        let sides = sizeText.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            throw .invalid("size: '\(size.prefix(20))' is not {width}x{height} with an optional @2x, such as 600x400@2x")
        }
        (frame["width"], frame["height"]) = (String(sides[0]), String(sides[1]))

        if position == "auto" {
            guard !objects.isEmpty else { throw .invalid("position: auto fits the overlays, and there are none") }
        } else if position.hasPrefix("[") && position.hasSuffix("]") {
            frame["bbox"] = String(position.dropFirst().dropLast())
        } else {
            let numbers = position.split(separator: ",", omittingEmptySubsequences: false)
            guard (3...5).contains(numbers.count) else {
                throw .invalid("position: '\(position.prefix(40))' is not lon,lat,zoom[,bearing[,pitch]], [west,south,east,north] or auto")
            }
            for (index, name) in ["bearing", "pitch"].enumerated() where numbers.count > 3 + index {
                guard let angle = Double(numbers[3 + index]), angle == 0 else {
                    throw .invalid("\(name): '\(numbers[3 + index].prefix(20))' is not offered; maps are drawn north up and flat, a \(name) of 0")
                }
            }
            (frame["lon"], frame["lat"], frame["zoom"]) = (String(numbers[0]), String(numbers[1]), String(numbers[2]))
        }
        if let padding = values["padding"] {
            guard position == "auto" || frame["bbox"] != nil else { throw .invalid("padding: only with auto or a [west,south,east,north] box") }
            let sides = Set(padding.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) })
            guard sides.count == 1, let side = sides.first else {
                throw .invalid("padding: '\(padding.prefix(40))' differs from side to side; only the same padding on every side is offered")
            }
            frame["padding"] = side
        }
        return try FrameQuery.scene(
            values: frame, mapObjects: objects, storedRoute: nil, catalog: catalog,
            parameterOfField: [
                "camera.center.lat": "position (lat)", "camera.center.lon": "position (lon)", "camera.zoom": "position (zoom)",
                "camera.bounds": "position (box)", "camera.padding": "padding", "size.width": "size", "size.height": "size",
            ]
        )
    }

    /// The overlays, bottom to top: commas inside an overlay's parentheses (and inside the
    /// strings of its GeoJSON) do not separate overlays.
    static func overlays(_ text: String) throws(FrameRequestError) -> [any SceneLayer] {
        var layers: [any SceneLayer] = []
        var depth = 0, inString = false, escaped = false
        var start = text.startIndex
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"" where depth > 0: inString = true
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                layers += try overlay(text[start..<index], number: layers.count + 1)
                start = text.index(after: index)
            default: break
            }
        }
        layers += try overlay(text[start...], number: layers.count + 1)
        guard layers.count <= MapObjects.maximumPerScene else {
            throw .invalid("overlays: \(layers.count); allowed at most \(MapObjects.maximumPerScene)")
        }
        return layers
    }

    /// One overlay: `name(arguments)`.
    private static func overlay(_ text: Substring, number: Int) throws(FrameRequestError) -> [any SceneLayer] {
        let label = "overlay \(number)"
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else {
            throw .invalid("\(label): '\(text.prefix(40))' is not name(arguments), such as pin-s+f44(-0.12,51.5)")
        }
        let name = text[..<open], arguments = text[text.index(after: open)..<text.index(before: text.endIndex)]
        do {
            if name == "geojson" {
                let document = try JSONValue.parse(Data(arguments.utf8), documentName: "\(label) (geojson)")
                return [try GeoJSONOverlay(document: document, path: "\(label) (geojson)")]
            }
            if name.hasPrefix("path") { return [try path(style: name.dropFirst(4), polyline: arguments, label: label)] }
            if name.hasPrefix("pin-s") || name.hasPrefix("pin-l") { return [try pin(name, at: arguments, label: label)] }
        } catch {
            throw .invalid(error.description)
        }
        if name.hasPrefix("url-") { throw .invalid("\(label): url- markers are not offered; custom marker images are not fetched") }
        throw .invalid("\(label): '\(name.prefix(40))' is not offered; allowed: geojson, path, pin-s, pin-l")
    }

    /// `-{width}+{colour}-{opacity}+{fill}-{fillOpacity}`, each part optional, then the polyline.
    private static func path(style: Substring, polyline: Substring, label: String) throws(JSONFieldError) -> Path {
        var rest = style
        /// The text up to the next separator in `separators`.
        func take(until separators: Set<Character>) -> Substring {
            let end = rest.firstIndex { separators.contains($0) } ?? rest.endIndex
            defer { rest = rest[end...] }
            return rest[..<end]
        }
        func number(_ text: Substring, _ name: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double {
            guard let value = Double(text), range.contains(value) else {
                throw JSONFieldError(path: "\(label) (path \(name))", message: "'\(text.prefix(20))' is not a number in \(JSONObjectReader.describe(range))")
            }
            return value
        }
        func colour(_ text: Substring, _ name: String) throws(JSONFieldError) -> Colour {
            try hexColour(text, path: "\(label) (path \(name))")
        }
        var width = GeoJSONOverlay.defaultStrokeWidth
        var stroke = GeoJSONOverlay.defaultStroke
        var fill: Colour?
        if rest.hasPrefix("-") {
            rest = rest.dropFirst()
            width = try number(take(until: ["+"]), "width", in: Path.widths)
        }
        if rest.hasPrefix("+") {
            rest = rest.dropFirst()
            stroke = try colour(take(until: ["-", "+"]), "colour")
            if rest.hasPrefix("-") {
                rest = rest.dropFirst()
                stroke = stroke.withAlpha(try number(take(until: ["+"]), "opacity", in: 0...1))
            }
        }
        if rest.hasPrefix("+") {
            rest = rest.dropFirst()
            var fillColour = try colour(take(until: ["-"]), "fill colour").withAlpha(GeoJSONOverlay.defaultFillOpacity)
            if rest.hasPrefix("-") {
                rest = rest.dropFirst()
                fillColour = fillColour.withAlpha(try number(take(until: []), "fill opacity", in: 0...1))
            }
            fill = fillColour
        }
        guard rest.isEmpty else {
            throw JSONFieldError(path: "\(label) (path)", message: "'\(rest.prefix(20))' is left over; expected path-{width}+{colour}-{opacity}+{fill}-{fillOpacity}")
        }
        let points: [Coordinate]
        do {
            points = try EncodedPolyline.decode(polyline, precision: 5)
        } catch {
            throw JSONFieldError(path: "\(label) (path)", message: "the polyline \(error.description)")
        }
        guard points.count >= RouteLine.minimumPointsPerPart else {
            throw JSONFieldError(path: "\(label) (path)", message: "the polyline has \(points.count) point\(points.count == 1 ? "" : "s"); a path needs 2 or more")
        }
        return Path(points: points, colour: stroke, width: width, fill: fill)
    }

    /// A colour as Mapbox writes one, 3 or 6 hexadecimal digits without `#`; `path` names it in the error.
    private static func hexColour(_ text: Substring, path: String) throws(JSONFieldError) -> Colour {
        guard let colour = GeoJSONOverlay.colour(text) else {
            throw JSONFieldError(path: path, message: "'\(text.prefix(20))' is not a colour; expected 3 or 6 hexadecimal digits")
        }
        return colour
    }

    /// `pin-s` or `pin-l`, then `-{label}` and `+{colour}`, each optional, at `lon,lat`.
    private static func pin(_ name: Substring, at position: Substring, label: String) throws(JSONFieldError) -> Marker {
        let size: Marker.Size = name.hasPrefix("pin-l") ? .large : .medium
        var rest = name.dropFirst(5)
        var colour = GeoJSONOverlay.defaultMarkerColour
        if let plus = rest.lastIndex(of: "+") {
            colour = try hexColour(rest[rest.index(after: plus)...], path: "\(label) (pin colour)")
            rest = rest[..<plus]
        }
        var glyph = Marker.Glyph.none
        if rest.hasPrefix("-") {
            glyph = try GeoJSONOverlay.glyph(String(rest.dropFirst()), size: size, path: "\(label) (pin label)")
        } else if !rest.isEmpty {
            throw JSONFieldError(path: "\(label) (pin)", message: "'\(name.prefix(40))' is not pin-s or pin-l, then -{label} and +{colour}")
        }
        let numbers = position.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2 else {
            throw JSONFieldError(path: "\(label) (pin position)", message: "'\(position.prefix(40))' is not lon,lat")
        }
        let coordinate = try Coordinate(queryText: Substring("\(numbers[1]),\(numbers[0])"), parameter: "\(label) (pin position, as lat,lon)")
        return Marker(coordinate: coordinate, colour: colour, size: size, glyph: glyph)
    }
}
