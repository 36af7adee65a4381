import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Payloads
import StrictJSON
import TileStore

/// `GET /staticmap`: Google Static Maps' grammar, so that code written for that service draws
/// with MapFrame by changing the host. What it cannot honour is refused with a 400 naming the
/// parameter, never drawn differently.
///
/// | parameter | taken | refused |
/// |---|---|---|
/// | `size` | `{width}x{height}`, required, within MapFrame's size limit | |
/// | `center`, `zoom` | `lat,lng` and a whole zoom, given together; without them the frame fits the markers and paths | an address (nothing is geocoded) |
/// | `scale` | 1, 2 | 4 |
/// | `format` | `png`, `png8`, `png32` (PNG), `jpg`, `jpg-baseline` (JPEG at quality 90) | `gif` |
/// | `maptype` | `roadmap` (the `osm` style), `terrain` (`opencyclemap`, with its contours) | `satellite`, `hybrid` |
/// | `markers` | `color`, `size` (`tiny`, `small`, `mid`, `normal`), `label` (one of A-Z, 0-9), then `lat,lng` points | `icon`, `anchor` and `scale` (custom icons are not fetched), addresses |
/// | `path` | `color`, `weight` (0-50), `fillcolor`, `geodesic:false`, then `lat,lng` points or one `enc:` polyline | `geodesic:true`, addresses |
/// | `visible` | `lat,lng` points, each `|`-separated, that the fitted frame shows without drawing anything there | with `center` and `zoom`, addresses |
/// | `key`, `signature` | taken and ignored; the request log redacts them | |
/// | `language`, `region`, `sensor` | taken and ignored: labels are the tiles' own, and clients such as motionless always send `language` | |
///
/// Colours are `0xRRGGBB`, `0xRRGGBBAA`, or one of Google's ten names, drawn as the CSS colours
/// of those names. Markers draw over paths, as Google draws them, whatever the order of the
/// parameters. Google draws labels only on `mid` and `normal` markers, and
/// passes over a label on a smaller one; so does this. `style` is not offered.
public enum GoogleStaticMap {
    /// The parameters taken.
    public static let allowed: Set<String> = [
        "size", "center", "zoom", "scale", "format", "maptype", "markers", "path", "visible", "key", "signature", "language", "region", "sensor",
    ]

    /// Map styles by Google's `maptype`.
    static let styleOfMapType = ["roadmap": "osm", "terrain": "opencyclemap"]

    /// The frame encodings by Google's `format`.
    static let encodingOfFormat: [String: FrameEncoding] = [
        "png": .png, "png8": .png, "png32": .png, "jpg": .jpeg(quality: FrameEncoding.defaultQuality), "jpg-baseline": .jpeg(quality: FrameEncoding.defaultQuality),
    ]

    /// Google's ten colour names, as CSS draws them.
    static let colourOfName: [String: UInt32] = [
        "black": 0x000000, "brown": 0xA52A2A, "green": 0x008000, "purple": 0x800080, "yellow": 0xFFFF00,
        "blue": 0x0000FF, "gray": 0x808080, "orange": 0xFFA500, "red": 0xFF0000, "white": 0xFFFFFF,
    ]

    /// Google's default path: 5 px of blue at three quarters' opacity.
    static let defaultPathColour = Colour(hex: 0x0000FF, alpha: 0.75)
    static let defaultPathWeight = 5.0
    /// Google's default marker: normal-sized and red.
    static let defaultMarkerColour = Colour(hex: 0xFF0000)

    /// The scene and encoding a `/staticmap` request asks for.
    public static func frame(from parameters: [(String, String)], catalog: StyleCatalog) throws(FrameRequestError) -> (scene: Scene, encoding: FrameEncoding) {
        var values: [String: String] = [:]
        var paths: [any SceneLayer] = [], markers: [any SceneLayer] = [], visible: [Coordinate] = []
        for (name, value) in parameters {
            guard allowed.contains(name) else {
                throw .invalid("\(name): not offered; allowed: \(allowed.sorted().joined(separator: ", "))")
            }
            switch name {
            case "markers": markers += try self.markers(value)
            case "path": paths.append(try path(value))
            case "visible": visible += try styleAndPoints(value, parameter: "visible", fields: []).1
            default:
                guard values.updateValue(value, forKey: name) == nil else { throw .invalid("\(name): given more than once; allowed once") }
            }
        }
        // Google draws every marker over every path, whatever their order in the query.
        var objects = paths + markers
        guard objects.count <= MapObjects.maximumPerScene else {
            throw .invalid("markers and path: \(objects.count) objects; allowed at most \(MapObjects.maximumPerScene)")
        }
        var frame: [String: String] = [:]
        guard let size = values["size"] else { throw .invalid("size: required, as {width}x{height}, such as 320x480") }
        let sides = size.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw .invalid("size: '\(size.prefix(20))' is not {width}x{height}, such as 320x480")
        }
        (frame["width"], frame["height"]) = (String(sides[0]), String(sides[1]))
        switch (values["center"], values["zoom"]) {
        case (nil, nil):
            if let area = GeoBounds(containing: visible) { objects.append(VisibleArea(bounds: area)) }
            guard !objects.isEmpty else { throw .invalid("center and zoom: required when there are no markers, paths or visible places to fit") }
        case (let center?, let zoom?):
            let point: Coordinate
            do {
                point = try Coordinate(queryText: Substring(center), parameter: "center")
            } catch {
                throw .invalid(error.description)
            }
            guard let level = Int(zoom) else { throw .invalid("zoom: '\(zoom.prefix(20))' is not a whole number") }
            guard visible.isEmpty else { throw .invalid("visible: only without center and zoom, when the frame is fitted") }
            (frame["lat"], frame["lon"], frame["zoom"]) = (String(point.latitude), String(point.longitude), String(level))
        case (nil, _): throw .invalid("center: required with zoom")
        case (_, nil): throw .invalid("zoom: required with center")
        }
        if let scale = values["scale"] {
            guard scale == "1" || scale == "2" else { throw .invalid("scale: '\(scale.prefix(20))' is not offered; allowed: 1, 2") }
            frame["scale"] = scale
        }
        let mapType = values["maptype"] ?? "roadmap"
        guard let style = styleOfMapType[mapType] else {
            throw .invalid("maptype: '\(mapType.prefix(20))' is not offered; allowed: \(styleOfMapType.keys.sorted().joined(separator: ", "))")
        }
        frame["style"] = style
        let format = values["format"] ?? "png"
        guard let encoding = encodingOfFormat[format] else {
            throw .invalid("format: '\(format.prefix(20))' is not offered; allowed: \(encodingOfFormat.keys.sorted().joined(separator: ", "))")
        }
        let scene = try FrameQuery.scene(
            values: frame, mapObjects: objects, storedRoute: nil, catalog: catalog,
            parameterOfField: [
                "camera.center.lat": "center", "camera.center.lon": "center", "camera.zoom": "zoom", "size.width": "size", "size.height": "size", "style": "maptype",
            ]
        )
        return (scene, encoding)
    }

    /// One `markers` parameter: its style, then its points, each a marker.
    static func markers(_ value: String) throws(FrameRequestError) -> [Marker] {
        let (style, points) = try styleAndPoints(value, parameter: "markers", fields: ["color", "size", "label", "icon", "anchor", "scale"])
        for field in ["icon", "anchor", "scale"] where style[field] != nil {
            throw .invalid("markers.\(field): not offered; custom icons are not fetched")
        }
        let colour = try style["color"].map { text throws(FrameRequestError) in try Self.colour(text, parameter: "markers.color") } ?? defaultMarkerColour
        let sizes: [String: Marker.Size] = ["tiny": .small, "small": .small, "mid": .medium, "normal": .large]
        let sizeName = style["size"] ?? "normal"
        guard let size = sizes[sizeName] else {
            throw .invalid("markers.size: '\(sizeName.prefix(20))' is not offered; allowed: mid, normal, small, tiny")
        }
        var glyph = Marker.Glyph.none
        if let label = style["label"] {
            guard label.count == 1, let character = label.first, character.isASCII, character.isLetter || character.isNumber else {
                throw .invalid("markers.label: '\(label.prefix(20))' is not one of A-Z, 0-9")
            }
            // Google draws labels on mid and normal markers only, and passes over the rest.
            if size != .small { glyph = .label(label.uppercased()) }
        }
        return points.map { Marker(coordinate: $0, colour: colour, size: size, glyph: glyph) }
    }

    /// One `path` parameter: its style, then its points or one `enc:` polyline.
    static func path(_ value: String) throws(FrameRequestError) -> Path {
        let (style, points) = try styleAndPoints(value, parameter: "path", fields: ["color", "weight", "fillcolor", "geodesic"], polylines: ["enc:": 5])
        if let geodesic = style["geodesic"], geodesic != "false" {
            throw .invalid("path.geodesic: '\(geodesic.prefix(20))' is not offered; paths are straight on the map (geodesic:false)")
        }
        guard points.count >= RouteLine.minimumPointsPerPart else {
            throw .invalid("path: has \(points.count) point\(points.count == 1 ? "" : "s"); expected 2 or more lat,lng points or one enc: polyline")
        }
        var weight = defaultPathWeight
        if let text = style["weight"] {
            guard let number = Double(text), Path.widths.contains(number) else {
                throw .invalid("path.weight: '\(text.prefix(20))' is not allowed; expected \(Int(Path.widths.lowerBound)) to \(Int(Path.widths.upperBound)) pixels")
            }
            weight = number
        }
        let colour = try style["color"].map { text throws(FrameRequestError) in try Self.colour(text, parameter: "path.color") } ?? defaultPathColour
        let fill = try style["fillcolor"].map { text throws(FrameRequestError) in try Self.colour(text, parameter: "path.fillcolor") }
        return Path(points: points, colour: colour, width: weight, fill: fill)
    }

    /// The style fields and points of a `markers` or `path` parameter.
    private static func styleAndPoints(
        _ value: String, parameter: String, fields: [String], polylines: KeyValuePairs<String, Int> = [:]
    ) throws(FrameRequestError) -> ([String: String], [Coordinate]) {
        do {
            let query = try StyledPoints(Substring(value), parameter: parameter, fields: fields, polylines: polylines)
            return (query.style, query.points)
        } catch {
            throw .invalid(error.description)
        }
    }

    /// A Google colour: `0xRRGGBB`, `0xRRGGBBAA` or one of its ten names.
    private static func colour(_ text: String, parameter: String) throws(FrameRequestError) -> Colour {
        if let named = colourOfName[text] { return Colour(hex: named) }
        if text.hasPrefix("0x"), let colour = Colour(webHex: text.dropFirst(2)) { return colour }
        throw .invalid("\(parameter): '\(text.prefix(20))' is not a colour; expected 0xRRGGBB, 0xRRGGBBAA or one of \(colourOfName.keys.sorted().joined(separator: ", "))")
    }
}
