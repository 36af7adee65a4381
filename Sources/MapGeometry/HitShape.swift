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
        distance(from: point) == 0
    }

    /// How far `point` lies outside the shape, in device pixels: 0 on it (edges included), so
    /// that a hit-test can widen thin shapes by a slop.
    public func distance(from point: PixelPoint) -> Double {
        switch self {
        case .polylines(let lines, let width):
            var nearest = Double.infinity
            for line in lines {
                guard let first = line.first else { continue }
                if line.count == 1 { nearest = min(nearest, Self.distance(from: point, to: first)) }
                for (a, b) in zip(line, line.dropFirst()) { nearest = min(nearest, Self.distance(from: point, toSegment: a, b)) }
            }
            return max(0, nearest - width / 2)
        case .ring(let center, let inner, let outer):
            let distance = Self.distance(from: point, to: center)
            return max(0, inner - distance, distance - outer)
        case .circle(let center, let radius):
            return max(0, Self.distance(from: point, to: center) - radius)
        case .box(let rect):
            let dx = max(rect.minX - point.x, 0, point.x - rect.maxX), dy = max(rect.minY - point.y, 0, point.y - rect.maxY)
            return (dx * dx + dy * dy).squareRoot()
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

    /// The straight-line distance between two points.
    public static func distance(from a: PixelPoint, to b: PixelPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// The distance from `point` to the nearest point of the segment from `a` to `b`.
    public static func distance(from point: PixelPoint, toSegment a: PixelPoint, _ b: PixelPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return distance(from: point, to: a) }
        let t = min(max(((point.x - a.x) * dx + (point.y - a.y) * dy) / lengthSquared, 0), 1)
        return distance(from: point, to: PixelPoint(x: a.x + t * dx, y: a.y + t * dy))
    }
}
