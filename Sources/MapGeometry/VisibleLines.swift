extension FrameGeometry {
    /// The least distance, in device pixels, between two points of a line as it is drawn:
    /// a point closer than this to the one before is left out, as it moves the line by less
    /// than a fraction of a pixel.
    public static let drawnPointSpacing = 0.25

    /// `lines` in device pixels, as much of them as can show in the frame, for drawing,
    /// hit-testing and auditing alike: the cost of anything done with them is bounded by the
    /// frame's pixels, not by how many points a line declares.
    /// - A run of segments that comes no nearer the frame than `reach` (how far the drawn line
    ///   reaches from its centre) is cut out, splitting its line there: a cut end lies outside
    ///   the frame by more than the line reaches, so its cap never shows.
    /// - A point nearer than `drawnPointSpacing` to the last one kept is left out; a line's last
    ///   point is always kept, in place of a kept point it is too near to.
    ///
    /// Lines of one point, or none, are dropped.
    public func visibleLines(_ lines: [[Coordinate]], reach: Double) -> [[PixelPoint]] {
        let area = pixelRect.expanded(by: reach)
        let spacingSquared = Self.drawnPointSpacing * Self.drawnPointSpacing
        var visible: [[PixelPoint]] = []
        for line in lines {
            guard var previous = line.first.map(pixel(for:)) else { continue }
            var current: [PixelPoint] = []
            func finish() {
                if current.count >= 2 { visible.append(current) }
                current = []
            }
            for (index, coordinate) in line.enumerated().dropFirst() {
                let point = pixel(for: coordinate)
                defer { previous = point }
                let segment = PixelRect(
                    minX: min(previous.x, point.x), minY: min(previous.y, point.y),
                    maxX: max(previous.x, point.x), maxY: max(previous.y, point.y)
                )
                guard segment.intersects(area) else {
                    finish()
                    continue
                }
                if current.isEmpty { current = [previous] }
                let last = current[current.count - 1]
                let dx = point.x - last.x, dy = point.y - last.y
                if dx * dx + dy * dy >= spacingSquared {
                    current.append(point)
                } else if index == line.count - 1 {
                    if current.count >= 2 { current[current.count - 1] = point } else { current.append(point) }
                }
            }
            finish()
        }
        return visible
    }
}
