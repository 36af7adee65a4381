import ImageCodec
import MapGeometry
import StrictJSON

/// A kind of thing a scene may carry over the map besides the app's overlays, such as a
/// request's marker. Everything about a kind lives in its one file, as go-staticmaps keeps a
/// marker in `marker.go`: its model, how each theme draws it (from `Theme.mapObjects`), how it
/// draws, the elements it reports, what a fitted camera must show of it, and how scene files
/// and query strings write it. A new kind is that file and one line in `MapObjects.kinds`.
public protocol MapObject: OverlayPainter, SceneLayer {
    /// Its name: a scene layer's `"type"`, and the frame query's parameter.
    static var typeName: String { get }
    /// The kinds of element it reports: each with its own legend entry, or listed under another's.
    static var elementKinds: [ElementKind] { get }
    /// Reads one from a scene's layer object, whose `"type"` is `typeName`. Unknown fields are errors.
    init(reading layer: JSONObjectReader) throws(JSONFieldError)
    /// Reads those one query parameter's value writes; `parameter` names the parameter, with
    /// its position among those of its name, for messages ("marker[2]").
    static func read(query value: Substring, parameter: String) throws(JSONFieldError) -> [Self]
}

/// What a theme asks of every map object that brings its own colours and sizes: each object
/// reads it (`Theme.mapObjects`) and draws accordingly.
public struct MapObjectLook: Hashable, Sendable {
    /// Each object in its kind's flat palette colour (`ElementKind.paletteColour`) with ink,
    /// rather than its own colours.
    public var paletteColours: Bool
    /// An outline around every object, in place of its own; nil keeps each object's own.
    public var outline: Colour?
    /// The outline's width in logical pixels.
    public var outlineWidth: Double
    /// How much larger than it asks each object is drawn.
    public var sizeFactor: Double
    /// Whether objects cast their soft shadows.
    public var shadows: Bool

    /// Colours and sizes as each object asks, with its shadow: the CycleStreets theme.
    public static let asRequested = MapObjectLook(paletteColours: false, outline: nil, outlineWidth: 1, sizeFactor: 1, shadows: true)
    /// Half as large again, outlined 2 px in black, without shadows: the high-contrast theme.
    public static let outlined = MapObjectLook(paletteColours: false, outline: .black, outlineWidth: 2, sizeFactor: 1.5, shadows: false)
    /// Flat palette colours with ink, without shadows: the categories theme.
    public static let palette = MapObjectLook(paletteColours: true, outline: nil, outlineWidth: 1, sizeFactor: 1, shadows: false)
}

/// The kinds of map object scenes, scripts and frame queries may carry, and the one reader of
/// each from scene layers and query parameters.
public enum MapObjects {
    /// Every kind, by its `typeName`. A new kind is one line here.
    public static let kinds: [any MapObject.Type] = [
        Marker.self,
        Path.self,
        GeoJSONOverlay.self,
    ]

    /// The most map objects one scene may carry, of all kinds together.
    public static let maximumPerScene = 1_000

    /// The longest title a map object may have, in characters: what `hit` and `describe` speak.
    public static let maximumTitleLength = 200

    /// A field's colour as scene layers and query parameters write it, `RRGGBB` or
    /// `RRGGBBAA`; nil when the field is not given. `path` names the field for messages.
    public static func colour(_ text: String?, path: String) throws(JSONFieldError) -> Colour? {
        guard let text else { return nil }
        guard let colour = Colour(webHex: Substring(text)) else {
            throw JSONFieldError(path: path, value: .string(text), allowed: "RRGGBB or RRGGBBAA in hexadecimal, # optional")
        }
        return colour
    }

    /// A field's title, checked against `maximumTitleLength`; nil when the field is not given.
    public static func title(_ text: String?, path: String) throws(JSONFieldError) -> String? {
        guard let text else { return nil }
        guard (1...maximumTitleLength).contains(text.count) else {
            throw JSONFieldError(path: path, message: "has \(text.count) characters; allowed 1...\(maximumTitleLength)")
        }
        return text
    }

    /// The type names, as messages list what is allowed.
    public static var typeNames: [String] { kinds.map { $0.typeName } }

    /// Reads a scene's `"layers"`: an array of objects, each with a `"type"` naming its kind.
    public static func read(layers items: [JSONValue], path: String) throws(JSONFieldError) -> [any SceneLayer] {
        guard items.count <= maximumPerScene else {
            throw JSONFieldError(path: path, message: "has \(items.count) layers; allowed at most \(maximumPerScene)")
        }
        var layers: [any SceneLayer] = []
        for (index, item) in items.enumerated() {
            let reader = try JSONObjectReader(item, path: "\(path)[\(index)]")
            let type = try reader.requiredString("type")
            guard let kind = kinds.first(where: { $0.typeName == type }) else {
                throw JSONFieldError(path: reader.path(of: "type"), value: .string(type), allowed: "one of \(typeNames.joined(separator: ", "))")
            }
            layers.append(try kind.init(reading: reader))
        }
        return layers
    }

    /// Reads the map objects among a query's parameters, bottom to top in the order given,
    /// whatever their kinds; the other parameters are left to the caller.
    public static func read(query parameters: [(name: String, value: String)]) throws(JSONFieldError) -> [any SceneLayer] {
        let counts = Dictionary(parameters.map { ($0.name, 1) }, uniquingKeysWith: +)
        var seen: [String: Int] = [:]
        var layers: [any SceneLayer] = []
        for (name, value) in parameters {
            guard let kind = kinds.first(where: { $0.typeName == name }) else { continue }
            seen[name, default: 0] += 1
            let parameter = counts[name] == 1 ? name : "\(name)[\(seen[name]!)]"
            layers += try kind.read(query: Substring(value), parameter: parameter) as [any SceneLayer]
            guard layers.count <= maximumPerScene else {
                throw JSONFieldError(path: parameter, message: "brings the map objects to more than \(maximumPerScene); allowed at most \(maximumPerScene)")
            }
        }
        return layers
    }
}

extension JSONObjectReader {
    /// The `"lat"` and `"lon"` of this object, inside `WebMercator.inputLatitudeRange` and
    /// `WebMercator.longitudeRange`.
    public func coordinate() throws(JSONFieldError) -> Coordinate {
        Coordinate(
            latitude: try requiredNumber("lat", in: WebMercator.inputLatitudeRange),
            longitude: try requiredNumber("lon", in: WebMercator.longitudeRange)
        )
    }
}

extension Coordinate {
    /// Reads `lat,lon`, as query strings write a point; `parameter` names where it was, for messages.
    public init(queryText text: Substring, parameter: String) throws(JSONFieldError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]), latitude.isFinite, longitude.isFinite else {
            throw JSONFieldError(path: parameter, message: "'\(text.prefix(40))' is not a point; expected lat,lon in decimal degrees; addresses are not looked up")
        }
        let latitudes = WebMercator.inputLatitudeRange, longitudes = WebMercator.longitudeRange
        guard latitudes.contains(latitude), longitudes.contains(longitude) else {
            throw JSONFieldError(
                path: parameter,
                message: "\(text) is off the map; allowed latitudes \(JSONObjectReader.describe(latitudes)), longitudes \(JSONObjectReader.describe(longitudes))"
            )
        }
        self.init(latitude: latitude, longitude: longitude)
    }
}

extension Colour {
    /// Reads `RRGGBB` or `RRGGBBAA` in hexadecimal, with or without a leading `#`, as scene
    /// files and query strings write a colour; nil for anything else.
    public init?(webHex text: Substring) {
        let digits = text.hasPrefix("#") ? text.dropFirst() : text
        guard digits.count == 6 || digits.count == 8, let opaque = Colour(hexDigits: digits.prefix(6)) else { return nil }
        guard digits.count == 8 else { self = opaque; return }
        guard digits.suffix(2).allSatisfy(\.isHexDigit), let alpha = UInt8(digits.suffix(2), radix: 16) else { return nil }
        self = Colour(redLevel: opaque.redLevel, greenLevel: opaque.greenLevel, blueLevel: opaque.blueLevel, alphaLevel: alpha)
    }

    /// Black or white, whichever stands out more against this colour: ink for text drawn on it.
    public var legibleInk: Colour {
        ContrastRatio(.black, self) >= ContrastRatio(.white, self) ? .black : .white
    }
}
