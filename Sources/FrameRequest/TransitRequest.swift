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
///   "vehicle": {"trip": "T7-0830", "time": "08:31:30"}
/// }
/// ```
///
/// `feed` is required: a GTFS folder or `.zip` beside the scene file, or, for scenes sent to
/// the server, the name of a feed it loaded (`serve --gtfs NAME=PATH`). Exactly one of `legs`
/// (one or more) and `departure` (`{"trip": ..., "stop": ...}`, the departures view) is given.
/// `vehicle` is optional: its `trip` (the departure's, else the first leg's, when left out) and
/// either `time` (`H:MM:SS`, where the timetable puts it then) or `realtime` (a GTFS-realtime
/// VehiclePositions file beside the scene file), which may also stand beside `vehicle`, or alone
/// to follow the journey's first trip.
public struct TransitRequest: Hashable, Sendable {
    /// Where the feed comes from.
    public enum Feed: Hashable, Sendable {
        case file(URL)
        /// A feed the server loaded at start-up, by its name.
        case named(String)
    }

    /// Where the followed vehicle's position comes from.
    public enum VehicleSource: Hashable, Sendable {
        case timetable(GTFSTime)
        case realtime(URL)
    }

    /// The followed vehicle: its trip, and where its position comes from.
    public struct Vehicle: Hashable, Sendable {
        public var trip: String
        public var source: VehicleSource
    }

    public var feed: Feed
    public var plan: TransitJourney.Plan
    /// Nil when no vehicle is followed.
    public var vehicle: Vehicle?

    /// The largest GTFS-realtime file read: a whole region's vehicles are well under a megabyte.
    static let maxRealtimeBytes = 16_000_000

    /// Reads the object at `reader`. `directory` is where file paths start (a scene file's or
    /// a script's folder); nil for a scene sent to the server, whose feed is a loaded feed's
    /// name and which may not name files.
    public static func parse(_ reader: JSONObjectReader, directory: URL?) throws(JSONFieldError) -> TransitRequest {
        try reader.rejectUnknownFields(allowed: ["feed", "legs", "departure", "vehicle", "realtime"])
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
            try departure.rejectUnknownFields(allowed: ["trip", "stop"])
            plan = .departure(trip: try departure.requiredNonEmptyString("trip"), stop: try departure.requiredNonEmptyString("stop"))
        default:
            throw JSONFieldError(path: reader.path(of: "legs"), message: "give exactly one of \"legs\" (the journey's legs) and \"departure\" (the departures view)")
        }
        var request = TransitRequest(feed: feed, plan: plan)
        let vehicle = try reader.object("vehicle")
        try vehicle?.rejectUnknownFields(allowed: ["trip", "time", "realtime"])
        let realtimeHolders = [vehicle, reader].compactMap { $0 }.filter { $0.has("realtime") }
        guard realtimeHolders.count <= 1 else {
            throw JSONFieldError(path: reader.path(of: "realtime"), message: "is given twice; give it once, in \"vehicle\" or beside it")
        }
        guard vehicle != nil || !realtimeHolders.isEmpty else { return request }
        let trip = try vehicle?.string("trip") ?? plan.firstTrip
        guard !trip.isEmpty else {
            throw JSONFieldError(path: reader.path(of: "vehicle.trip"), value: .string(trip), allowed: "a trip_id of the journey")
        }
        switch (vehicle?.fields["time"], realtimeHolders.first) {
        case (let time?, nil):
            guard case .string(let text) = time, let parsed = GTFSTime(parsing: Substring(text)) else {
                throw JSONFieldError(path: reader.path(of: "vehicle.time"), value: time, allowed: "a time of the service day, H:MM:SS, such as \"08:31:30\" or \"24:05:00\"")
            }
            request.vehicle = Vehicle(trip: trip, source: .timetable(parsed))
        case (nil, let holder?):
            let file = try holder.requiredNonEmptyString("realtime")
            guard let directory else {
                throw JSONFieldError(path: holder.path(of: "realtime"), message: "names a file, which only a scene file on disk can; give \"time\" instead")
            }
            request.vehicle = Vehicle(trip: trip, source: .realtime(resolve(file, in: directory)))
        default:
            throw JSONFieldError(path: reader.path(of: "vehicle.time"), message: "give exactly one of \"time\" (H:MM:SS) and \"realtime\" (a GTFS-realtime VehiclePositions file)")
        }
        return request
    }

    private init(feed: Feed, plan: TransitJourney.Plan) {
        self.feed = feed
        self.plan = plan
    }

    /// Opens the feed (from disk, or among `loaded` by name), reads the journey's trips and the
    /// vehicle's report, and checks them. Errors name the field under `path` (such as
    /// `transit`), the feed's file, line and column where the feed is at fault, and what is allowed.
    public func resolve(loaded: [String: GTFSFeed], path: String) throws(JSONFieldError) -> ResolvedTransit {
        let feed: GTFSFeed
        switch self.feed {
        case .file(let url):
            do {
                feed = try GTFSFeed.open(at: url)
            } catch {
                throw JSONFieldError(path: "\(path).feed", message: error.description)
            }
        case .named(let name):
            guard let found = loaded[name] else {
                let allowed = loaded.isEmpty ? "none are loaded; start the server with --gtfs NAME=PATH" : "one of \(loaded.keys.sorted().joined(separator: ", "))"
                throw JSONFieldError(path: "\(path).feed", message: "\"\(name)\" is not a feed the server loaded; allowed \(allowed)")
            }
            feed = found
        }
        let journey: TransitJourney
        do {
            journey = try TransitJourney(plan, following: vehicle?.trip, in: feed)
        } catch {
            throw JSONFieldError(path: error.field.isEmpty ? path : "\(path).\(error.field)", message: error.message)
        }
        guard let vehicle else { return ResolvedTransit(journey: journey, vehicle: nil) }
        switch vehicle.source {
        case .timetable(let time):
            return ResolvedTransit(journey: journey, vehicle: .scheduled(time))
        case .realtime(let url):
            let field = "\(path).vehicle.realtime"
            let vehicles: [RealtimeVehicle]
            do {
                vehicles = try RealtimeVehicles.read(BoundedFile.contents(of: url, maxBytes: Self.maxRealtimeBytes), file: url.lastPathComponent)
            } catch let error as GTFSError {
                throw JSONFieldError(path: field, message: error.description)
            } catch let error as BoundedFile.TooLarge {
                throw JSONFieldError(path: field, message: "\(url.lastPathComponent): \(error.description)")
            } catch {
                throw JSONFieldError(path: field, message: "\(url.lastPathComponent) cannot be read (\(error.localizedDescription))")
            }
            guard let report = vehicles.first(where: { $0.tripID == vehicle.trip }) else {
                let trips = vehicles.compactMap(\.tripID)
                let found = trips.isEmpty ? "no vehicle with a trip" : "vehicles on trips \(trips.prefix(10).joined(separator: ", "))"
                throw JSONFieldError(path: field, message: "\(url.lastPathComponent) has no vehicle on trip \(vehicle.trip); it has \(found)")
            }
            return ResolvedTransit(journey: journey, vehicle: .realtime(report))
        }
    }

    /// An absolute path as it is; a relative one inside `directory`.
    private static func resolve(_ path: String, in directory: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)).standardizedFileURL
    }
}

extension TransitJourney.Plan {
    /// The trip a vehicle is followed on when the request names none: the departure's, else
    /// the first leg's.
    var firstTrip: String {
        switch self {
        case .legs(let legs): legs.first?.trip ?? ""
        case .departure(let trip, _): trip
        }
    }
}

/// A transit request looked up in its feed: the journey and what is known of its vehicle.
public struct ResolvedTransit: Sendable {
    public let journey: TransitJourney
    public let vehicle: VehicleReport?

    /// The journey as drawn `seconds` after the request's moment: a timetabled vehicle moves
    /// on by the timetable; a realtime report stays where it was.
    public func map(secondsLater seconds: Double = 0) -> TransitMap {
        switch vehicle {
        case .scheduled(let time): journey.map(vehicle: .scheduled(time.adding(seconds: Int(seconds.rounded(.down)))))
        case let report: journey.map(vehicle: report)
        }
    }
}
