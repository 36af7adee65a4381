import MapGeometry

/// Draws the itinerary's emphasised stage over the route line: one path through the stage's
/// points, a white casing under an opaque line in the route colour (`StageEmphasisStyle`).
public struct StageEmphasisPainter: OverlayPainter, SceneLayer {
    public var stage: EmphasisedStage

    public init(stage: EmphasisedStage) {
        self.stage = stage
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        guard let bounds = GeoBounds(containing: stage.points) else { return [] }
        return [FitItem(bounds: bounds, pixelMargins: .uniform(theme.stageEmphasis.halfWidth))]
    }

    public func draw(in context: DrawingContext) {
        let points = stage.points, style = context.theme.stageEmphasis
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
        let width = 2 * theme.stageEmphasis.halfWidth * frame.scale
        return [DrawnElement(
            .stage, id: String(stage.number), label: "Stage \(stage.number) of \(stage.count)",
            shape: .polylines([stage.points.map(frame.pixel(for:))], width: width),
            place: stage.points[stage.points.count / 2]
        )]
    }
}
