/// The files of a feed that MapFrame reads. Others (calendar.txt, transfers.txt and so on) are
/// left alone.
enum FeedFile: String, CaseIterable {
    case agency = "agency.txt"
    case routes = "routes.txt"
    case trips = "trips.txt"
    case stops = "stops.txt"
    case stopTimes = "stop_times.txt"
    case shapes = "shapes.txt"

    /// Whether a feed must have it; `shapes.txt` is optional, and trips without a shape are drawn
    /// straight from stop to stop.
    var isRequired: Bool { self != .shapes }

    /// Whether it is read whole when the feed opens. `stop_times.txt` and `shapes.txt` may hold
    /// millions of rows, and are read a row at a time, keeping only the trips or shapes asked for.
    var isReadWhole: Bool { self != .stopTimes && self != .shapes }

    static let requiredNames = allCases.filter(\.isRequired).map(\.rawValue).joined(separator: ", ")
}
