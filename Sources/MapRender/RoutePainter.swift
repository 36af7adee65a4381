import MapGeometry

/// Draws the planned route as one path through its points in order.
public struct RoutePainter: OverlayPainter, SceneLayer {
    public var coordinates: [Coordinate]

    public init(coordinates: [Coordinate]) {
        self.coordinates = coordinates
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        guard let bounds = GeoBounds(containing: coordinates) else { return [] }
        return [FitItem(bounds: bounds, pixelMargins: .uniform(theme.route.drawnWidth / 2))]
    }

    /// Whether any segment, widened by as far as the line can reach beyond it, comes near the
    /// frame: a miter join's tip lies up to `Canvas.miterLimit` half-widths from its corner,
    /// and anti-aliasing adds a pixel.
    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool {
        guard coordinates.count >= 2 else { return false }
        let reach = (theme.route.drawnWidth / 2 * Canvas.miterLimit + 1) * frame.scale
        let bounds = frame.pixelRect
        var previous = frame.pixel(for: coordinates[0])
        for coordinate in coordinates.dropFirst() {
            let point = frame.pixel(for: coordinate)
            let segment = PixelRect(
                minX: min(previous.x, point.x) - reach, minY: min(previous.y, point.y) - reach,
                maxX: max(previous.x, point.x) + reach, maxY: max(previous.y, point.y) + reach
            )
            if segment.intersects(bounds) { return true }
            previous = point
        }
        return false
    }

    public func draw(in context: DrawingContext) {
        guard coordinates.count >= 2 else { return }
        let canvas = context.canvas
        let points = coordinates.map(context.frame.pixel(for:))
        // One stroke at the combined alpha looks exactly like the app's line inside a faded layer,
        // because a single stroke never blends with itself. A casing is a wider stroke beneath.
        for stroke in context.theme.route.strokes {
            canvas.moveTo(points[0].x, points[0].y)
            for point in points.dropFirst() { canvas.lineTo(point.x, point.y) }
            canvas.strokePath(with: stroke.colour, width: stroke.width * context.frame.scale, cap: .butt, join: context.theme.route.join)
        }
    }

    /// The line through the route's points, as wide as it is drawn, casing included.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        guard coordinates.count >= 2 else { return [] }
        return [DrawnElement(.route, label: "Planned route", shape: .polyline(coordinates.map(frame.pixel(for:)), width: theme.route.drawnWidth * frame.scale))]
    }
}
