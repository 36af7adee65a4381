import MapGeometry

/// Draws the geolocation accuracy ring: r = accuracy / metres-per-pixel at the fix's latitude,
/// filled from r to 2r (a stroke of width r at radius 1.5r).
public struct LocationRingPainter: OverlayPainter {
    public var center: Coordinate
    /// The fix's accuracy in metres.
    public var accuracy: Double
    public var style: LocationRingStyle

    public init(center: Coordinate, accuracy: Double, style: LocationRingStyle = .cycleStreets) {
        self.center = center
        self.accuracy = accuracy
        self.style = style
    }

    public var fitItems: [FitItem] {
        [FitItem(bounds: GeoBounds(center: center, radiusMetres: 2 * accuracy))]
    }

    /// The inner radius in device pixels; the ring reaches twice as far.
    public func innerRadius(in frame: FrameGeometry) -> Double {
        accuracy / frame.metresPerDevicePixel(latitude: center.latitude)
    }

    public func draw(in context: DrawingContext) {
        let r = innerRadius(in: context.frame)
        let point = context.frame.pixel(for: center)
        context.canvas.addCircle(centerX: point.x, centerY: point.y, radius: 1.5 * r)
        context.canvas.strokePath(with: style.colour, width: r)
    }
}
