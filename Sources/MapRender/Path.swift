import Foundation
import ImageCodec
import MapGeometry
import Payloads
import StrictJSON
import Wording

/// A path of the request's own: a line through its points in the colour and width asked for,
/// and with a fill, the area it closes. Hit-testing and descriptions speak its title.
///
/// In a scene's `layers`, where only `points` is required, as `[lon, lat]` positions (GeoJSON
/// order) or as an encoded polyline:
///
///     {"type": "path", "points": [[0.119, 52.205], [0.13, 52.21]], "colour": "#0072B2CC",
///      "width": 5, "fill": "#0072B233", "title": "Ring road"}
///     {"type": "path", "points": "enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@"}
///
/// As a frame query parameter, its style first, then two or more `lat,lon` points, or one
/// encoded polyline, which runs to the end of the parameter: an encoded polyline may hold `|`.
///
///     path=colour:0072B2CC|width:5|52.205,0.119|52.21,0.13
///     path=width:3|enc6:<a polyline at precision 6, as OSRM and Valhalla write it>
///
/// | field | default | allowed |
/// |---|---|---|
/// | `points` | required | 2 to 100,000 points: `lat,lon` in a query, `[lon, lat]` in a scene; or `enc:` (precision 5, as Google and Mapbox write) or `enc6:` (precision 6) |
/// | `colour` | `0050C8CC` | `RRGGBB` or `RRGGBBAA` in hexadecimal, `#` optional |
/// | `width` | 4 | 0 to 50 logical pixels; 0 draws no line, only the fill |
/// | `fill` | none | a colour as above: the area the path closes, its last point joined to its first |
/// | `title` | none | up to 200 characters, spoken in place of "Path" |
///
/// A polyline written at precision 6 and sent as `enc:` is refused when a point falls off the
/// map, which it does anywhere farther than 9 degrees of latitude or 18 of longitude from
/// (0, 0); nearer than that, it cannot be told from a precision-5 polyline, and draws tenfold.
///
/// Themes: the CycleStreets theme draws the colours asked for; high contrast draws the line
/// half as wide again on a black casing 2 px a side; categories draws line and fill in the
/// palette's indigo.
public struct Path: MapObject {
    public var points: [Coordinate]
    public var colour: Colour
    /// In logical pixels.
    public var width: Double
    /// The area the path closes, at this colour; nil for a line alone.
    public var fill: Colour?
    /// Rings cut out of the fill and outlined as the path is, as a GeoJSON polygon's inner
    /// rings are; each ends where it starts.
    public var holes: [[Coordinate]]
    /// What hit-testing and descriptions call the path; nil says "Path".
    public var title: String?

    public static let defaultColour = Colour(hex: 0x0050C8, alpha: 0.8)
    public static let defaultWidth = 4.0
    public static let widths: ClosedRange<Double> = 0...50

    public init(
        points: [Coordinate], colour: Colour = Path.defaultColour, width: Double = Path.defaultWidth, fill: Colour? = nil, holes: [[Coordinate]] = [],
        title: String? = nil
    ) {
        self.points = points
        self.colour = colour
        self.width = width
        self.fill = fill
        self.holes = holes
        self.title = title
    }

    // MARK: Drawing

    public static let typeName = "path"
    public static let elementKinds: [ElementKind] = [.path]

    /// Everything that decides the path's pixels in a theme.
    struct Look {
        var colour: Colour
        /// In logical pixels.
        var width: Double
        var fill: Colour?
        /// A wider line beneath, showing `casingWidth` logical pixels each side; clear for none.
        var casing: Colour
        var casingWidth: Double

        /// How wide the line draws, casing included, in logical pixels.
        var drawnWidth: Double { width > 0 ? width + 2 * casingWidth : 0 }
    }

    /// How the path draws in `theme` (`Theme.mapObjects`).
    func look(in theme: Theme) -> Look {
        let objects = theme.mapObjects
        let palette = ElementKind.path.paletteColour
        return Look(
            colour: objects.paletteColours ? palette : colour,
            width: width * objects.sizeFactor,
            fill: fill.map { objects.paletteColours ? palette : $0 },
            casing: objects.outline ?? .clear,
            casingWidth: objects.outline == nil ? 0 : objects.outlineWidth
        )
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        guard let bounds = GeoBounds(containing: points) else { return [] }
        return [FitItem(bounds: bounds, pixelMargins: .uniform(look(in: theme).drawnWidth / 2))]
    }

    public func draw(in context: DrawingContext) {
        let look = look(in: context.theme), scale = context.frame.scale
        if let fill = look.fill {
            context.canvas.fillPolygon(([points] + holes).map { $0.map(context.frame.pixel(for:)) }, with: fill)
        }
        guard look.width > 0 else { return }
        let lines = context.frame.drawnLines(outlines)
        if look.casingWidth > 0 {
            context.canvas.strokeLines(lines, with: look.casing, width: look.drawnWidth * scale, cap: .round, join: .round)
        }
        context.canvas.strokeLines(lines, with: look.colour, width: look.width * scale, cap: .round, join: .round)
    }

    /// The line as wide as it draws, placed at the point halfway along it.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let width = max(look(in: theme).drawnWidth, 1) * frame.scale
        let closed = fill == nil ? [points] : [points + [points[0]]]
        let lines = frame.visibleLines(closed + holes, reach: width / 2 + frame.scale)
        return [DrawnElement(.path, label: title.map(Phrase.text) ?? Phrase(.path), shape: .polylines(lines, width: width), place: halfwayPoint)]
    }

    /// The lines the path strokes: its points, then each hole.
    private var outlines: [[Coordinate]] { [points] + holes }

    /// The point halfway along the path, by distance on the ground.
    var halfwayPoint: Coordinate {
        let legs = zip(points, points.dropFirst()).map { ($0, $1, $0.distance(to: $1)) }
        var remaining = legs.reduce(0) { $0 + $1.2 } / 2
        for (from, to, metres) in legs {
            guard remaining > metres, metres > 0 else {
                let t = metres > 0 ? remaining / metres : 0
                return Coordinate(latitude: from.latitude + (to.latitude - from.latitude) * t, longitude: from.longitude + (to.longitude - from.longitude) * t)
            }
            remaining -= metres
        }
        return points[points.count - 1]
    }

    // MARK: Reading

    static let fields = ["colour", "width", "fill", "title"]

    public init(reading layer: JSONObjectReader) throws(JSONFieldError) {
        try layer.rejectUnknownFields(allowed: ["type", "points"] + Self.fields)
        let pointsPath = layer.path(of: "points")
        let points: [Coordinate]
        switch layer.fields["points"] {
        case .string(let text)?:
            points = try Self.encodedPoints(Substring(text), path: pointsPath)
        case .array(let positions)?:
            points = try Self.positions(positions, path: pointsPath)
        case let other:
            throw JSONFieldError(path: pointsPath, value: other, allowed: "an array of [lon, lat] positions, or an encoded polyline as \"enc:...\" or \"enc6:...\"")
        }
        var values: [String: String] = [:]
        for field in ["colour", "fill", "title"] {
            if let value = try layer.string(field) { values[field] = value }
        }
        if let width = layer.fields["width"] {
            values["width"] = JSONValue.format(try JSONObjectReader.number(width, path: layer.path(of: "width"), in: Self.widths))
        }
        try self.init(points: points, values: values, path: layer.path(of:))
    }

    public static func read(query value: Substring, parameter: String) throws(JSONFieldError) -> [Path] {
        let query = try StyledPoints(value, parameter: parameter, fields: fields, polylines: polylinePrecisions)
        guard query.points.count >= RouteLine.minimumPointsPerPart else {
            throw JSONFieldError(
                path: parameter, message: "has \(query.points.count) point\(query.points.count == 1 ? "" : "s"); expected the style's fields, then 2 or more lat,lon points or one enc: or enc6: polyline, separated by |"
            )
        }
        if let width = query.style["width"], Double(width).map({ $0.isFinite }) != true {
            throw JSONFieldError(path: "\(parameter).width", message: "'\(width.prefix(20))' is not a number")
        }
        return [try Path(points: query.points, values: query.style) { "\(parameter).\($0)" }]
    }

    /// The prefixes of encoded polylines, with their precisions.
    static let polylinePrecisions: KeyValuePairs<String, Int> = ["enc:": 5, "enc6:": 6]

    /// The points an `enc:` (precision 5) or `enc6:` (precision 6) polyline gives.
    private static func encodedPoints(_ text: Substring, path: String) throws(JSONFieldError) -> [Coordinate] {
        guard let (prefix, precision) = polylinePrecisions.first(where: { text.hasPrefix($0.key) }) else {
            throw JSONFieldError(path: path, message: "'\(text.prefix(20))' is not a polyline; write enc: (precision 5) or enc6: (precision 6) before it")
        }
        do {
            return try EncodedPolyline.decode(text.dropFirst(prefix.count), precision: precision)
        } catch {
            throw JSONFieldError(path: path, message: "the \(prefix) polyline \(error.description)")
        }
    }

    /// `[lon, lat]` positions, GeoJSON's order, a third number (a height) allowed and passed over.
    private static func positions(_ positions: [JSONValue], path: String) throws(JSONFieldError) -> [Coordinate] {
        guard positions.count <= RouteLine.maximumPoints else {
            throw JSONFieldError(path: path, message: "has \(positions.count) points; allowed at most \(RouteLine.maximumPoints)")
        }
        var points: [Coordinate] = []
        for (index, position) in positions.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard case .array(let numbers) = position, numbers.count == 2 || numbers.count == 3 else {
                throw JSONFieldError(path: itemPath, value: position, allowed: "a [lon, lat] position (GeoJSON order)")
            }
            points.append(Coordinate(
                latitude: try JSONObjectReader.number(numbers[1], path: "\(itemPath)[1] (lat)", in: WebMercator.inputLatitudeRange),
                longitude: try JSONObjectReader.number(numbers[0], path: "\(itemPath)[0] (lon)", in: WebMercator.longitudeRange)
            ))
        }
        guard points.count >= RouteLine.minimumPointsPerPart else {
            throw JSONFieldError(path: path, message: "has \(points.count) point\(points.count == 1 ? "" : "s"); allowed 2...\(RouteLine.maximumPoints)")
        }
        return points
    }

    /// A path through `points` from its fields as text; `path` names a field for messages.
    private init(points: [Coordinate], values: [String: String], path: (String) -> String) throws(JSONFieldError) {
        var width = Self.defaultWidth
        if let text = values["width"], let number = Double(text) {
            guard Self.widths.contains(number) else {
                throw JSONFieldError(path: path("width"), message: "\(text) is outside the allowed range \(JSONObjectReader.describe(Self.widths))")
            }
            width = number
        }
        let fill = try MapObjects.colour(values["fill"], path: path("fill"))
        guard width > 0 || fill != nil else {
            throw JSONFieldError(path: path("width"), message: "0 draws nothing without a fill; give a width above 0 or a fill")
        }
        let title = try MapObjects.title(values["title"], path: path("title"))
        let colour = try MapObjects.colour(values["colour"], path: path("colour")) ?? Self.defaultColour
        self.init(points: points, colour: colour, width: width, fill: fill, title: title)
    }
}

extension ElementKind {
    /// A request's own path. Its palette colour is Paul Tol's muted indigo, apart from every
    /// other entry's.
    public static let path = ElementKind("path", legendName: "Path", paletteColour: Colour(hex: 0x332288))
}
