import MapGeometry

/// Which trip a realtime report is about, as GTFS-realtime's TripDescriptor says it.
public struct RealtimeTrip: Hashable, Sendable {
    /// How the trip stands against the timetable.
    public enum Relationship: String, Hashable, Sendable {
        /// Runs as timetabled, perhaps late or early.
        case scheduled
        /// A trip the timetable does not have.
        case added
        /// Runs with no timetable, such as a frequency-based trip.
        case unscheduled
        /// A timetabled trip that does not run.
        case cancelled
        /// Replaces the timetabled trip, with the stops and times the report gives.
        case replacement
        /// Another run of a timetabled trip, at another time.
        case duplicated
        /// Removed from the timetable; said as cancelled.
        case deleted
        /// A trip the timetable does not have (GTFS-realtime's later name for ADDED).
        case new
    }

    /// `trip_id`; nil when the report names only the route, as some agencies' vehicles do.
    public var tripID: String?
    public var routeID: String?
    public var directionID: Int?
    /// `start_time`: the run of a frequency-based trip, or the start of a trip the timetable lacks.
    public var startTime: GTFSTime?
    /// `start_date`: the service day the trip runs on.
    public var startDate: GTFSDate?
    public var relationship: Relationship

    public init(
        tripID: String? = nil, routeID: String? = nil, directionID: Int? = nil, startTime: GTFSTime? = nil, startDate: GTFSDate? = nil,
        relationship: Relationship = .scheduled
    ) {
        self.tripID = tripID
        self.routeID = routeID
        self.directionID = directionID
        self.startTime = startTime
        self.startDate = startDate
        self.relationship = relationship
    }

    /// Whether the trip does not run at all.
    public var isCancelled: Bool { relationship == .cancelled || relationship == .deleted }

    /// Whether the trip is one the timetable does not have.
    public var isAdded: Bool { relationship == .added || relationship == .new }
}

/// One vehicle of a GTFS-realtime VehiclePositions feed.
public struct RealtimeVehicle: Hashable, Sendable {
    /// Where the vehicle is relative to `currentStopSequence` or `stopID`.
    public enum Status: String, Hashable, Sendable {
        /// About to arrive at the stop.
        case incomingAt
        /// Standing at the stop.
        case stoppedAt
        /// Has left the previous stop and is on its way to this one.
        case inTransitTo
    }

    /// The trip the vehicle runs, when the message says.
    public var tripID: String?
    /// The route it runs, when the message says: some agencies' vehicles name only this.
    public var routeID: String?
    /// The run of a frequency-based trip, or the start of a trip the timetable lacks.
    public var startTime: GTFSTime?
    public var startDate: GTFSDate?
    /// The vehicle's own label, such as its fleet number, when given.
    public var label: String?
    /// The vehicle's position, when the message gives one.
    public var coordinate: Coordinate?
    /// The direction it faces, in degrees clockwise from north, when given.
    public var bearing: Double?
    /// The `stop_sequence` of the stop `status` is about, when given.
    public var currentStopSequence: Int?
    /// The `stop_id` of the stop `status` is about, when given.
    public var stopID: String?
    /// `IN_TRANSIT_TO` when the message leaves it out, as the GTFS-realtime reference says.
    public var status: Status
    /// When the position was measured, in seconds since 1970, when given.
    public var timestamp: Int?

    public init(
        tripID: String? = nil, routeID: String? = nil, startTime: GTFSTime? = nil, startDate: GTFSDate? = nil, label: String? = nil,
        coordinate: Coordinate? = nil, bearing: Double? = nil, currentStopSequence: Int? = nil, stopID: String? = nil,
        status: Status = .inTransitTo, timestamp: Int? = nil
    ) {
        self.tripID = tripID
        self.routeID = routeID
        self.startTime = startTime
        self.startDate = startDate
        self.label = label
        self.coordinate = coordinate
        self.bearing = bearing
        self.currentStopSequence = currentStopSequence
        self.stopID = stopID
        self.status = status
        self.timestamp = timestamp
    }
}

/// One trip's predictions, from a GTFS-realtime TripUpdate.
public struct RealtimeTripUpdate: Hashable, Sendable {
    /// A predicted arrival or departure: a delay against the timetable, an absolute time, or both.
    public struct Event: Hashable, Sendable {
        /// Seconds late (early when negative).
        public var delay: Int?
        /// Seconds since 1970.
        public var time: Int?

        public init(delay: Int? = nil, time: Int? = nil) {
            self.delay = delay
            self.time = time
        }
    }

    /// What a stop's update says of the stop.
    public enum StopRelationship: String, Hashable, Sendable {
        /// The vehicle calls, at the times given.
        case scheduled
        /// The vehicle passes the stop without calling.
        case skipped
        /// Nothing is known: the timetable stands.
        case noData
        /// Calls, with no timetable (a frequency-based trip).
        case unscheduled
    }

    /// One StopTimeUpdate.
    public struct StopUpdate: Hashable, Sendable {
        public var sequence: Int?
        public var stopID: String?
        public var arrival: Event?
        public var departure: Event?
        public var relationship: StopRelationship

        public init(sequence: Int? = nil, stopID: String? = nil, arrival: Event? = nil, departure: Event? = nil, relationship: StopRelationship = .scheduled) {
            self.sequence = sequence
            self.stopID = stopID
            self.arrival = arrival
            self.departure = departure
            self.relationship = relationship
        }
    }

    public var trip: RealtimeTrip
    /// The stops' updates, in `stop_sequence` order.
    public var stops: [StopUpdate]
    /// The trip's own delay, for its stops no update reaches.
    public var delay: Int?
    /// `trip_properties.trip_headsign`, for a trip the timetable lacks.
    public var headsign: String?
    /// When the prediction was made, in seconds since 1970, when given.
    public var timestamp: Int?

    public init(trip: RealtimeTrip, stops: [StopUpdate] = [], delay: Int? = nil, headsign: String? = nil, timestamp: Int? = nil) {
        self.trip = trip
        self.stops = stops
        self.delay = delay
        self.headsign = headsign
        self.timestamp = timestamp
    }
}

/// A disturbance, from a GTFS-realtime Alert: what it says and what it affects.
public struct RealtimeAlert: Hashable, Sendable {
    /// What an alert affects: each field given narrows it, as GTFS-realtime's EntitySelector.
    public struct Selector: Hashable, Sendable {
        public var agencyID: String?
        public var routeID: String?
        public var routeType: Int?
        public var directionID: Int?
        public var tripID: String?
        public var stopID: String?

        public init(agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, directionID: Int? = nil, tripID: String? = nil, stopID: String? = nil) {
            self.agencyID = agencyID
            self.routeID = routeID
            self.routeType = routeType
            self.directionID = directionID
            self.tripID = tripID
            self.stopID = stopID
        }
    }

    /// A time the alert is in force, in seconds since 1970; either end may be open.
    public struct Period: Hashable, Sendable {
        public var start: Int?
        public var end: Int?

        public init(start: Int? = nil, end: Int? = nil) {
            self.start = start
            self.end = end
        }

        public func contains(_ moment: Int) -> Bool {
            (start ?? .min) <= moment && moment <= (end ?? .max)
        }
    }

    /// The entity's `id`.
    public var id: String
    /// When it is in force; always, when empty.
    public var periods: [Period]
    public var informed: [Selector]
    /// `header_text`, in the language chosen (`RealtimeLanguage`).
    public var header: String
    /// `description_text`, when given.
    public var details: String?

    public init(id: String, periods: [Period] = [], informed: [Selector], header: String, details: String? = nil) {
        self.id = id
        self.periods = periods
        self.informed = informed
        self.header = header
        self.details = details
    }

    /// Whether it is in force at `moment`, seconds since 1970.
    public func isActive(at moment: Int) -> Bool {
        periods.isEmpty || periods.contains { $0.contains(moment) }
    }
}
