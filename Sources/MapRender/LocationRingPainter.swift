import ImageCodec
import MapGeometry
import Wording

/// Draws the geolocation accuracy ring: r = accuracy / metres-per-pixel at the fix's latitude,
/// filled from r to 2r (a stroke of width r at radius 1.5r), and the style's outline along
/// both edges.
public struct LocationRingPainter: OverlayPainter, SceneLayer {
    public var fix: LocationFix

    public init(fix: LocationFix) {
        self.fix = fix
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: GeoBounds(center: fix.coordinate, radiusMetres: 2 * fix.accuracyMetres),
                 pixelMargins: .uniform(theme[LocationRingStyle.self].outlineWidth / 2))]
    }

    /// The inner radius in device pixels; the ring reaches twice as far.
    public func innerRadius(in frame: FrameGeometry) -> Double {
        fix.accuracyMetres / frame.metresPerDevicePixel(latitude: fix.coordinate.latitude)
    }

    public func draw(in context: DrawingContext) {
        let r = innerRadius(in: context.frame)
        let point = context.frame.pixel(for: fix.coordinate)
        let style = context.theme[LocationRingStyle.self]
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: 1.5 * r)
        context.canvas.strokePath(with: style.colour, width: r)
        guard style.outlineWidth > 0 else { return }
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: r)
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: 2 * r)
        context.canvas.strokePath(with: style.outline, width: style.outlineWidth * context.frame.scale)
    }

    /// The ring from r to 2r, with its outline.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let r = innerRadius(in: frame), outline = theme[LocationRingStyle.self].outlineWidth / 2 * frame.scale
        return [DrawnElement(
            .location, label: Phrase(.location, .length(metres: fix.accuracyMetres)),
            shape: .ring(center: frame.pixel(for: fix.coordinate), innerRadius: max(0, r - outline), outerRadius: 2 * r + outline),
            place: fix.coordinate
        )]
    }
}

/// The geolocation accuracy ring: from r to 2r, where r is the accuracy in pixels, in blue
/// at alpha 0.75 x 0.3, with no outline.
public struct LocationRingStyle: Hashable, Sendable {
    public var colour: Colour
    /// Drawn along both edges of the ring, centred on them.
    public var outline: Colour = .clear
    /// The outline's width in logical pixels; 0 for none.
    public var outlineWidth: Double = 0

    public static let cycleStreets = LocationRingStyle(colour: Colour(red: 0.2, green: 0.2, blue: 1.0, alpha: 0.75 * 0.3))
}

extension LocationRingStyle: ThemedStyle {
    /// High contrast: the app's blue, with a 2 px black line along both edges. Categories: the
    /// location's flat colour.
    public static func value(in theme: Theme.Name) -> LocationRingStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    static let highContrast = LocationRingStyle(colour: LocationRingStyle.cycleStreets.colour, outline: .black, outlineWidth: 2)
    static let categories = LocationRingStyle(colour: ElementKind.location.paletteColour)
}
