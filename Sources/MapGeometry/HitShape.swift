/// The area a drawn element covers, in device pixels, so that a point can be tested against
/// it without looking at pixels.
///
/// ```swift
/// let route = HitShape.polylines([[PixelPoint(x: 0, y: 10), PixelPoint(x: 100, y: 10)]], width: 4)
/// route.contains(PixelPoint(x: 50, y: 11.5))  // true: within half the width of the line
/// ```
public enum HitShape: Hashable, Sendable {
    /// Lines, each through its points in order, `width` across. Nothing joins the end of one
    /// line to the start of the next: a route of several parts is one shape.
    case polylines([[PixelPoint]], width: Double)
    /// The band between two circles around `center`.
    case ring(center: PixelPoint, innerRadius: Double, outerRadius: Double)
    /// A filled circle.
    case circle(center: PixelPoint, radius: Double)
    /// An axis-aligned box.
    case box(PixelRect)

    /// Whether `point` lies on the shape (edges included).
    public func contains(_ point: PixelPoint) -> Bool {
        switch self {
        case .polylines(let lines, let width):
            let reach = width / 2
            return lines.contains { line in
                guard let first = line.first else { return false }
                if line.count == 1 { return Self.distance(from: point, to: first) <= reach }
                return zip(line, line.dropFirst()).contains { Self.distance(from: point, toSegment: $0, $1) <= reach }
            }
        case .ring(let center, let inner, let outer):
            let distance = Self.distance(from: point, to: center)
            return distance >= inner && distance <= outer
        case .circle(let center, let radius):
            return Self.distance(from: point, to: center) <= radius
        case .box(let rect):
            return point.x >= rect.minX && point.x <= rect.maxX && point.y >= rect.minY && point.y <= rect.maxY
        }
    }

    /// The smallest box holding the whole shape.
    public var bounds: PixelRect {
        switch self {
        case .polylines(let lines, let width):
            let points = lines.joined()
            guard let first = points.first else { return PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0) }
            let box = points.dropFirst().reduce(PixelRect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)) {
                $0.union(PixelRect(minX: $1.x, minY: $1.y, maxX: $1.x, maxY: $1.y))
            }
            return box.expanded(by: width / 2)
        case .ring(let center, _, let radius), .circle(let center, let radius):
            return PixelRect(minX: center.x - radius, minY: center.y - radius, maxX: center.x + radius, maxY: center.y + radius)
        case .box(let rect):
            return rect
        }
    }

    /// The same shape moved by (`dx`, `dy`).
    public func offsetBy(dx: Double, dy: Double) -> HitShape {
        func move(_ point: PixelPoint) -> PixelPoint { PixelPoint(x: point.x + dx, y: point.y + dy) }
        switch self {
        case .polylines(let lines, let width): return .polylines(lines.map { $0.map(move) }, width: width)
        case .ring(let center, let inner, let outer): return .ring(center: move(center), innerRadius: inner, outerRadius: outer)
        case .circle(let center, let radius): return .circle(center: move(center), radius: radius)
        case .box(let rect): return .box(PixelRect(minX: rect.minX + dx, minY: rect.minY + dy, maxX: rect.maxX + dx, maxY: rect.maxY + dy))
        }
    }

    private static func distance(from a: PixelPoint, to b: PixelPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    private static func distance(from point: PixelPoint, toSegment a: PixelPoint, _ b: PixelPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return distance(from: point, to: a) }
        let t = min(max(((point.x - a.x) * dx + (point.y - a.y) * dy) / lengthSquared, 0), 1)
        return distance(from: point, to: PixelPoint(x: a.x + t * dx, y: a.y + t * dy))
    }
}
