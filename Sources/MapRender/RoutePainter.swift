import MapGeometry

/// Draws the planned route: each part as one path through its points in order, with nothing
/// joining one part to the next.
public struct RoutePainter: OverlayPainter, SceneLayer {
    public var route: RouteLine

    public init(route: RouteLine) {
        self.route = route
    }

    /// The whole route, every part together, is one fit item.
    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: route.bounds, pixelMargins: .uniform(theme.route.drawnWidth / 2))]
    }

    /// Whether any segment of any part, widened by as far as the line can reach beyond it, comes
    /// near the frame: a miter join's tip lies up to `Canvas.miterLimit` half-widths from its
    /// corner, and anti-aliasing adds a pixel.
    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool {
        let reach = (theme.route.drawnWidth / 2 * Canvas.miterLimit + 1) * frame.scale
        let bounds = frame.pixelRect
        return route.parts.contains { part in
            var previous = frame.pixel(for: part[0])
            for coordinate in part.dropFirst() {
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
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas
        let style = context.theme.route
        // One stroke of every part at the combined alpha looks exactly like the app's line inside
        // a faded layer, because a single stroke never blends with itself, even where parts meet.
        // A casing is a wider stroke beneath.
        for stroke in style.strokes {
            for part in route.parts {
                let first = context.frame.pixel(for: part[0])
                canvas.moveTo(first.x, first.y)
                for coordinate in part.dropFirst() {
                    let point = context.frame.pixel(for: coordinate)
                    canvas.lineTo(point.x, point.y)
                }
            }
            canvas.strokePath(with: stroke.colour, width: stroke.width * context.frame.scale, cap: .butt, join: style.join)
        }
    }

    /// The route's lines, as wide as they are drawn, casing included: one element however many
    /// parts it has.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let lines = route.parts.map { $0.map(frame.pixel(for:)) }
        return [DrawnElement(.route, label: "Route", shape: .polylines(lines, width: theme.route.drawnWidth * frame.scale))]
    }
}
