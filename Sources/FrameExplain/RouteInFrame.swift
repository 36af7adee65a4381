import MapGeometry
import Wording

/// Where a line runs in the frame, as a sighted reader takes it in at a glance: where it starts
/// or comes in, where it ends or goes out ("enters at the bottom edge, leaves at the top
/// right"), and how often it leaves the map and comes back on the way.
enum RouteInFrame {
    /// The sentences for `parts` (points in the map panel's device pixels, `size` across).
    static func sentences(parts: [[PixelPoint]], size: (width: Double, height: Double)) -> [Phrase] {
        guard let first = parts.first?.first, let last = parts.last?.last else { return [] }
        let frame = PixelRect(minX: 0, minY: 0, maxX: size.width, maxY: size.height)
        var entries: [PixelPoint] = [], exits: [PixelPoint] = []
        for part in parts {
            for (a, b) in zip(part, part.dropFirst()) {
                guard let (enter, leave) = clip(a, b, to: frame) else { continue }
                if enter > 0 { entries.append(point(a, b, at: enter)) }
                if leave < 1 { exits.append(point(a, b, at: leave)) }
            }
        }
        let startsInside = contains(frame, first), endsInside = contains(frame, last)
        let sentence: Phrase
        switch (startsInside, endsInside) {
        case (true, true): sentence = Phrase(.routeStartsEnds, area(first, in: frame), area(last, in: frame))
        case (true, false): sentence = Phrase(.routeStartsLeaves, area(first, in: frame), edge(exits.last ?? last, of: frame))
        case (false, true): sentence = Phrase(.routeEntersEnds, edge(entries.first ?? first, of: frame), area(last, in: frame))
        case (false, false):
            guard let entry = entries.first, let exit = exits.last else { return [Phrase(.routeOutside)] }
            sentence = Phrase(.routeEntersLeaves, edge(entry, of: frame), edge(exit, of: frame))
        }
        let returns = entries.count - (startsInside ? 0 : 1)
        return returns > 0 ? [sentence, Phrase(.routeLeavesAndReturns, .count(returns))] : [sentence]
    }

    /// The part of segment a→b inside `frame`, as fractions along it (Liang and Barsky's
    /// clipping); nil when none of it is.
    private static func clip(_ a: PixelPoint, _ b: PixelPoint, to frame: PixelRect) -> (Double, Double)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var enter = 0.0, leave = 1.0
        for (p, q) in [(-dx, a.x - frame.minX), (dx, frame.maxX - a.x), (-dy, a.y - frame.minY), (dy, frame.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { enter = max(enter, t) } else { leave = min(leave, t) }
            }
        }
        return enter <= leave ? (enter, leave) : nil
    }

    private static func point(_ a: PixelPoint, _ b: PixelPoint, at t: Double) -> PixelPoint {
        PixelPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    private static func contains(_ frame: PixelRect, _ point: PixelPoint) -> Bool {
        point.x >= frame.minX && point.x <= frame.maxX && point.y >= frame.minY && point.y <= frame.maxY
    }

    /// Which third of a side `fraction` (0 to 1 along it) falls in.
    private static func third(_ fraction: Double) -> Int { fraction < 1.0 / 3 ? 0 : fraction > 2.0 / 3 ? 2 : 1 }

    /// A point on the frame's edge: the edge's middle third, else the corner it is near.
    private static func edge(_ point: PixelPoint, of frame: PixelRect) -> Phrase {
        let distances = [point.y - frame.minY, frame.maxY - point.y, point.x - frame.minX, frame.maxX - point.x]
        let nearest = distances.indices.min { distances[$0] < distances[$1] } ?? 0
        let across = third(point.x / frame.width), down = third(point.y / frame.height)
        switch nearest {
        case 0: return Phrase([.cornerTopLeft, .edgeTop, .cornerTopRight][across])
        case 1: return Phrase([.cornerBottomLeft, .edgeBottom, .cornerBottomRight][across])
        case 2: return Phrase([.cornerTopLeft, .edgeLeft, .cornerBottomLeft][down])
        default: return Phrase([.cornerTopRight, .edgeRight, .cornerBottomRight][down])
        }
    }

    /// A point inside the frame, by the ninth of it it lies in.
    private static func area(_ point: PixelPoint, in frame: PixelRect) -> Phrase {
        let areas: [[PhraseKey]] = [
            [.areaTopLeft, .areaTop, .areaTopRight], [.areaLeft, .areaMiddle, .areaRight], [.areaBottomLeft, .areaBottom, .areaBottomRight],
        ]
        return Phrase(areas[third(point.y / frame.height)][third(point.x / frame.width)])
    }
}
