import Foundation
import MapGeometry
import Payloads
import Wording

/// The way a route goes, as a listener follows it (Talking Buses' compass words, never
/// degrees): the heading it sets off in, then each turn with the way it takes and how far.
/// From a journey it is the journey's stages, each with its street and turn; from a line
/// alone it is worked out from the geometry, with small wiggles smoothed away.
struct RouteCourse {
    /// One stretch of the course.
    struct Step {
        /// How it turns onto this stretch; nil for the first.
        var turn: Turn?
        /// The street it runs along, when known.
        var street: String?
        var heading: CompassPoint
        var metres: Double
    }

    let steps: [Step]

    /// A wiggle narrower than this share of the route's length is smoothed away…
    static let wiggleShare = 0.02
    /// …and never one narrower than this many metres.
    static let minimumWiggle = 10.0
    /// At standard detail a course from geometry is smoothed further until it takes at most
    /// this many steps; a journey's stages are all said.
    static let standardSteps = 8

    /// The journey's stages: each one's street, its bearing at the start, and the turn onto it
    /// (CycleStreets' words, or, where they are not known, the turn the bearings make).
    init(journey: Journey) {
        var steps: [Step] = []
        for (index, segment) in journey.segments.enumerated() {
            let bearing = Double(segment.startBearing)
            var turn: Turn?
            if index > 0 {
                let previous = journey.segments[index - 1]
                let points = previous.points
                let arriving = points.count > 1
                    ? points[points.count - 2].initialBearing(to: points[points.count - 1])
                    : Double(previous.startBearing)
                turn = Self.turn(cycleStreets: segment.turn) ?? Turn(change: Self.change(from: arriving, to: bearing))
            }
            let street = segment.name.trimmingCharacters(in: .whitespaces)
            steps.append(Step(turn: turn, street: street.isEmpty ? nil : street, heading: CompassPoint(bearing: bearing), metres: Double(segment.distanceMetres)))
        }
        self.steps = steps
    }

    /// The course of one line, smoothed until it takes at most `maximumSteps` steps (no limit
    /// when nil); nil for a line shorter than the smallest wiggle.
    init?(line: [Coordinate], maximumSteps: Int?) {
        let length = zip(line, line.dropFirst()).reduce(0.0) { $0 + $1.0.distance(to: $1.1) }
        guard line.count > 1, length >= Self.minimumWiggle else { return nil }
        var tolerance = max(Self.minimumWiggle, length * Self.wiggleShare)
        var steps = Self.steps(of: line, tolerance: tolerance)
        while let maximumSteps, steps.count > maximumSteps {
            tolerance *= 2
            steps = Self.steps(of: line, tolerance: tolerance)
        }
        self.steps = steps
    }

    /// "The route heads north on Thoday Street for 120 metres, turns right onto Mill Road for
    /// 90 metres and bears left onto Sturton Street for 140 metres."
    var phrase: Phrase {
        let said = steps.map { step -> Phrase in
            let distance = Phrase.distance(metres: step.metres)
            switch (step.turn, step.street) {
            case (nil, let street?): return Phrase(.courseFirstOn, step.heading.heading, .text(street), distance)
            case (nil, nil): return Phrase(.courseFirst, step.heading.heading, distance)
            case (let turn?, let street?): return Phrase(.courseTurnOnto, turn.phrase, .text(street), distance)
            case (let turn?, nil): return Phrase(.courseTurnHeading, turn.phrase, step.heading.heading, distance)
            }
        }
        return Phrase(.courseSentence, .list(said))
    }

    /// CycleStreets' turn words, as its journey answers write them.
    static func turn(cycleStreets words: String) -> Turn? {
        switch words.trimmingCharacters(in: .whitespaces).lowercased() {
        case "straight on": .straightOn
        case "bear left": .bearLeft
        case "bear right": .bearRight
        case "turn left": .turnLeft
        case "turn right": .turnRight
        case "sharp left": .sharpLeft
        case "sharp right": .sharpRight
        case "double-back", "u-turn": .turnBack
        default: nil
        }
    }

    /// The change from heading `a` to heading `b`, in degrees from -180 to 180, right positive.
    static func change(from a: Double, to b: Double) -> Double {
        let change = (b - a).truncatingRemainder(dividingBy: 360)
        return change > 180 ? change - 360 : change < -180 ? change + 360 : change
    }

    /// The line's steps with wiggles narrower than `tolerance` metres smoothed away: points
    /// nearer than that to the last one kept are dropped (which leaves at most one point per
    /// `tolerance` of the line's length, so a 100,000-point line costs one pass), the rest
    /// simplified by Douglas and Peucker's method, and stretches that go straight on joined.
    private static func steps(of line: [Coordinate], tolerance: Double) -> [Step] {
        var kept = [0]
        for index in line.indices.dropFirst() where line[index].distance(to: line[kept[kept.count - 1]]) >= tolerance {
            kept.append(index)
        }
        if kept.last != line.count - 1 { kept.append(line.count - 1) }
        kept = simplified(kept, of: line, tolerance: tolerance)
        // Each stretch: how far along the line, and the heading from its first point to its last.
        var stretches: [(from: Int, to: Int, metres: Double)] = []
        for (a, b) in zip(kept, kept.dropFirst()) {
            let metres = (a..<b).reduce(0.0) { $0 + line[$1].distance(to: line[$1 + 1]) }
            if let last = stretches.last,
               Turn(change: change(from: line[last.from].initialBearing(to: line[last.to]), to: line[a].initialBearing(to: line[b]))) == .straightOn {
                stretches[stretches.count - 1] = (last.from, b, last.metres + metres)
            } else {
                stretches.append((a, b, metres))
            }
        }
        var steps: [Step] = []
        for (offset, stretch) in stretches.enumerated() {
            let bearing = line[stretch.from].initialBearing(to: line[stretch.to])
            let turn = offset == 0 ? nil : Turn(change: change(
                from: line[stretches[offset - 1].from].initialBearing(to: line[stretches[offset - 1].to]), to: bearing
            ))
            steps.append(Step(turn: turn, street: nil, heading: CompassPoint(bearing: bearing), metres: stretch.metres))
        }
        return steps
    }

    /// Douglas and Peucker's simplification of the points at `indices` of `line`, in metres on
    /// a flat projection about the line's first point (a route fits in a frame, where that is
    /// close enough).
    private static func simplified(_ indices: [Int], of line: [Coordinate], tolerance: Double) -> [Int] {
        guard indices.count > 2 else { return indices }
        let origin = line[indices[0]], metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let eastScale = cos(origin.latitude * .pi / 180) * metresPerDegree
        let points = indices.map { index in
            ((line[index].longitude - origin.longitude) * eastScale, (line[index].latitude - origin.latitude) * metresPerDegree)
        }
        var keep = Array(repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var ranges = [(0, points.count - 1)]
        while let (first, last) = ranges.popLast() {
            guard last > first + 1 else { continue }
            let a = points[first], b = points[last]
            let dx = b.0 - a.0, dy = b.1 - a.1, length = (dx * dx + dy * dy).squareRoot()
            var farthest = (index: first, distance: -1.0)
            for index in (first + 1)..<last {
                let p = points[index]
                let distance = length == 0
                    ? ((p.0 - a.0) * (p.0 - a.0) + (p.1 - a.1) * (p.1 - a.1)).squareRoot()
                    : abs(dy * (p.0 - a.0) - dx * (p.1 - a.1)) / length
                if distance > farthest.distance { farthest = (index, distance) }
            }
            if farthest.distance > tolerance {
                keep[farthest.index] = true
                ranges.append((first, farthest.index))
                ranges.append((farthest.index, last))
            }
        }
        return indices.indices.filter { keep[$0] }.map { indices[$0] }
    }
}
