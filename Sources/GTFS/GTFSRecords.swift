import ImageCodec
import MapGeometry

/// A time of day as GTFS writes it, `H:MM:SS`, counted from noon minus 12 hours of the service
/// day. Times may pass 24:00:00: a trip that leaves at 23:50 and arrives at 00:20 the next
/// morning arrives at 24:20:00.
public struct GTFSTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since the start of the service day.
    public var seconds: Int

    public init(seconds: Int) {
        self.seconds = seconds
    }

    /// Reads `H:MM:SS`: hours of one to three digits, past 24 after midnight; minutes and
    /// seconds of two digits, 00 to 59. Nil for anything else. Reads the bytes directly, as
    /// `stop_times.txt` has two times a row and millions of rows.
    public init?(parsing text: Substring) {
        var total = 0, field = 0, digits = 0, value = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 3 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: ":"):
                guard field < 2, Self.isValid(field: field, digits: digits, value: value) else { return nil }
                total = total * 60 + value
                (field, digits, value) = (field + 1, 0, 0)
            default:
                return nil
            }
        }
        guard field == 2, Self.isValid(field: field, digits: digits, value: value) else { return nil }
        seconds = total * 60 + value
    }

    /// Hours (field 0) have one to three digits; minutes and seconds two, up to 59.
    private static func isValid(field: Int, digits: Int, value: Int) -> Bool {
        field == 0 ? (1...3).contains(digits) : digits == 2 && value < 60
    }

    public static func < (a: GTFSTime, b: GTFSTime) -> Bool { a.seconds < b.seconds }

    /// The time plus `seconds`.
    public func adding(seconds: Int) -> GTFSTime { GTFSTime(seconds: self.seconds + seconds) }

    /// As GTFS writes it: `8:31:30`, `25:05:00`.
    public var description: String {
        let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3600)
        let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
        return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))"
    }

    /// As a clock shows it, on a 24-hour dial: `08:45`, and `00:20` for 24:20:00.
    public var clock: String {
        let minutesOfDay = (seconds / 60) % (24 * 60)
        return "\(twoDigits(minutesOfDay / 60)):\(twoDigits(minutesOfDay % 60))"
    }

    private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// One line of `agency.txt`.
public struct GTFSAgency: Hashable, Sendable {
    /// `agency_id`; empty when the feed has one agency and leaves it out.
    public var id: String
    public var name: String
    /// `agency_timezone`, an IANA name such as `Europe/Stockholm`: the clock the feed's times keep.
    public var timezone: String
}

/// One line of `routes.txt`: a line such as "Tram 7".
public struct GTFSRoute: Hashable, Sendable {
    public var id: String
    /// `route_short_name`, such as "7"; nil when the feed gives only a long name.
    public var shortName: String?
    /// `route_long_name`, such as "Angered - Tynnered".
    public var longName: String?
    /// `route_type`: 0 to 12 from the GTFS reference, or an extended type (100 to 1799).
    public var type: Int
    /// `route_color`; nil when the feed leaves it out.
    public var colour: Colour?
    /// `route_text_color`; nil when the feed leaves it out.
    public var textColour: Colour?
    /// `agency_id`; nil when the feed has one agency and leaves it out.
    public var agencyID: String?

    public init(id: String, shortName: String?, longName: String?, type: Int, colour: Colour?, textColour: Colour?, agencyID: String? = nil) {
        self.id = id
        self.shortName = shortName
        self.longName = longName
        self.type = type
        self.colour = colour
        self.textColour = textColour
        self.agencyID = agencyID
    }
}

/// One line of `trips.txt`.
public struct GTFSTrip: Hashable, Sendable {
    public var id: String
    public var routeID: String
    /// `service_id`: the days it runs, from `calendar.txt` and `calendar_dates.txt`.
    public var serviceID: String
    /// `trip_headsign`, where the vehicle says it is going; nil when left out.
    public var headsign: String?
    /// `shape_id`; nil when the trip has no shape, and it is drawn straight from stop to stop.
    public var shapeID: String?

    public init(id: String, routeID: String, serviceID: String, headsign: String?, shapeID: String?) {
        self.id = id
        self.routeID = routeID
        self.serviceID = serviceID
        self.headsign = headsign
        self.shapeID = shapeID
    }
}

/// One line of `stops.txt` that has a position.
public struct GTFSStop: Hashable, Sendable {
    public var id: String
    public var name: String
    public var coordinate: Coordinate
    /// `parent_station`: the station a platform belongs to; nil when it stands alone.
    public var parentStation: String?
}

/// One line of `stop_times.txt`: a trip's call at a stop.
public struct GTFSStopTime: Hashable, Sendable {
    public var tripID: String
    /// `stop_sequence`: increasing along the trip, not necessarily consecutive.
    public var sequence: Int
    public var stopID: String
    /// `arrival_time` and `departure_time`. Either may be left out between timed stops (GTFS
    /// requires them at a trip's first and last stop); when one is given alone, both are it.
    public var arrival: GTFSTime?
    public var departure: GTFSTime?
    /// `shape_dist_traveled`, in the shape's own units; nil when left out.
    public var distanceTravelled: Double?
    /// False when `pickup_type` is 1: nobody may board here, so the call is no departure.
    public var allowsBoarding = true

    public init(
        tripID: String, sequence: Int, stopID: String, arrival: GTFSTime?, departure: GTFSTime?, distanceTravelled: Double? = nil, allowsBoarding: Bool = true
    ) {
        self.tripID = tripID
        self.sequence = sequence
        self.stopID = stopID
        self.arrival = arrival
        self.departure = departure
        self.distanceTravelled = distanceTravelled
        self.allowsBoarding = allowsBoarding
    }
}

/// One line of `shapes.txt`: a point of a trip's path.
public struct GTFSShapePoint: Hashable, Sendable {
    public var shapeID: String
    public var sequence: Int
    public var coordinate: Coordinate
    /// `shape_dist_traveled`, in the shape's own units; nil when left out.
    public var distanceTravelled: Double?
}
