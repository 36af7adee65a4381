import Foundation
import GTFS
import MapGeometry

/// A trip's calls in order, each placed on the trip's path: its shape from `shapes.txt`, or
/// straight lines from stop to stop when it has none. Distances are metres along the path.
struct TripPath: Sendable {
    /// One call at a stop, with its times (filled in where the feed leaves them out).
    struct Call: Hashable, Sendable {
        let stop: GTFSStop
        let sequence: Int
        let arrival: GTFSTime
        let departure: GTFSTime
        /// How far along the path the stop lies.
        let distance: Double
    }

    let trip: GTFSTrip
    let points: [Coordinate]
    /// Metres along the path at each point.
    let cumulative: [Double]
    let calls: [Call]
    /// The stretches, in metres along the path, where the shape falls short of the trip's first
    /// or last stops and the path runs straight from stop to stop: an estimate.
    let estimated: [ClosedRange<Double>]

    /// How far a stop may lie from its shape's nearest point and still count as on it, when
    /// choosing the first of several near passes (a loop that comes back past its first stop).
    static let sameStopTolerance = 25.0
    /// How far from its shape a trip's first (or last) stops may lie before the shape is taken to
    /// fall short of them, as BART's 2019 feed's Antioch trips start two stops into their shape.
    static let shapeReachTolerance = 150.0

    /// Places `stopTimes` (in order) on `shape`, or joins the stops when the shape is empty.
    /// Times left out between timed stops are interpolated by distance, as GTFS intends.
    init(trip: GTFSTrip, stopTimes: [GTFSStopTime], shape: [GTFSShapePoint], stops: [String: GTFSStop]) throws(TransitError) {
        self.trip = trip
        var stopsInOrder: [GTFSStop] = []
        for time in stopTimes {
            guard var stop = stops[time.stopID] else {
                throw TransitError(field: "", message: "trip \(trip.id) calls at stop \"\(time.stopID)\", which stops.txt does not place")
            }
            stop.name = IsolatedName.isolated(stop.name)
            stopsInOrder.append(stop)
        }
        guard stopsInOrder.count >= 2 else {
            throw TransitError(field: "", message: "trip \(trip.id) has \(stopsInOrder.count) stop time\(stopsInOrder.count == 1 ? "" : "s"); a trip needs at least 2")
        }
        let usesShape = shape.count >= 2
        var points = usesShape ? shape.map(\.coordinate) : stopsInOrder.map(\.coordinate)
        var leading = 0, trailing = 0
        if usesShape {
            (leading, trailing) = Self.stopsBeyond(points, stops: stopsInOrder.map(\.coordinate))
            points = stopsInOrder[..<leading].map(\.coordinate) + points + stopsInOrder[(stopsInOrder.count - trailing)...].map(\.coordinate)
        }
        self.points = points
        var running = 0.0
        var cumulative = [0.0]
        for (a, b) in zip(points, points.dropFirst()) {
            running += a.distance(to: b)
            cumulative.append(running)
        }
        self.cumulative = cumulative
        var estimated: [ClosedRange<Double>] = []
        if leading > 0 { estimated.append(0...cumulative[leading]) }
        if trailing > 0 { estimated.append(cumulative[points.count - trailing - 1]...running) }
        self.estimated = estimated
        let distances = usesShape ? Self.project(stopsInOrder.map(\.coordinate), onto: points, cumulative: cumulative) : Array(cumulative)
        let times = try Self.fillTimes(stopTimes, distances: distances, trip: trip.id)
        calls = stopsInOrder.indices.map { index in
            Call(
                stop: stopsInOrder[index], sequence: stopTimes[index].sequence,
                arrival: times[index].arrival, departure: times[index].departure, distance: distances[index]
            )
        }
    }

    /// The trip's calls with other times, one pair for each call in order: its predictions.
    func withTimes(_ times: [(arrival: GTFSTime, departure: GTFSTime)]) -> TripPath {
        TripPath(trip: trip, points: points, cumulative: cumulative, estimated: estimated, calls: zip(calls, times).map { call, time in
            Call(stop: call.stop, sequence: call.sequence, arrival: time.arrival, departure: time.departure, distance: call.distance)
        })
    }

    private init(trip: GTFSTrip, points: [Coordinate], cumulative: [Double], estimated: [ClosedRange<Double>], calls: [Call]) {
        self.trip = trip
        self.points = points
        self.cumulative = cumulative
        self.estimated = estimated
        self.calls = calls
    }

    /// The path between two distances along it, in pieces that follow the shape and pieces that
    /// are estimated, in order; each of at least two points.
    func pieces(from start: Double, to end: Double) -> [(path: [Coordinate], isEstimated: Bool)] {
        var cuts = [start]
        for range in estimated {
            for cut in [range.lowerBound, range.upperBound] where cut > start && cut < end { cuts.append(cut) }
        }
        cuts.append(end)
        return zip(cuts, cuts.dropFirst()).compactMap { from, to in
            guard to > from || cuts.count == 2 else { return nil }
            let middle = (from + to) / 2
            return (path(from: from, to: to), estimated.contains { $0.contains(middle) && $0.upperBound > $0.lowerBound })
        }
    }

    /// How many of the trip's first stops, and of its last, lie farther than
    /// `shapeReachTolerance` from the shape, so that the path must run on from stop to stop.
    private static func stopsBeyond(_ shape: [Coordinate], stops: [Coordinate]) -> (leading: Int, trailing: Int) {
        func isOff(_ stop: Coordinate) -> Bool {
            zip(shape, shape.dropFirst()).allSatisfy { nearest(stop, from: $0, to: $1).metres > shapeReachTolerance }
        }
        let leading = stops.prefix { isOff($0) }.count
        guard leading < stops.count - 1 else { return (0, 0) }
        let trailing = stops[leading...].reversed().prefix { isOff($0) }.count
        guard leading + trailing < stops.count - 1 else { return (0, 0) }
        return (leading, trailing)
    }

    /// The path between two distances along it, ends included.
    func path(from start: Double, to end: Double) -> [Coordinate] {
        guard end > start else { return [point(at: start), point(at: start)] }
        var path = [point(at: start)]
        for index in points.indices where cumulative[index] > start && cumulative[index] < end {
            path.append(points[index])
        }
        path.append(point(at: end))
        return path
    }

    /// The point `distance` metres along the path.
    func point(at distance: Double) -> Coordinate {
        guard distance > 0 else { return points[0] }
        guard let after = cumulative.firstIndex(where: { $0 >= distance }) else { return points[points.count - 1] }
        let before = max(0, after - 1)
        let span = cumulative[after] - cumulative[before]
        let fraction = span > 0 ? (distance - cumulative[before]) / span : 0
        let a = points[before], b = points[after]
        return Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * fraction, longitude: a.longitude + (b.longitude - a.longitude) * fraction)
    }

    /// How far along the path the point nearest `coordinate` lies.
    func distance(nearest coordinate: Coordinate) -> Double {
        Self.project([coordinate], onto: points, cumulative: cumulative)[0]
    }

    /// Each stop's distance along the path, in order: the nearest point on the segments from
    /// the previous stop's onwards, taking the earliest pass within `sameStopTolerance` metres
    /// of the nearest, so that a loop's first stop is not placed at its end.
    private static func project(_ stops: [Coordinate], onto points: [Coordinate], cumulative: [Double]) -> [Double] {
        var firstSegment = 0
        var distances: [Double] = []
        for stop in stops {
            var candidates: [(segment: Int, offset: Double, metres: Double)] = []
            for segment in firstSegment..<(points.count - 1) {
                let (fraction, metres) = nearest(stop, from: points[segment], to: points[segment + 1])
                candidates.append((segment, fraction * (cumulative[segment + 1] - cumulative[segment]), metres))
            }
            let best = candidates.map(\.metres).min() ?? 0
            let chosen = candidates.first { $0.metres <= best + sameStopTolerance } ?? (firstSegment, 0, 0)
            let distance = cumulative[chosen.segment] + chosen.offset
            distances.append(max(distance, distances.last ?? 0))
            firstSegment = chosen.segment
        }
        return distances
    }

    /// The fraction along the segment a-b of the point nearest `p`, and how far that point is
    /// from `p` in metres, on a local flat projection (segments are short).
    private static func nearest(_ p: Coordinate, from a: Coordinate, to b: Coordinate) -> (fraction: Double, metres: Double) {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let cosLat = cos(p.latitude * .pi / 180)
        func local(_ c: Coordinate) -> (x: Double, y: Double) {
            ((c.longitude - p.longitude) * cosLat * metresPerDegree, (c.latitude - p.latitude) * metresPerDegree)
        }
        let la = local(a), lb = local(b)
        let dx = lb.x - la.x, dy = lb.y - la.y
        let lengthSquared = dx * dx + dy * dy
        let fraction = lengthSquared > 0 ? min(1, max(0, -(la.x * dx + la.y * dy) / lengthSquared)) : 0
        let x = la.x + fraction * dx, y = la.y + fraction * dy
        return (fraction, (x * x + y * y).squareRoot())
    }

    /// Arrival and departure at every call: a call with one time has it for both; calls with
    /// none take times interpolated by distance between the timed calls either side.
    static func fillTimes(_ stopTimes: [GTFSStopTime], distances: [Double], trip: String) throws(TransitError) -> [(arrival: GTFSTime, departure: GTFSTime)] {
        let given = stopTimes.map { time -> (GTFSTime, GTFSTime)? in
            guard let arrival = time.arrival ?? time.departure, let departure = time.departure ?? time.arrival else { return nil }
            return (arrival, departure)
        }
        guard given.first! != nil, given.last! != nil else {
            throw TransitError(field: "", message: "trip \(trip) has no time at its \(given.first! == nil ? "first" : "last") stop; GTFS requires one")
        }
        var filled: [(arrival: GTFSTime, departure: GTFSTime)] = []
        filled.reserveCapacity(given.count)
        // The timed calls either side of the untimed one at `index`; `next` is looked for once
        // for each run of untimed calls, so that filling is linear in the calls.
        var previous = 0, next = 0
        for index in given.indices {
            if let times = given[index] {
                filled.append(times)
                previous = index
                continue
            }
            if next < index { next = given[(index + 1)...].firstIndex { $0 != nil }! }
            let from = filled[previous].departure.seconds, to = given[next]!.0.seconds
            let span = distances[next] - distances[previous]
            let fraction = span > 0 ? (distances[index] - distances[previous]) / span : Double(index - previous) / Double(next - previous)
            let time = GTFSTime(seconds: from + Int((Double(to - from) * fraction).rounded()))
            filled.append((time, time))
        }
        return filled
    }
}
