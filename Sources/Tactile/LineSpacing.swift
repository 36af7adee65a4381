import MapGeometry

/// A stroked line on the page: its points and its width, in millimetres.
struct Stroke {
    var points: [PixelPoint]
    var width: Double
}

/// Something lines and textures keep their distance from: a point symbol or a label.
struct Obstacle {
    var box: PixelRect

    /// From `point` to the nearest point of the box; 0 inside it.
    func distance(from point: PixelPoint) -> Double {
        let dx = max(box.minX - point.x, 0, point.x - box.maxX), dy = max(box.minY - point.y, 0, point.y - box.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// Keeps every line at least `TactileMeasures.gap` from every other, edge to edge, except
/// where they meet: a line is placed after those above it, and its stretches that come closer
/// to them without touching are taken out, so that a finger feels two lines as two.
///
/// A stretch closer than the gap is kept when it touches a line already placed somewhere along
/// it (a crossing, or a line ending on another): that is where they meet. Otherwise it is cut
/// out, and the cut widened until the line's two ends either side are the gap apart along the
/// line, so that they are not felt as two lines close together. Pieces shorter than the gap are
/// dropped: too short to follow.
enum LineSpacing {
    /// How finely lines are stepped along to measure them.
    static let step = 0.25

    /// `line`'s points, with more between them wherever two are further apart than `step`.
    static func samples(of line: [PixelPoint]) -> [PixelPoint] {
        guard var previous = line.first else { return [] }
        var points = [previous]
        for point in line.dropFirst() {
            let length = distance(previous, point), count = Int((length / step).rounded(.up))
            if count > 1 {
                for index in 1..<count {
                    let t = Double(index) / Double(count)
                    points.append(PixelPoint(x: previous.x + (point.x - previous.x) * t, y: previous.y + (point.y - previous.y) * t))
                }
            }
            if length > 0 { points.append(point) }
            previous = point
        }
        return points
    }

    /// The pieces of `line` that keep the gap from `placed` and `obstacles`. With `mayMeet`
    /// false (a texture), stretches touching a placed line are cut out as well.
    static func pieces(of line: Stroke, keepingClearOf placed: [Stroke], obstacles: [Obstacle] = [], mayMeet: Bool = true) -> [Stroke] {
        let points = samples(of: line.points)
        guard points.count >= 2 else { return [] }
        var arc = [0.0]
        for (a, b) in zip(points, points.dropFirst()) { arc.append(arc[arc.count - 1] + distance(a, b)) }
        let nearby = placed.filter { other in
            let reach = TactileMeasures.gap + (other.width + line.width) / 2
            return bounds(of: line.points).expanded(by: reach).intersects(bounds(of: other.points))
        }
        var close = [Bool](repeating: false, count: points.count), meets = close
        for (index, point) in points.enumerated() {
            for other in nearby {
                let edgeGap = distance(from: point, to: other.points) - (other.width + line.width) / 2
                if edgeGap < TactileMeasures.gap { close[index] = true }
                if edgeGap <= 0 { meets[index] = true }
            }
            if obstacles.contains(where: { $0.distance(from: point) - line.width / 2 < TactileMeasures.gap }) {
                close[index] = true
                meets[index] = false
            }
        }
        // Each close stretch is cut unless it meets a line; each cut is widened to the gap.
        var removed: [ClosedRange<Double>] = []
        var start = 0
        while start < points.count {
            guard close[start] else {
                start += 1
                continue
            }
            var end = start
            while end + 1 < points.count, close[end + 1] { end += 1 }
            let touches = (start...end).contains { meets[$0] }
            if !(mayMeet && touches) {
                let widen = max(0, (TactileMeasures.gap + line.width - (arc[end] - arc[start])) / 2)
                removed.append((arc[start] - widen)...(arc[end] + widen))
            }
            start = end + 1
        }
        var pieces: [Stroke] = [], piece: [PixelPoint] = []
        for (index, point) in points.enumerated() {
            if removed.contains(where: { $0.contains(arc[index]) }) {
                if piece.count >= 2 { pieces.append(Stroke(points: piece, width: line.width)) }
                piece = []
            } else {
                piece.append(point)
            }
        }
        if piece.count >= 2 { pieces.append(Stroke(points: piece, width: line.width)) }
        return pieces.filter { length(of: $0.points) >= TactileMeasures.gap }.map { Stroke(points: simplified($0.points), width: $0.width) }
    }

    static func distance(_ a: PixelPoint, _ b: PixelPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// From `point` to the nearest point of `line`.
    static func distance(from point: PixelPoint, to line: [PixelPoint]) -> Double {
        guard line.count > 1 else { return line.first.map { distance(point, $0) } ?? .infinity }
        return zip(line, line.dropFirst()).reduce(Double.infinity) { nearest, segment in
            min(nearest, HitShape.distance(from: point, toSegment: segment.0, segment.1))
        }
    }

    static func length(of line: [PixelPoint]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }
    }

    static func bounds(of line: [PixelPoint]) -> PixelRect {
        line.dropFirst().reduce(PixelRect(spanning: line[0], line[0])) { $0.union(PixelRect(spanning: $1, $1)) }
    }

    /// `line` without the points that lie on the straight run between their neighbours (to
    /// within 0.01 mm): the steps `samples` added, where nothing was cut.
    static func simplified(_ line: [PixelPoint]) -> [PixelPoint] {
        guard line.count > 2 else { return line }
        var kept = [line[0]]
        for index in 1..<(line.count - 1) {
            if HitShape.distance(from: line[index], toSegment: kept[kept.count - 1], line[index + 1]) > 0.01 { kept.append(line[index]) }
        }
        kept.append(line[line.count - 1])
        return kept
    }
}
