import Foundation
import GTFS
import MapRender
import Payloads
import StrictJSON
import Transit

/// A scene's or a script step's `transit` object, read and checked but not yet looked up in
/// its feed:
///
/// ```json
/// "transit": {
///   "feed": "gtfs/",
///   "legs": [{"trip": "T7-0830", "board": "S1", "alight": "S4"},
///            {"trip": "B60-0845", "board": "S4", "alight": "S9"}],
///   "vehicle": {"trip": "T7-0830", "time": "08:31:30"},
///   "realtime": ["trip-updates.pb", "alerts.pb"]
/// }
/// ```
///
/// `feed` is required: a GTFS folder or `.zip` beside the scene file, or, for scenes sent to
/// the server, the name of a feed it loaded (`serve --gtfs NAME=PATH`). Exactly one of `legs`
/// (one or more) and `departure` (`{"trip", "stop"}`, the departures view, with `start` for a
/// run of a frequency-based trip) is given. `vehicle` is optional: its `trip` (the departure's,
/// else the first leg's, when left out) and either `time` (`H:MM:SS`, where the timetable, and
/// the predictions of any TripUpdate, put it then) or `realtime` (a GTFS-realtime file beside the
/// scene file). `realtime` beside `vehicle` is a file or a list of files holding VehiclePositions,
/// TripUpdates and Alerts in any mix; alone it follows the journey's first trip. `date`
/// (`YYYY-MM-DD`) is the service day, which realtime times otherwise tell.
public struct TransitRequest: Hashable, Sendable {
    /// Where the feed comes from.
    public enum Feed: Hashable, Sendable {
        case file(URL)
        /// A feed the server loaded at start-up, by its name.
        case named(String)
    }

    /// The followed vehicle: its trip, and the time of its service day the timetable places it
    /// at; nil, to place it by the realtime files.
    public struct Vehicle: Hashable, Sendable {
        public var trip: String
        public var time: GTFSTime?

        public init(trip: String, time: GTFSTime?) {
            self.trip = trip
            self.time = time
        }
    }

    /// A request made by a program rather than read, such as a departure chosen on a board.
    public init(feed: Feed, plan: TransitJourney.Plan, vehicle: Vehicle?, realtime: [URL], date: GTFSDate?) {
        self.init(feed: feed, plan: plan, vehicle: vehicle, realtime: realtime, realtimeField: "realtime", date: date)
    }

    private init(feed: Feed, plan: TransitJourney.Plan, vehicle: Vehicle?, realtime: [URL], realtimeField: String, date: GTFSDate?) {
        self.feed = feed
        self.plan = plan
        self.vehicle = vehicle
        self.realtime = realtime
        self.realtimeField = realtimeField
        self.date = date
    }

    public var feed: Feed
    public var plan: TransitJourney.Plan
    /// Nil when no vehicle is followed.
    public var vehicle: Vehicle?
    /// The GTFS-realtime files, in the order given.
    public var realtime: [URL]
    /// Where the realtime files were named, for errors: `transit.realtime` or `transit.vehicle.realtime`.
    var realtimeField: String
    /// The service day, when given.
    public var date: GTFSDate?

    /// Reads the object at `reader`. `directory` is where file paths start (a scene file's or
    /// a script's folder); nil for a scene sent to the server, whose feed is a loaded feed's
    /// name and which may not name files.
    public static func parse(_ reader: JSONObjectReader, directory: URL?) throws(JSONFieldError) -> TransitRequest {
        try reader.rejectUnknownFields(allowed: ["feed", "legs", "departure", "vehicle", "realtime", "date"])
        let feedName = try reader.requiredNonEmptyString("feed")
        let feed: Feed = directory.map { .file(resolve(feedName, in: $0)) } ?? .named(feedName)
        let plan: TransitJourney.Plan
        switch (try reader.array("legs"), try reader.object("departure")) {
        case (let legs?, nil):
            guard !legs.isEmpty else { throw JSONFieldError(path: reader.path(of: "legs"), message: "is empty; allowed 1 or more legs") }
            plan = .legs(try legs.enumerated().map { index, value throws(JSONFieldError) in
                let leg = try JSONObjectReader(value, path: "\(reader.path(of: "legs"))[\(index)]")
                try leg.rejectUnknownFields(allowed: ["trip", "board", "alight"])
                return TransitJourney.Leg(
                    trip: try leg.requiredNonEmptyString("trip"), board: try leg.requiredNonEmptyString("board"),
                    alight: try leg.requiredNonEmptyString("alight")
                )
            })
        case (nil, let departure?):
            try departure.rejectUnknownFields(allowed: ["trip", "stop", "start"])
            plan = .departure(
                trip: try departure.requiredNonEmptyString("trip"), stop: try departure.requiredNonEmptyString("stop"),
                start: try departure.fields["start"].map { value throws(JSONFieldError) in try serviceTime(value, path: departure.path(of: "start")) }
            )
        default:
            throw JSONFieldError(path: reader.path(of: "legs"), message: "give exactly one of \"legs\" (the journey's legs) and \"departure\" (the departures view)")
        }
        let date = try reader.fields["date"].map { value throws(JSONFieldError) in try serviceDate(value, path: reader.path(of: "date")) }
        var request = TransitRequest(feed: feed, plan: plan, vehicle: nil, realtime: [], realtimeField: "realtime", date: date)
        let vehicle = try reader.object("vehicle")
        try vehicle?.rejectUnknownFields(allowed: ["trip", "time", "realtime"])
        let realtimeHolders = [vehicle, reader].compactMap { $0 }.filter { $0.has("realtime") }
        guard realtimeHolders.count <= 1 else {
            throw JSONFieldError(path: reader.path(of: "realtime"), message: "is given twice; give it once, in \"vehicle\" or beside it")
        }
        if let holder = realtimeHolders.first {
            request.realtime = try RealtimeFiles.parse(holder, key: "realtime", directory: directory) ?? []
            request.realtimeField = holder.path == reader.path ? "realtime" : "vehicle.realtime"
        }
        guard vehicle != nil || !realtimeHolders.isEmpty else { return request }
        let trip = try vehicle?.string("trip") ?? plan.firstTrip
        guard !trip.isEmpty else {
            throw JSONFieldError(path: reader.path(of: "vehicle.trip"), value: .string(trip), allowed: "a trip_id of the journey")
        }
        let time = try vehicle?.fields["time"].map { value throws(JSONFieldError) in try serviceTime(value, path: reader.path(of: "vehicle.time")) }
        if time != nil, vehicle?.has("realtime") == true {
            throw JSONFieldError(path: reader.path(of: "vehicle.time"), message: "give exactly one of \"time\" (H:MM:SS) and \"realtime\" (a GTFS-realtime file)")
        }
        guard time != nil || !realtimeHolders.isEmpty else {
            throw JSONFieldError(path: reader.path(of: "vehicle.time"), message: "give exactly one of \"time\" (H:MM:SS) and \"realtime\" (a GTFS-realtime file)")
        }
        request.vehicle = Vehicle(trip: trip, time: time)
        return request
    }

    static func serviceTime(_ value: JSONValue, path: String) throws(JSONFieldError) -> GTFSTime {
        guard case .string(let text) = value, let parsed = GTFSTime(parsing: Substring(text)) else {
            throw JSONFieldError(path: path, value: value, allowed: "a time of the service day, H:MM:SS, such as \"08:31:30\" or \"24:05:00\"")
        }
        return parsed
    }

    static func serviceDate(_ value: JSONValue, path: String) throws(JSONFieldError) -> GTFSDate {
        guard case .string(let text) = value, let date = GTFSDate(iso: Substring(text)) else {
            throw JSONFieldError(path: path, value: value, allowed: "a date, YYYY-MM-DD, such as \"2024-03-15\"")
        }
        return date
    }

    /// Opens the feed (from disk, or among `loaded` by name), reads the journey's trips, the
    /// realtime files and the vehicle's report, and checks them. Errors name the field under
    /// `path` (such as `transit`), the feed's file, line and column where the feed is at fault,
    /// a realtime file's entity and field, and what is allowed. `loadedRealtime` are the files
    /// a server reads for each of its feeds. `moment` (seconds since 1970), when given, is the
    /// moment drawn, in place of the realtime files' timestamp; a vehicle they do not place is
    /// then where the timetable puts it at that moment.
    public func resolve(
        loaded: [String: GTFSFeed], loadedRealtime: [String: [URL]] = [:], path: String, at given: Int? = nil
    ) throws(JSONFieldError) -> ResolvedTransit {
        let feed = try Self.feed(self.feed, loaded: loaded, path: path)
        var files = realtime, field = realtimeField.isEmpty ? "\(path).realtime" : "\(path).\(realtimeField)"
        if case .named(let name) = self.feed, files.isEmpty, let given = loadedRealtime[name] { (files, field) = (given, "\(path).realtime") }
        let live = try RealtimeFiles.read(files, keeping: TransitJourney.interest(in: plan, feed: feed), field: field)
        let journey: TransitJourney
        do {
            journey = try TransitJourney(plan, following: vehicle?.trip, in: feed, realtime: live, date: date)
        } catch {
            throw JSONFieldError(path: error.field.isEmpty ? path : "\(path).\(error.field)", message: error.message)
        }
        let dated = date.map { day in vehicle?.time.map { day.serviceDayStart(in: feed.timeZone) + $0.seconds } } ?? nil
        let moment = given ?? dated ?? live.timestamp
        guard let vehicle else { return ResolvedTransit(journey: journey, vehicle: nil, moment: moment) }
        if let time = vehicle.time { return ResolvedTransit(journey: journey, vehicle: .scheduled(time), moment: moment) }
        var run: GTFSTime?
        if case .departure(_, _, let start) = plan { run = start }
        if let report = live.vehicles.last(where: { $0.tripID == vehicle.trip && (run == nil || $0.startTime == nil || $0.startTime == run) }) {
            return ResolvedTransit(journey: journey, vehicle: .realtime(report), moment: moment)
        }
        if let now = given ?? live.timestamp, let time = journey.serviceTime(at: now) {
            return ResolvedTransit(journey: journey, vehicle: .scheduled(time), moment: moment)
        }
        do {
            if let matched = try RouteVehicleMatch.vehicle(for: vehicle.trip, run: run, among: live.vehicles, moment: given ?? live.timestamp, date: date, in: feed) {
                return ResolvedTransit(journey: journey, vehicle: .realtime(matched), moment: moment)
            }
        } catch {
            throw JSONFieldError(path: "\(path).\(error.field)", message: error.message)
        }
        if let given {
            let day = date ?? GTFSDate.containing(given, in: feed.timeZone)
            return ResolvedTransit(journey: journey, vehicle: .scheduled(GTFSTime(seconds: given - day.serviceDayStart(in: feed.timeZone))), moment: moment)
        }
        let names = files.map(\.lastPathComponent).joined(separator: ", ")
        let trips = live.vehicles.compactMap(\.tripID) + live.otherVehicleTrips
        let routeOnly = live.vehicles.filter { $0.tripID == nil }.count
        var found = trips.isEmpty ? "no vehicle with a trip" : "vehicles on trips \(trips.prefix(10).joined(separator: ", "))"
        if routeOnly > 0 { found += " and \(routeOnly) naming only a route, none nearest this trip" }
        throw JSONFieldError(path: field, message: "\(names) has no vehicle on trip \(vehicle.trip), nor a trip update for it; it has \(found)")
    }

    /// The feed on disk, or the loaded feed of that name.
    static func feed(_ feed: Feed, loaded: [String: GTFSFeed], path: String) throws(JSONFieldError) -> GTFSFeed {
        switch feed {
        case .file(let url):
            do {
                return try GTFSFeed.open(at: url)
            } catch {
                throw JSONFieldError(path: "\(path).feed", message: error.description)
            }
        case .named(let name):
            guard let found = loaded[name] else {
                let allowed = loaded.isEmpty ? "none are loaded; start the server with --gtfs NAME=PATH" : "one of \(loaded.keys.sorted().joined(separator: ", "))"
                throw JSONFieldError(path: "\(path).feed", message: "\"\(name)\" is not a feed the server loaded; allowed \(allowed)")
            }
            return found
        }
    }

    /// An absolute path as it is; a relative one inside `directory`.
    static func resolve(_ path: String, in directory: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)).standardizedFileURL
    }
}

extension TransitJourney.Plan {
    /// The trip a vehicle is followed on when the request names none: the departure's, else
    /// the first leg's.
    var firstTrip: String {
        switch self {
        case .legs(let legs): legs.first?.trip ?? ""
        case .departure(let trip, _, _): trip
        }
    }
}

/// A transit request looked up in its feed: the journey, what is known of its vehicle, and the
/// moment drawn.
public struct ResolvedTransit: Sendable {
    public let journey: TransitJourney
    public let vehicle: VehicleReport?
    /// The moment drawn, in seconds since 1970, against which disturbances are in force: the
    /// vehicle's time on the request's date, else the realtime files' timestamp; nil when
    /// neither is known.
    public let moment: Int?

    public init(journey: TransitJourney, vehicle: VehicleReport?, moment: Int?) {
        self.journey = journey
        self.vehicle = vehicle
        self.moment = moment
    }

    /// The journey as drawn `seconds` after the request's moment: a timetabled vehicle moves
    /// on by the timetable; a realtime report stays where it was.
    public func map(secondsLater seconds: Double = 0) -> TransitMap {
        let later = Int(seconds.rounded(.down))
        let alertsAt = moment.map { $0 + later }
        switch vehicle {
        case .scheduled(let time): return journey.map(vehicle: .scheduled(time.adding(seconds: later)), alertsAt: alertsAt)
        case let report: return journey.map(vehicle: report, alertsAt: alertsAt)
        }
    }
}
