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

    /// How far the drawn line reaches from its centreline, in device pixels: a miter join's tip
    /// lies up to `Canvas.miterLimit` half-widths from its corner, and anti-aliasing adds a pixel.
    private func reach(in frame: FrameGeometry, theme: Theme) -> Double {
        (theme.route.drawnWidth / 2 * Canvas.miterLimit + 1) * frame.scale
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
        let style = context.theme.route
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
        [DrawnElement(.route, label: "Route", shape: .polylines(visibleLines(in: frame, theme: theme), width: theme.route.drawnWidth * frame.scale))]
    }
}
