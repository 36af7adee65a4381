import Foundation
import GTFS
import MapRender
import StrictJSON
import Transit

/// A scene's or a script step's `departures` object, a stop's departure board, read and
/// checked but not yet looked up in its feed:
///
/// ```json
/// "departures": {"feed": "gtfs/", "stop": "S5", "date": "2024-03-15", "time": "8:41:00", "count": 6,
///                "realtime": ["trip-updates.pb", "alerts.pb"]}
/// ```
///
/// `feed` is read as `transit`'s; `stop` is a `stop_id` (a station takes its platforms
/// together); `date` is `YYYY-MM-DD` and `time` `H:MM:SS` on the feed's clock; `count` is how
/// many departures (1 to 20, default 8); `realtime`, optional, a GTFS-realtime file or a list
/// of them, in any mix of VehiclePositions, TripUpdates and Alerts.
public struct DeparturesRequest: Hashable, Sendable {
    public var feed: TransitRequest.Feed
    public var stop: String
    public var date: GTFSDate
    public var time: GTFSTime
    public var count: Int
    public var realtime: [URL]
    /// Where the request was read, for errors: `departures`, or a script step's path.
    var path: String

    public static let counts = 1...20
    public static let defaultCount = 8

    public static func parse(_ reader: JSONObjectReader, directory: URL?) throws(JSONFieldError) -> DeparturesRequest {
        try reader.rejectUnknownFields(allowed: ["feed", "stop", "date", "time", "count", "realtime"])
        let feedName = try reader.requiredNonEmptyString("feed")
        let feed: TransitRequest.Feed = directory.map { .file(TransitRequest.resolve(feedName, in: $0)) } ?? .named(feedName)
        let date = try TransitRequest.serviceDate(reader.required("date", expected: "a date, YYYY-MM-DD"), path: reader.path(of: "date"))
        let time = try TransitRequest.serviceTime(reader.required("time", expected: "a time, H:MM:SS"), path: reader.path(of: "time"))
        return DeparturesRequest(
            feed: feed, stop: try reader.requiredNonEmptyString("stop"), date: date, time: time,
            count: try reader.integer("count", in: counts) ?? defaultCount,
            realtime: try RealtimeFiles.parse(reader, key: "realtime", directory: directory) ?? [], path: reader.path
        )
    }

    /// Opens the feed (from disk, or among `loaded` by name), finds the departures and reads
    /// the realtime files (this request's, or for a loaded feed those `loadedRealtime` gives it).
    public func resolve(loaded: [String: GTFSFeed], loadedRealtime: [String: [URL]] = [:]) throws(JSONFieldError) -> Departures {
        let feed = try TransitRequest.feed(self.feed, loaded: loaded, path: path)
        var files = realtime
        if case .named(let name) = self.feed, files.isEmpty { files = loadedRealtime[name] ?? [] }
        let field = path.isEmpty ? "realtime" : "\(path).realtime"
        do throws(TransitError) {
            return try Departures(at: stop, on: date, time: time, count: count, in: feed) { interest throws(TransitError) in
                do throws(JSONFieldError) {
                    return try RealtimeFiles.read(files, keeping: interest, field: field)
                } catch {
                    throw TransitError(field: "realtime", message: error.description.dropPrefix("\(field): "))
                }
            }
        } catch {
            throw JSONFieldError(path: path.isEmpty ? error.field : "\(path).\(error.field)", message: error.message)
        }
    }
}

extension String {
    /// The string without `prefix` where it starts with it.
    func dropPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
