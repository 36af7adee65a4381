import ImageCodec
import MapGeometry
import Wording

/// Draws the planned route: each part as one path through its points in order, with nothing
/// joining one part to the next.
public struct RoutePainter: OverlayPainter, SceneLayer {
    public var route: RouteLine

    public init(route: RouteLine) {
        self.route = route
    }

    /// The whole route, every part together, is one fit item.
    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: route.bounds, pixelMargins: .uniform(theme[RouteStyle.self].drawnWidth / 2))]
    }

    /// How far the drawn line reaches from its centreline, in device pixels: a miter join's tip
    /// lies up to `Canvas.miterLimit` half-widths from its corner, and anti-aliasing adds a pixel.
    private func reach(in frame: FrameGeometry, theme: Theme) -> Double {
        (theme[RouteStyle.self].drawnWidth / 2 * Canvas.miterLimit + 1) * frame.scale
    }

    /// The route's parts as they can show in the frame (`FrameGeometry.visibleLines`): what is
    /// hit-tested and audited, in time bounded by the frame however many points the route has.
    private func visibleLines(in frame: FrameGeometry, theme: Theme) -> [[PixelPoint]] {
        frame.visibleLines(route.parts, reach: reach(in: frame, theme: theme))
    }

    /// Whether any segment of any part, widened by the line's reach, comes near the frame: asked
    /// for every route tile, so it stops at the first such segment and keeps nothing.
    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool {
        let area = frame.pixelRect.expanded(by: reach(in: frame, theme: theme))
        return route.parts.contains { part in
            var previous = frame.pixel(for: part[0])
            for coordinate in part.dropFirst() {
                let point = frame.pixel(for: coordinate)
                if PixelRect(spanning: previous, point).intersects(area) { return true }
                previous = point
            }
            return false
        }
    }

    public func draw(in context: DrawingContext) {
        let style = context.theme[RouteStyle.self]
        let lines = context.frame.drawnLines(route.parts)
        // One stroke of every part at the combined alpha looks exactly like the app's line inside
        // a faded layer, because a single stroke never blends with itself, even where parts meet.
        // A casing is a wider stroke beneath.
        for stroke in style.strokes {
            context.canvas.strokeLines(lines, with: stroke.colour, width: stroke.width * context.frame.scale, cap: .butt, join: style.join)
        }
    }

    /// The route's lines, as wide as they are drawn, casing included: one element however many
    /// parts it has.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        [DrawnElement(.route, label: Phrase(.route), shape: .polylines(visibleLines(in: frame, theme: theme), width: theme[RouteStyle.self].drawnWidth * frame.scale))]
    }
}

/// The planned-route line. The app drew RGB (0.8, 0.2, 1.0) at alpha 0.8 inside a layer at
/// alpha 0.75, so the line shows at 0.6 (SPEC.md section 2), with no casing.
public struct RouteStyle: Hashable, Sendable {
    public var colour: Colour
    public var lineAlpha: Double
    public var layerAlpha: Double
    /// Width in logical pixels.
    public var width: Double
    /// A line drawn under the route, showing `casingWidth` logical pixels on each side of it.
    public var casing: Colour = .clear
    public var casingWidth: Double = 0
    /// How the line turns a corner: the app's miter, or round, which keeps a casing equally
    /// wide all round a sharp corner.
    public var join: Canvas.LineJoin = .miter

    public static let cycleStreets = RouteStyle(
        colour: Colour(red: 0.8, green: 0.2, blue: 1.0), lineAlpha: 0.8, layerAlpha: 0.75, width: 4
    )

    /// The colour as it lands on the map: both alphas multiplied.
    public var effectiveColour: Colour { colour.fading(by: lineAlpha * layerAlpha) }

    /// How wide the route draws, casing included, in logical pixels.
    public var drawnWidth: Double { width + 2 * casingWidth }

    /// What the painter strokes, bottom to top, each along the whole route: the casing when
    /// there is one, then the line.
    public var strokes: [(colour: Colour, width: Double)] {
        casingWidth > 0 ? [(casing, drawnWidth), (effectiveColour, width)] : [(effectiveColour, width)]
    }
}

extension RouteStyle: ThemedStyle {
    /// High contrast: black, 6 px wide, on a 2 px white casing, with round corners so that the
    /// casing is as wide at a sharp corner as anywhere. Categories: the route's flat colour at
    /// the app's width.
    public static func value(in theme: Theme.Name) -> RouteStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    static let highContrast = RouteStyle(colour: .black, lineAlpha: 1, layerAlpha: 1, width: 6, casing: .white, casingWidth: 2, join: .round)
    static let categories = RouteStyle(colour: ElementKind.route.paletteColour, lineAlpha: 1, layerAlpha: 1, width: RouteStyle.cycleStreets.width)
}
