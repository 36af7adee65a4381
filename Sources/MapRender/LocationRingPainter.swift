import MapGeometry

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
                 pixelMargins: .uniform(theme.locationRing.outlineWidth / 2))]
    }

    /// The inner radius in device pixels; the ring reaches twice as far.
    public func innerRadius(in frame: FrameGeometry) -> Double {
        fix.accuracyMetres / frame.metresPerDevicePixel(latitude: fix.coordinate.latitude)
    }

    public func draw(in context: DrawingContext) {
        let r = innerRadius(in: context.frame)
        let point = context.frame.pixel(for: fix.coordinate)
        let style = context.theme.locationRing
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: 1.5 * r)
        context.canvas.strokePath(with: style.colour, width: r)
        guard style.outlineWidth > 0 else { return }
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: r)
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: 2 * r)
        context.canvas.strokePath(with: style.outline, width: style.outlineWidth * context.frame.scale)
    }

    /// The ring from r to 2r, with its outline.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let r = innerRadius(in: frame), outline = theme.locationRing.outlineWidth / 2 * frame.scale
        let metres = max(1, Int(fix.accuracyMetres.rounded()))
        return [DrawnElement(
            .location, label: "Your location, accurate to \(metres) \(metres == 1 ? "metre" : "metres")",
            shape: .ring(center: frame.pixel(for: fix.coordinate), innerRadius: max(0, r - outline), outerRadius: 2 * r + outline),
            place: fix.coordinate
        )]
    }
}
