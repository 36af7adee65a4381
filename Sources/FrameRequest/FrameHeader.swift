import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import StrictJSON

/// The fields scene files and scripts share, read by one reader with one set of defaults and
/// ranges: `style`, `size`, `scale`, `chrome`, `theme`, and the points and fixed cameras inside them.
///
/// | field | default | allowed |
/// |---|---|---|
/// | `style` | `"osm"` | a style on offer |
/// | `size` | 320 x 480 | `width` and `height` 1...4096 device pixels a side after `scale`; with chrome, `height` above the chrome's 113 |
/// | `scale` | 1 | 1 or 2 |
/// | `chrome` | false | true or false |
/// | `theme` | `"cyclestreets"` | a `Theme.Name`: `"cyclestreets"`, `"high-contrast"` or `"categories"` |
///
/// Points are `{"lat", "lon"}` inside `WebMercator.inputLatitudeRange` and
/// `WebMercator.longitudeRange`; a fixed camera is `{"center": point, "zoom": z}` with `z`
/// inside the style's zoom range.
///
/// The readers differ deliberately in one field: a scene is a single frame and must say where
/// it looks (`camera` is required, and may fit its overlays), while a script starts the app,
/// which opens at `MapDefaults.fallbackCamera` when it is given no camera.
public struct FrameHeader {
    /// The style a scene or script without `style` uses.
    public static let defaultStyle = "osm"

    public var style: String
    public var zoomRange: ZoomRange
    /// The frame, its scale and whether the phone chrome is drawn around the map panel.
    public var layout: ScreenLayout
    public var theme: Theme

    /// Reads the header fields of `root`; `styles` are the styles on offer with their zoom ranges.
    public init(_ root: JSONObjectReader, styles: [String: ZoomRange]) throws(JSONFieldError) {
        style = try root.string("style") ?? Self.defaultStyle
        guard let zoomRange = styles[style] else {
            throw JSONFieldError(path: "style", value: .string(style), allowed: "one of \(styles.keys.sorted().joined(separator: ", "))")
        }
        self.zoomRange = zoomRange
        layout = try Self.readLayout(root)
        theme = try Self.readTheme(root)
    }

    private static func readTheme(_ root: JSONObjectReader) throws(JSONFieldError) -> Theme {
        guard let name = try root.string("theme") else { return .cycleStreets }
        return try themeName(name, path: "theme").theme
    }

    /// The theme `name` names, wherever a request names one; `path` is the field, for messages.
    public static func themeName(_ name: String, path: String) throws(JSONFieldError) -> Theme.Name {
        guard let theme = Theme.Name(rawValue: name) else {
            throw JSONFieldError(path: path, value: .string(String(name.prefix(40))), allowed: "one of \(Theme.Name.allowed)")
        }
        return theme
    }

    private static func readLayout(_ root: JSONObjectReader) throws(JSONFieldError) -> ScreenLayout {
        let chrome = try root.bool("chrome") ?? false
        let scale = try root.integer("scale", in: Viewport.scales) ?? 1
        guard let size = try root.object("size") else { return ScreenLayout(scale: scale, chrome: chrome) }
        try size.rejectUnknownFields(allowed: ["width", "height"])
        let sides = Viewport.sides(atScale: scale), largest = sides.upperBound
        let width = try size.requiredInteger("width", in: sides)
        let height = try size.requiredInteger("height", in: sides)
        if chrome, height <= PhoneChrome.height {
            throw JSONFieldError(
                path: size.path(of: "height"),
                message: "\(height) leaves no map panel under the chrome; allowed \(PhoneChrome.height + 1)...\(largest) with \"chrome\": true"
            )
        }
        return ScreenLayout(width: width, height: height, scale: scale, chrome: chrome)
    }

    /// A `{"center": {"lat", "lon"}, "zoom": z}` camera with `z` in the style's range.
    /// `alternatives` are other fields the object may hold instead, named when a field is unknown.
    public func fixedCamera(_ camera: JSONObjectReader, alternatives: [String] = []) throws(JSONFieldError) -> Camera {
        try camera.rejectUnknownFields(allowed: ["center", "zoom"] + alternatives)
        let center = try Self.point(camera.requiredObject("center"))
        guard let zoomValue = camera.fields["zoom"] else {
            throw JSONFieldError(path: camera.path(of: "zoom"), value: nil, allowed: "a number in the \(style) style's range \(zoomRange)")
        }
        guard case .number(let zoom) = zoomValue else {
            throw JSONFieldError(path: camera.path(of: "zoom"), value: zoomValue, allowed: "a number in \(zoomRange)")
        }
        guard zoomRange.contains(zoom) else {
            throw JSONFieldError(path: camera.path(of: "zoom"), message: "\(JSONValue.format(zoom)) is outside the \(style) style's zoom range \(zoomRange)")
        }
        return Camera(center: center, zoom: zoom)
    }

    /// A `{"lat", "lon"}` point on the map; `extraFields` are other fields the object may hold.
    public static func point(_ reader: JSONObjectReader, extraFields: [String] = []) throws(JSONFieldError) -> Coordinate {
        try reader.rejectUnknownFields(allowed: ["lat", "lon"] + extraFields)
        return try reader.coordinate()
    }
}
