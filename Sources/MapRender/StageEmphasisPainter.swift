import ImageCodec
import MapGeometry
import Wording

/// Draws the itinerary's emphasised stage over the route line: one path through the stage's
/// points, a white casing under an opaque line in the route colour (`StageEmphasisStyle`).
public struct StageEmphasisPainter: OverlayPainter, SceneLayer {
    public var stage: EmphasisedStage

    public init(stage: EmphasisedStage) {
        self.stage = stage
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        guard let bounds = GeoBounds(containing: stage.points) else { return [] }
        return [FitItem(bounds: bounds, pixelMargins: .uniform(theme[StageEmphasisStyle.self].halfWidth))]
    }

    public func draw(in context: DrawingContext) {
        let points = stage.points, style = context.theme[StageEmphasisStyle.self]
        guard let first = points.first else { return }
        let scale = context.frame.scale
        // A stage of one point still shows, as a dot: a zero-length segment with round caps.
        let lines = context.frame.drawnLines([points.count == 1 ? [first, first] : points])
        for (colour, width) in [(style.casing, style.width + 2 * style.casingWidth), (style.colour, style.width)] {
            context.canvas.strokeLines(lines, with: colour, width: width * scale, cap: .round, join: .round)
        }
    }

    /// The stage's line with its casing; a stage of one point is a dot.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        guard !stage.points.isEmpty else { return [] }
        let width = 2 * theme[StageEmphasisStyle.self].halfWidth * frame.scale
        return [DrawnElement(
            .stage, id: String(stage.number), label: Phrase(.stageOf, .count(stage.number), .count(stage.count)),
            shape: .polylines([stage.points.map(frame.pixel(for:))], width: width),
            place: stage.points[stage.points.count / 2]
        )]
    }
}

/// The itinerary's emphasised stage (app spec 6.6), drawn over the route line. The spec says
/// only that one stage is shown; MapFrame draws the stage's points as a wider, opaque line in
/// the route's own colour over a thin white casing: the colour ties it to the route, the
/// opacity and width (6 px against the route's 4 px at 0.6) make it the strongest line on the
/// map, and the casing separates it from the translucent route beneath. Round caps and joins
/// keep a stage of two points from looking like a dash.
public struct StageEmphasisStyle: Hashable, Sendable {
    public var colour: Colour
    /// The line's width in logical pixels.
    public var width: Double
    public var casing: Colour
    /// How far the casing shows on each side of the line, in logical pixels.
    public var casingWidth: Double

    public static let cycleStreets = StageEmphasisStyle(
        colour: RouteStyle.cycleStreets.colour, width: 6, casing: Colour.white.fading(by: 0.9), casingWidth: 1.5
    )

    /// How far the stage draws beyond its points, in logical pixels.
    public var halfWidth: Double { width / 2 + casingWidth }
}

extension StageEmphasisStyle: ThemedStyle {
    /// High contrast: the reverse of the route, 8 px of white on a 2 px black casing, so that
    /// it shows over the route by pattern and width rather than hue. Categories: the stage's
    /// flat colour at the app's width, with no casing.
    public static func value(in theme: Theme.Name) -> StageEmphasisStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    static let highContrast = StageEmphasisStyle(colour: .white, width: 8, casing: .black, casingWidth: 2)
    static let categories = StageEmphasisStyle(
        colour: ElementKind.stage.paletteColour, width: StageEmphasisStyle.cycleStreets.width, casing: .clear, casingWidth: 0
    )
}
