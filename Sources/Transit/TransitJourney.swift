import Foundation
import GTFS
import MapGeometry

/// A journey read from a GTFS feed, ready to draw at any moment: the legs you ride (or, in
/// the departures view, the vehicle's line through your stop), each trip placed on its path.
///
/// ```swift
/// let feed = try GTFSFeed.open(at: URL(fileURLWithPath: "gtfs/"))
/// let journey = try TransitJourney(
///     .legs([.init(trip: "T7-0830", board: "S1", alight: "S4"), .init(trip: "B60-0845", board: "S4", alight: "S9")]),
///     following: "T7-0830", in: feed)
/// let map = journey.map(vehicle: .scheduled(GTFSTime(parsing: "08:31:30")!))
/// ```
public struct TransitJourney: Sendable {
    /// What to show.
    public enum Plan: Hashable, Sendable {
        /// Legs ridden in turn, each on one trip from a boarding stop to an alighting stop.
        case legs([Leg])
        /// The departures view: `trip`'s line from where its vehicle is, through `stop`, to the
        /// end of the line. For a frequency-based trip, `start` is the run's start time at its
        /// first stop; nil takes the trip's own stop times.
        case departure(trip: String, stop: String, start: GTFSTime? = nil)
    }

    /// One leg of a journey.
    public struct Leg: Hashable, Sendable {
        public var trip: String
        public var board: String
        public var alight: String

        public init(trip: String, board: String, alight: String) {
            self.trip = trip
            self.board = board
            self.alight = alight
        }
    }

    /// A leg placed on its trip: the calls from `boardIndex` to `alightIndex` are ridden.
    struct PlacedLeg: Sendable {
        /// The trip's path with its timetable (shifted to the run, for a frequency-based trip).
        let path: TripPath
        let route: GTFSRoute
        let line: TransitLine
        /// Where the vehicle says it is going: the trip's headsign, else its last stop's name.
        let headsign: String
        let boardIndex: Int
        let alightIndex: Int
        /// What a TripUpdate predicts of the trip; nil when no realtime file speaks of it.
        let live: LiveTrip?
        /// Whether the trip is one the timetable lacks, read from a TripUpdate alone.
        let isAdded: Bool

        /// The path with the times a rider should be told: the predictions where there are some.
        var timedPath: TripPath { live?.path ?? path }
    }

    /// A trip as realtime predicts it.
    struct LiveTrip: Sendable {
        /// When the trip's service day starts, in seconds since 1970.
        let dayStart: Int
        let prediction: TripPrediction
        /// The path with the predicted times in place of the timetable's where there are some.
        let path: TripPath

        /// Seconds late (early when negative) at call `index`; nil where nothing is predicted.
        func delay(at index: Int, on scheduled: TripPath) -> Int? {
            let call = prediction.calls[index]
            guard let predicted = call.arrival ?? call.departure else { return nil }
            return predicted - (dayStart + scheduled.calls[index].arrival.seconds)
        }
    }

    let legs: [PlacedLeg]
    /// The departures view, which has no end node and rides to the end of the line.
    let isDeparture: Bool
    /// The leg whose trip the vehicle runs, when one is followed.
    let followedLeg: Int?
    /// The alerts the realtime files hold about this journey, in force or not.
    let alerts: [RealtimeAlert]
    let timeZone: TimeZone

    /// What the realtime files must keep for `plan`: its trips, their routes and stops.
    public static func interest(in plan: Plan, feed: GTFSFeed) -> RealtimeInterest {
        let trips: [String], stops: [String]
        switch plan {
        case .legs(let legs): (trips, stops) = (legs.map(\.trip), legs.flatMap { [$0.board, $0.alight] })
        case .departure(let trip, let stop, _): (trips, stops) = ([trip], [stop])
        }
        let routes = trips.compactMap { feed.trips[$0]?.routeID }.compactMap { feed.routes[$0] }
        return RealtimeInterest(
            tripIDs: Set(trips), routeIDs: Set(routes.map(\.id)), stopIDs: Set(stops),
            agencyIDs: Set(routes.map { $0.agencyID ?? feed.agencies[0].id }), routeTypes: Set(routes.map(\.type))
        )
    }

    /// Reads the journey's trips from `feed` and checks it: every trip and stop is known, each
    /// boarding stop is on its trip and each alighting stop comes after it, and the followed
    /// trip, if any, is one of the journey's. `realtime` brings predictions (a trip's TripUpdate,
    /// or for a trip the timetable lacks, its stops and times) and alerts; `date` is the service
    /// day, when known, which a TripUpdate's own `start_date` or the files' timestamp otherwise says.
    public init(_ plan: Plan, following vehicleTrip: String?, in feed: GTFSFeed, realtime: RealtimeFeed = RealtimeFeed(), date: GTFSDate? = nil) throws(TransitError) {
        let legs: [(leg: Leg, field: String)]
        var runStart: GTFSTime?
        switch plan {
        case .legs(let given):
            guard !given.isEmpty else { throw TransitError(field: "legs", message: "is empty; allowed 1 or more legs") }
            legs = given.enumerated().map { ($1, "legs[\($0)]") }
        case .departure(let trip, let stop, let start):
            legs = [(Leg(trip: trip, board: stop, alight: ""), "departure")]
            runStart = start
        }
        let timeZone = feed.timeZone
        var added: [String: (trip: GTFSTrip, stopTimes: [GTFSStopTime], dayStart: Int, update: RealtimeTripUpdate)] = [:]
        for (leg, field) in legs where feed.trips[leg.trip] == nil {
            guard let update = realtime.tripUpdates.first(where: { $0.trip.tripID == leg.trip }) else {
                throw TransitError(field: "\(field).trip", message: "\"\(leg.trip)\" is not a trip in the feed's trips.txt, nor in a realtime file's trip updates")
            }
            added[leg.trip] = try Self.addedTrip(update, field: "\(field).trip", feed: feed, date: date, timestamp: realtime.timestamp)
        }
        let tripIDs = Set(legs.map(\.leg.trip)).filter { feed.trips[$0] != nil }
        let stopTimes: [String: [GTFSStopTime]]
        let shapes: [String: [GTFSShapePoint]]
        do {
            stopTimes = tripIDs.isEmpty ? [:] : try feed.stopTimes(ofTrips: tripIDs)
            let shapeIDs = Set(tripIDs.compactMap { feed.trips[$0]?.shapeID })
            shapes = shapeIDs.isEmpty ? [:] : try feed.shapes(shapeIDs)
        } catch {
            throw TransitError(field: "feed", message: error.description)
        }
        var placed: [PlacedLeg] = []
        for (leg, field) in legs {
            let isAdded = added[leg.trip] != nil
            let trip = feed.trips[leg.trip] ?? added[leg.trip]!.trip
            let route = feed.routes[trip.routeID] ?? GTFSRoute(id: trip.routeID, shortName: nil, longName: nil, type: 3, colour: nil, textColour: nil)
            var path: TripPath
            do {
                path = try TripPath(
                    trip: trip, stopTimes: stopTimes[trip.id] ?? added[leg.trip]?.stopTimes ?? [], shape: trip.shapeID.flatMap { shapes[$0] } ?? [],
                    stops: feed.stops
                )
            } catch {
                throw TransitError(field: "\(field).trip", message: error.message)
            }
            if let runStart, feed.frequencies[trip.id] != nil {
                let shift = runStart.seconds - path.calls[0].departure.seconds
                path = path.withTimes(path.calls.map { ($0.arrival.adding(seconds: shift), $0.departure.adding(seconds: shift)) })
            }
            let stopIDs = path.calls.map(\.stop.id)
            let boardField = plan.isDeparture ? "\(field).stop" : "\(field).board"
            guard let board = stopIDs.firstIndex(of: leg.board) else {
                throw TransitError(field: boardField, message: "\"\(leg.board)\" is not a stop of trip \(trip.id); allowed \(Self.list(stopIDs))")
            }
            var alight = stopIDs.count - 1
            if !plan.isDeparture {
                guard let after = stopIDs[(board + 1)...].firstIndex(of: leg.alight) else {
                    let message = stopIDs.contains(leg.alight)
                        ? "\"\(leg.alight)\" does not come after the boarding stop \"\(leg.board)\" on trip \(trip.id); allowed \(Self.list(Array(stopIDs[(board + 1)...])))"
                        : "\"\(leg.alight)\" is not a stop of trip \(trip.id); allowed \(Self.list(Array(stopIDs[(board + 1)...])))"
                    throw TransitError(field: "\(field).alight", message: message)
                }
                alight = after
            } else if board == alight {
                throw TransitError(field: boardField, message: "\"\(leg.board)\" is the last stop of trip \(trip.id), so nothing departs from it; allowed \(Self.list(Array(stopIDs.dropLast())))")
            }
            let update = added[leg.trip] == nil ? Self.update(for: trip.id, run: runStart, in: realtime) : nil
            let live = update.map { update in
                let dayStart = Self.serviceDayStart(of: path, update: update, date: date, timestamp: realtime.timestamp, timeZone: timeZone)
                return Self.live(path, update: update, dayStart: dayStart)
            } ?? added[leg.trip].map { Self.live(path, update: $0.update, dayStart: $0.dayStart) }
            let headsign = trip.headsign.flatMap { $0.isEmpty ? nil : IsolatedName.isolated($0) } ?? path.calls[path.calls.count - 1].stop.name
            placed.append(PlacedLeg(
                path: path, route: route, line: TransitLine(route), headsign: headsign, boardIndex: board, alightIndex: alight, live: live, isAdded: isAdded
            ))
        }
        if let vehicleTrip {
            guard let leg = legs.firstIndex(where: { $0.leg.trip == vehicleTrip }) else {
                throw TransitError(field: "vehicle.trip", message: "\"\(vehicleTrip)\" is not a trip of the journey; allowed \(Self.list(legs.map(\.leg.trip)))")
            }
            followedLeg = leg
        } else {
            followedLeg = nil
        }
        self.legs = placed
        self.timeZone = timeZone
        isDeparture = plan.isDeparture
        alerts = realtime.alerts
    }

    /// The TripUpdate for trip `tripID` (its run `run`, for a frequency-based trip), if any.
    private static func update(for tripID: String, run: GTFSTime?, in realtime: RealtimeFeed) -> RealtimeTripUpdate? {
        realtime.tripUpdates.last { update in
            update.trip.tripID == tripID && (run == nil || update.trip.startTime == nil || update.trip.startTime == run)
        }
    }

    /// When the service day of `path`'s run starts: its update's `start_date`, else `date`,
    /// else whichever of the days either side of `timestamp` runs the trip nearest it.
    static func serviceDayStart(of path: TripPath, update: RealtimeTripUpdate?, date: GTFSDate?, timestamp: Int?, timeZone: TimeZone) -> Int {
        if let day = update?.trip.startDate ?? date { return day.serviceDayStart(in: timeZone) }
        let now = timestamp ?? 0
        let today = GTFSDate.containing(now, in: timeZone)
        let first = path.calls[0].departure.seconds, last = path.calls[path.calls.count - 1].arrival.seconds
        return [today.adding(days: -1), today].map { $0.serviceDayStart(in: timeZone) }.min { a, b in
            func distance(_ start: Int) -> Int { max(0, start + first - now, now - (start + last)) }
            return distance(a) < distance(b)
        }!
    }

    /// `path` with the predictions of `update` in place of its times where there are some.
    static func live(_ path: TripPath, update: RealtimeTripUpdate, dayStart: Int) -> LiveTrip {
        let prediction = TripPrediction(
            update: update, scheduled: path.calls.map { ($0.sequence, $0.stop.id, $0.arrival, $0.departure) }, dayStart: dayStart
        )
        let times = zip(path.calls, prediction.calls).map { call, predicted -> (arrival: GTFSTime, departure: GTFSTime) in
            let arrival = predicted.arrival.map { GTFSTime(seconds: $0 - dayStart) } ?? call.arrival
            let departure = predicted.departure.map { GTFSTime(seconds: max($0 - dayStart, arrival.seconds)) } ?? max(call.departure, arrival)
            return (arrival, departure)
        }
        return LiveTrip(dayStart: dayStart, prediction: prediction, path: path.withTimes(times))
    }

    /// A trip the timetable lacks, from its TripUpdate alone: its route, and the stops it names
    /// with the times it gives them.
    private static func addedTrip(
        _ update: RealtimeTripUpdate, field: String, feed: GTFSFeed, date: GTFSDate?, timestamp: Int?
    ) throws(TransitError) -> (trip: GTFSTrip, stopTimes: [GTFSStopTime], dayStart: Int, update: RealtimeTripUpdate) {
        let tripID = update.trip.tripID ?? ""
        guard let routeID = update.trip.routeID else {
            throw TransitError(field: field, message: "\"\(tripID)\" is in a realtime file's trip updates but names no route_id, so its line is not known")
        }
        let day = update.trip.startDate ?? date ?? GTFSDate.containing(timestamp ?? 0, in: feed.timeZone)
        let dayStart = day.serviceDayStart(in: feed.timeZone)
        var stopTimes: [GTFSStopTime] = []
        for (index, stop) in update.stops.enumerated() {
            guard let stopID = stop.stopID, feed.stops[stopID] != nil, stop.relationship != .skipped,
                  let time = stop.departure?.time ?? stop.arrival?.time
            else { continue }
            let arrival = GTFSTime(seconds: (stop.arrival?.time ?? time) - dayStart), departure = GTFSTime(seconds: time - dayStart)
            stopTimes.append(GTFSStopTime(tripID: tripID, sequence: stop.sequence ?? index, stopID: stopID, arrival: arrival, departure: max(arrival, departure)))
        }
        guard stopTimes.count >= 2 else {
            throw TransitError(field: field, message: "\"\(tripID)\" is a trip the timetable lacks, and its trip update gives times at \(stopTimes.count) of the feed's stops; at least 2 are needed to draw it")
        }
        let trip = GTFSTrip(id: tripID, routeID: routeID, serviceID: "", headsign: update.headsign, shapeID: nil)
        return (trip, stopTimes, dayStart, update)
    }

    /// "S1, S2 or S3", at most ten, for saying what is allowed.
    static func list(_ values: [String]) -> String {
        let shown = values.prefix(10).map { "\"\($0)\"" }
        let more = values.count > 10 ? " (and \(values.count - 10) more)" : ""
        switch shown.count {
        case 0: return "nothing"
        case 1: return shown[0] + more
        default: return shown.dropLast().joined(separator: ", ") + " or " + shown.last! + more
        }
    }
}

extension GTFSDate {
    /// The date in `timeZone` at `moment`, seconds since 1970.
    public static func containing(_ moment: Int, in timeZone: TimeZone) -> GTFSDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(moment)))
        return GTFSDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? GTFSDate(year: 1970, month: 1, day: 1)!
    }
}

extension TransitJourney.Plan {
    var isDeparture: Bool {
        if case .departure = self { return true }
        return false
    }
}
