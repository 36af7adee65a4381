import Foundation
import ImageCodec
import MapGeometry
import StrictJSON
import Wording

/// A marker of the request's own: a pin whose tip is its point, in the colour and size asked
/// for, with a label of one or two letters or digits, or a built-in icon, in its head, and a
/// title that hit-testing and descriptions speak.
///
/// In a scene's `layers`, where only `lat` and `lon` are required:
///
///     {"type": "marker", "lat": 52.205, "lon": 0.119, "colour": "#E03C31", "size": "medium",
///      "label": "A", "anchor": "bottom", "title": "Market square"}
///
/// As a frame query parameter, its style first, then one or more points, each a marker:
///
///     marker=colour:E03C31|size:large|label:A|52.205,0.119|52.21,0.13
///
/// | field | default | allowed |
/// |---|---|---|
/// | `colour` | `E03C31` | `RRGGBB` or `RRGGBBAA` in hexadecimal, `#` optional |
/// | `size` | `medium` | `small`, `medium`, `large` (heads 12, 18 and 24 px across) |
/// | `label` | none | 1 or 2 of A-Z, a-z, 0-9; not on a small marker |
/// | `icon` | none | `dot`, `star`, `plus`; not with a label |
/// | `anchor` | `bottom` | `bottom` (the tip on the point) or `center` (the head on it) |
/// | `title` | none | up to 200 characters, spoken in place of "Marker A" |
///
/// Themes: the CycleStreets theme draws the colour asked for, outlined in a darker shade, with
/// a soft shadow; high contrast draws it half as large again, outlined in black; categories
/// draws every marker in the palette's rose with black ink. A label or icon is black or white,
/// whichever stands out more against the fill.
public struct Marker: MapObject {
    public enum Size: String, CaseIterable, Hashable, Sendable {
        case small, medium, large

        /// The head's radius in logical pixels.
        var headRadius: Double {
            switch self {
            case .small: 6
            case .medium: 9
            case .large: 12
            }
        }
    }

    /// Which part of the marker stands on its point.
    public enum Anchor: String, CaseIterable, Hashable, Sendable {
        /// The tip.
        case bottom
        /// The middle of the head.
        case center
    }

    /// The built-in icons, drawn with Cairo.
    public enum Icon: String, CaseIterable, Hashable, Sendable {
        case dot, star, plus
    }

    /// What the head shows.
    public enum Glyph: Hashable, Sendable {
        case none
        /// One or two letters or digits.
        case label(String)
        case icon(Icon)
    }

    public var coordinate: Coordinate
    public var colour: Colour
    public var size: Size
    public var glyph: Glyph
    public var anchor: Anchor
    /// What hit-testing and descriptions call the marker; nil says "Marker", with its label.
    public var title: String?

    public static let defaultColour = Colour(hex: 0xE03C31)

    public init(
        coordinate: Coordinate, colour: Colour = Marker.defaultColour, size: Size = .medium, glyph: Glyph = .none,
        anchor: Anchor = .bottom, title: String? = nil
    ) {
        self.coordinate = coordinate
        self.colour = colour
        self.size = size
        self.glyph = glyph
        self.anchor = anchor
        self.title = title
    }

    // MARK: Drawing

    public static let typeName = "marker"
    public static let elementKinds: [ElementKind] = [.marker]

    /// The head's centre above the tip, in head radii.
    static let headHeight = 2.4

    /// Everything that decides the marker's pixels in a theme: its sprite's key.
    struct Look: Hashable {
        var fill: Colour
        var outline: Colour
        var ink: Colour
        var outlineWidth: Double
        var headRadius: Double
        var shadow: Bool
        var glyph: Glyph
        var anchor: Anchor

        /// How far the head rises above the point the marker stands on, in logical pixels.
        var headCentreY: Double { -Marker.headHeight * headRadius + anchorShift }
        /// How far the tip sits below the point: nothing when the tip is the anchor.
        var anchorShift: Double { anchor == .center ? Marker.headHeight * headRadius : 0 }

        /// How far the pin reaches from its point, without the shadow.
        var pinExtent: EdgeInsets {
            let r = headRadius, w = outlineWidth / 2
            return EdgeInsets(top: (Marker.headHeight + 1) * r + w - anchorShift, left: r + w, bottom: w + anchorShift, right: r + w)
        }

        /// How far the sprite reaches: the pin, and the shadow cast to the right on the ground,
        /// in whole logical pixels, so that the sprite lands on whole device pixels.
        var extent: EdgeInsets {
            var extent = pinExtent
            if shadow {
                extent.right = max(extent.right, 2.5 * headRadius + 2)
                extent.bottom += 1
            }
            return EdgeInsets(
                top: extent.top.rounded(.up), left: extent.left.rounded(.up), bottom: extent.bottom.rounded(.up), right: extent.right.rounded(.up)
            )
        }
    }

    /// How the marker draws in `theme` (`Theme.mapObjects`).
    func look(in theme: Theme) -> Look {
        let objects = theme.mapObjects
        let fill = objects.paletteColours ? ElementKind.marker.paletteColour : colour
        let ownOutline = Colour(red: fill.red * 0.6, green: fill.green * 0.6, blue: fill.blue * 0.6, alpha: fill.alpha)
        return Look(
            fill: fill,
            outline: objects.paletteColours ? fill : objects.outline ?? ownOutline,
            ink: objects.paletteColours ? CategoryPalette.ink : fill.legibleInk,
            outlineWidth: objects.outlineWidth,
            headRadius: size.headRadius * objects.sizeFactor,
            shadow: objects.shadows,
            glyph: glyph,
            anchor: anchor
        )
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: GeoBounds(point: coordinate), pixelMargins: look(in: theme).extent)]
    }

    public func draw(in context: DrawingContext) {
        let look = look(in: context.theme), scale = context.frame.scale, antialiasing = context.theme.antialiasing
        let sprite = context.sprites.sprite(look, scale: scale, antialiasing: antialiasing) {
            SpriteCache.renderSprite(
                extent: look.extent, scale: scale, antialiasing: antialiasing,
                shadowColour: look.shadow ? Colour(red: 0, green: 0, blue: 0, alpha: 0.35) : .clear, shadowBlur: Int(scale.rounded()),
                // The shadow is the pin laid on the ground from its tip: sheared right and flattened.
                shadowTransform: { $0.transform(xx: 1, yx: 0, xy: -0.55, yy: 0.3, x0: 0.55 * look.anchorShift, y0: 0.7 * look.anchorShift) },
                outline: { Self.addPin(look, to: $0) }
            ) { canvas in
                Self.addPin(look, to: canvas)
                canvas.fillPathPreserving(with: look.fill)
                canvas.strokePath(with: look.outline, width: look.outlineWidth, cap: .round, join: .round)
                Self.drawGlyph(look, on: canvas)
            }
        }
        context.sprites.draw(sprite, at: context.frame.pixel(for: coordinate), on: context.canvas)
    }

    /// The pin: a round head, and two straight sides meeting at the tip.
    private static func addPin(_ look: Look, to canvas: Canvas) {
        let r = look.headRadius, centreY = look.headCentreY, tipY = look.anchorShift
        let spread = acos(1 / headHeight)
        canvas.moveTo(0, tipY)
        canvas.arc(centerX: 0, centerY: centreY, radius: r, from: .pi / 2 + spread, to: .pi / 2 - spread + 2 * .pi)
        canvas.closePath()
    }

    private static func drawGlyph(_ look: Look, on canvas: Canvas) {
        let r = look.headRadius, centreY = look.headCentreY
        switch look.glyph {
        case .none:
            break
        case .label(let text):
            canvas.setFont(size: (text.count == 1 ? 1.25 : 0.95) * r, bold: true)
            let ink = canvas.textInkBounds(text)
            canvas.drawText(text, x: -(ink.minX + ink.maxX) / 2, y: centreY - (ink.minY + ink.maxY) / 2, colour: look.ink)
        case .icon(.dot):
            canvas.addCircle(centerX: 0, centerY: centreY, radius: 0.4 * r)
            canvas.fillPath(with: look.ink)
        case .icon(.star):
            for point in 0..<10 {
                let radius = point.isMultiple(of: 2) ? 0.7 * r : 0.3 * r, angle = -Double.pi / 2 + Double(point) * .pi / 5
                let x = radius * cos(angle), y = centreY + radius * sin(angle)
                if point == 0 { canvas.moveTo(x, y) } else { canvas.lineTo(x, y) }
            }
            canvas.closePath()
            canvas.fillPath(with: look.ink)
        case .icon(.plus):
            let arm = 0.6 * r, half = 0.15 * r
            canvas.fill(PixelRect(minX: -arm, minY: centreY - half, maxX: arm, maxY: centreY + half), with: look.ink)
            canvas.fill(PixelRect(minX: -half, minY: centreY - arm, maxX: half, maxY: centreY + arm), with: look.ink)
        }
    }

    /// The pin's box, without its shadow, as the sprite is placed.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let extent = look(in: theme).pinExtent, point = frame.pixel(for: coordinate), scale = frame.scale
        let x = point.x.rounded(), y = point.y.rounded()
        let box = PixelRect(
            minX: x - extent.left * scale, minY: y - extent.top * scale, maxX: x + extent.right * scale, maxY: y + extent.bottom * scale
        )
        return [DrawnElement(.marker, label: spokenLabel, shape: .box(box), place: coordinate)]
    }

    /// Its title, or "Marker" with its label or icon.
    var spokenLabel: Phrase {
        if let title { return .text(title) }
        switch glyph {
        case .none: return Phrase(.marker)
        case .label(let text): return Phrase(.markerLabelled, .text(text))
        case .icon(.dot): return Phrase(.markerWithDot)
        case .icon(.star): return Phrase(.markerWithStar)
        case .icon(.plus): return Phrase(.markerWithPlus)
        }
    }

    // MARK: Reading

    static let fields = ["colour", "size", "label", "icon", "anchor", "title"]

    public init(reading layer: JSONObjectReader) throws(JSONFieldError) {
        try layer.rejectUnknownFields(allowed: ["type", "lat", "lon"] + Self.fields)
        var values: [String: String] = [:]
        for field in Self.fields {
            if let value = try layer.string(field) { values[field] = value }
        }
        try self.init(coordinate: layer.coordinate(), values: values, path: layer.path(of:))
    }

    public static func read(query value: Substring, parameter: String) throws(JSONFieldError) -> [Marker] {
        let query = try StyledPoints(value, parameter: parameter, fields: fields, maximumPoints: MapObjects.maximumPerScene)
        guard !query.points.isEmpty else {
            throw JSONFieldError(path: parameter, message: "has no point; expected the style's fields, then one or more lat,lon points, separated by |")
        }
        var markers: [Marker] = []
        for point in query.points {
            markers.append(try Marker(coordinate: point, values: query.style) { "\(parameter).\($0)" })
        }
        return markers
    }

    /// A marker at `coordinate` from its fields as text; `path` names a field for messages.
    private init(coordinate: Coordinate, values: [String: String], path: (String) -> String) throws(JSONFieldError) {
        func choice<Value: RawRepresentable & CaseIterable>(_ field: String, default defaultValue: Value) throws(JSONFieldError) -> Value
        where Value.RawValue == String {
            guard let text = values[field] else { return defaultValue }
            guard let value = Value(rawValue: text) else {
                throw JSONFieldError(path: path(field), value: .string(text), allowed: "one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }
        let colour = try MapObjects.colour(values["colour"], path: path("colour")) ?? Self.defaultColour
        let size: Size = try choice("size", default: .medium)
        var glyph = Glyph.none
        if let label = values["label"] {
            guard (1...2).contains(label.count), label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw JSONFieldError(path: path("label"), value: .string(label), allowed: "1 or 2 letters or digits (A-Z, a-z, 0-9)")
            }
            guard size != .small else {
                throw JSONFieldError(path: path("label"), message: "a small marker has no room for a label; use size medium or large, or an icon")
            }
            glyph = .label(label)
        }
        if values["icon"] != nil {
            guard glyph == .none else { throw JSONFieldError(path: path("icon"), message: "a marker shows a label or an icon, not both") }
            glyph = .icon(try choice("icon", default: Icon.dot))
        }
        let anchor: Anchor = try choice("anchor", default: .bottom)
        let title = try MapObjects.title(values["title"], path: path("title"))
        self.init(coordinate: coordinate, colour: colour, size: size, glyph: glyph, anchor: anchor, title: title)
    }
}

extension ElementKind {
    /// A request's own marker. Its palette colour is Paul Tol's muted rose, apart from every
    /// other entry's.
    public static let marker = ElementKind("marker", legendName: "Marker", paletteColour: Colour(hex: 0xCC6677))
}
