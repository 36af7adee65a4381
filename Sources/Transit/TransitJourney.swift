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
        /// end of the line.
        case departure(trip: String, stop: String)
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
        let path: TripPath
        let line: TransitLine
        /// Where the vehicle says it is going: the trip's headsign, else its last stop's name.
        let headsign: String
        let boardIndex: Int
        let alightIndex: Int
    }

    let legs: [PlacedLeg]
    /// The departures view, which has no end node and rides to the end of the line.
    let isDeparture: Bool
    /// The leg whose trip the vehicle runs, when one is followed.
    let followedLeg: Int?

    /// Reads the journey's trips from `feed` and checks it: every trip and stop is known, each
    /// boarding stop is on its trip and each alighting stop comes after it, and the followed
    /// trip, if any, is one of the journey's.
    public init(_ plan: Plan, following vehicleTrip: String?, in feed: GTFSFeed) throws(TransitError) {
        let legs: [(leg: Leg, field: String)]
        switch plan {
        case .legs(let given):
            guard !given.isEmpty else { throw TransitError(field: "legs", message: "is empty; allowed 1 or more legs") }
            legs = given.enumerated().map { ($1, "legs[\($0)]") }
        case .departure(let trip, let stop):
            legs = [(Leg(trip: trip, board: stop, alight: ""), "departure")]
        }
        for (leg, field) in legs where feed.trips[leg.trip] == nil {
            throw TransitError(field: "\(field).trip", message: "\"\(leg.trip)\" is not a trip in the feed's trips.txt")
        }
        let tripIDs = Set(legs.map(\.leg.trip))
        let stopTimes: [String: [GTFSStopTime]]
        let shapes: [String: [GTFSShapePoint]]
        do {
            stopTimes = try feed.stopTimes(ofTrips: tripIDs)
            let shapeIDs = Set(tripIDs.compactMap { feed.trips[$0]?.shapeID })
            shapes = shapeIDs.isEmpty ? [:] : try feed.shapes(shapeIDs)
        } catch {
            throw TransitError(field: "feed", message: error.description)
        }
        var placed: [PlacedLeg] = []
        for (leg, field) in legs {
            let trip = feed.trips[leg.trip]!
            guard let route = feed.routes[trip.routeID] else {
                throw TransitError(field: "\(field).trip", message: "trip \"\(trip.id)\" names route \"\(trip.routeID)\", which routes.txt does not have")
            }
            let path: TripPath
            do {
                path = try TripPath(trip: trip, stopTimes: stopTimes[trip.id] ?? [], shape: trip.shapeID.flatMap { shapes[$0] } ?? [], stops: feed.stops)
            } catch {
                throw TransitError(field: "\(field).trip", message: error.message)
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
            let headsign = trip.headsign.flatMap { $0.isEmpty ? nil : IsolatedName.isolated($0) } ?? path.calls[path.calls.count - 1].stop.name
            placed.append(PlacedLeg(path: path, line: TransitLine(route), headsign: headsign, boardIndex: board, alightIndex: alight))
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
        isDeparture = plan.isDeparture
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

extension TransitJourney.Plan {
    var isDeparture: Bool {
        if case .departure = self { return true }
        return false
    }
}
