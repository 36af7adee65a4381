import MapGeometry

/// Draws the geolocation accuracy ring: r = accuracy / metres-per-pixel at the fix's latitude,
/// filled from r to 2r (a stroke of width r at radius 1.5r).
public struct LocationRingPainter: OverlayPainter, SceneLayer {
    public var fix: LocationFix

    public init(fix: LocationFix) {
        self.fix = fix
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: GeoBounds(center: fix.coordinate, radiusMetres: 2 * fix.accuracyMetres))]
    }

    /// The inner radius in device pixels; the ring reaches twice as far.
    public func innerRadius(in frame: FrameGeometry) -> Double {
        fix.accuracyMetres / frame.metresPerDevicePixel(latitude: fix.coordinate.latitude)
    }

    public func draw(in context: DrawingContext) {
        let r = innerRadius(in: context.frame)
        let point = context.frame.pixel(for: fix.coordinate)
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: 1.5 * r)
        context.canvas.strokePath(with: context.theme.locationRing.colour, width: r)
    }

    /// The ring from r to 2r.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let r = innerRadius(in: frame)
        let metres = max(1, Int(fix.accuracyMetres.rounded()))
        return [DrawnElement(
            .location, label: "Your location, accurate to \(metres) \(metres == 1 ? "metre" : "metres")",
            shape: .ring(center: frame.pixel(for: fix.coordinate), innerRadius: r, outerRadius: 2 * r)
        )]
    }
}
