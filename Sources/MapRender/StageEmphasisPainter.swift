import MapGeometry

/// Draws the itinerary's emphasised stage over the route line: one path through the stage's
/// points, a white casing under an opaque line in the route colour (`StageEmphasisStyle`).
public struct StageEmphasisPainter: OverlayPainter {
    public var points: [Coordinate]
    public var style: StageEmphasisStyle

    public init(points: [Coordinate], style: StageEmphasisStyle = .cycleStreets) {
        self.points = points
        self.style = style
    }

    public var fitItems: [FitItem] {
        guard let bounds = GeoBounds(containing: points) else { return [] }
        return [FitItem(bounds: bounds, pixelMargins: .uniform(style.halfWidth))]
    }

    public func draw(in context: DrawingContext) {
        guard let first = points.first else { return }
        let scale = context.frame.scale
        // A stage of one point still shows, as a dot: a zero-length segment with round caps.
        let pixels = (points.count == 1 ? [first, first] : points).map { context.frame.pixel(for: $0) }
        for (colour, width) in [(style.casing, style.width + 2 * style.casingWidth), (style.colour, style.width)] {
            context.canvas.moveTo(pixels[0].x, pixels[0].y)
            for pixel in pixels.dropFirst() { context.canvas.lineTo(pixel.x, pixel.y) }
            context.canvas.strokePath(with: colour, width: width * scale, cap: .round, join: .round)
        }
    }
}
