extension FrameGeometry {
    /// The least distance, in device pixels, between two points of a line as it is drawn:
    /// a point closer than this to the one before is left out, as it moves the line by less
    /// than a fraction of a pixel.
    public static let drawnPointSpacing = 0.25

    /// `lines` in device pixels as they are drawn: a point nearer than `drawnPointSpacing` to
    /// the last one kept is left out, and a line's last point is always kept, in place of a kept
    /// point it is too near to. The same points are kept wherever the frame is, so that frames
    /// and tiles of one zoom draw a line alike and meet without a seam. Lines of one point, or
    /// none, are dropped.
    public func drawnLines(_ lines: [[Coordinate]]) -> [[PixelPoint]] {
        let spacingSquared = Self.drawnPointSpacing * Self.drawnPointSpacing
        return lines.compactMap { line in
            var kept: [PixelPoint] = []
            kept.reserveCapacity(line.count)
            for (index, coordinate) in line.enumerated() {
                let point = pixel(for: coordinate)
                guard let last = kept.last else {
                    kept.append(point)
                    continue
                }
                let dx = point.x - last.x, dy = point.y - last.y
                if dx * dx + dy * dy >= spacingSquared {
                    kept.append(point)
                } else if index == line.count - 1 {
                    if kept.count >= 2 { kept[kept.count - 1] = point } else { kept.append(point) }
                }
            }
            return kept.count >= 2 ? kept : nil
        }
    }

    /// `drawnLines`, less the runs of segments that come no nearer the frame than `reach` (how
    /// far the drawn line reaches from its centre), each line split where a run is cut: what
    /// hit-tests and audits look at, in time bounded by the frame however many points a line
    /// declares outside it. Drawing keeps the runs, as a path cut short ends in rows the frame
    /// shares, and Cairo then rounds those rows' edges a level differently from a neighbouring
    /// tile's.
    public func visibleLines(_ lines: [[Coordinate]], reach: Double) -> [[PixelPoint]] {
        let area = pixelRect.expanded(by: reach)
        var visible: [[PixelPoint]] = []
        for line in drawnLines(lines) {
            var current: [PixelPoint] = []
            for (previous, point) in zip(line, line.dropFirst()) {
                guard PixelRect(spanning: previous, point).intersects(area) else {
                    if current.count >= 2 { visible.append(current) }
                    current = []
                    continue
                }
                if current.isEmpty { current = [previous] }
                current.append(point)
            }
            if current.count >= 2 { visible.append(current) }
        }
        return visible
    }
}
