/// The files of a feed that MapFrame reads. Others (transfers.txt, fare tables and so on) are
/// left alone.
enum FeedFile: String, CaseIterable {
    case agency = "agency.txt"
    case routes = "routes.txt"
    case trips = "trips.txt"
    case stops = "stops.txt"
    case stopTimes = "stop_times.txt"
    case shapes = "shapes.txt"
    case calendar = "calendar.txt"
    case calendarDates = "calendar_dates.txt"
    case frequencies = "frequencies.txt"

    /// Whether a feed must have it. `shapes.txt` is optional, and trips without a shape are drawn
    /// straight from stop to stop; so are the service calendar, which only a departure board
    /// needs, and `frequencies.txt`.
    var isRequired: Bool {
        switch self {
        case .agency, .routes, .trips, .stops, .stopTimes: true
        case .shapes, .calendar, .calendarDates, .frequencies: false
        }
    }

    /// Whether it is read whole when the feed opens. `stop_times.txt` and `shapes.txt` may hold
    /// millions of rows, and are read a row at a time, keeping only the trips or shapes asked for.
    var isReadWhole: Bool { self != .stopTimes && self != .shapes }

    static let requiredNames = allCases.filter(\.isRequired).map(\.rawValue).joined(separator: ", ")
}
