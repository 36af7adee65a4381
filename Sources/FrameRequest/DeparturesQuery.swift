import Foundation
import GTFS
import MapRender
import StrictJSON
import TileStore
import Transit

/// `GET /departures.png?feed=&stop=&time=&date=&count=&width=&height=&scale=&theme=`: a stop's
/// departure board from a feed the server loaded, read and checked as a scene's `departures`
/// (the parameters are written as a scene document, so both check every value alike, with the
/// same messages naming the parameter). `time` and `date`, given together, default to now on
/// the feed's clock; the realtime files are those the server reads for the feed.
public enum DeparturesQuery {
    public static let allowed: Set<String> = ["feed", "stop", "time", "date", "count", "width", "height", "scale", "theme"]

    public static func scene(
        from parameters: [(String, String)], catalog: StyleCatalog, feeds: [String: GTFSFeed], realtime: [String: [URL]], now: Date
    ) throws(FrameRequestError) -> Scene {
        var values: [String: String] = [:]
        for (name, value) in parameters {
            guard allowed.contains(name) else {
                throw .invalid("\(name): unknown parameter; allowed: \(allowed.sorted().joined(separator: ", "))")
            }
            guard values.updateValue(value, forKey: name) == nil else { throw .invalid("\(name): given more than once; allowed once") }
        }
        guard let feedName = values["feed"] else { throw .invalid("feed: missing; expected the name of a feed the server loaded (serve --gtfs NAME=PATH)") }
        var departures: [String: JSONValue] = ["feed": .string(feedName), "stop": .string(values["stop"] ?? "")]
        if values["stop"] == nil { departures["stop"] = nil }
        switch (values["date"], values["time"]) {
        case let (date?, time?):
            departures["date"] = .string(date)
            departures["time"] = .string(time)
        case (nil, nil):
            // Now on the feed's clock, so an unknown feed is refused here, by its name.
            let feed: GTFSFeed
            do throws(JSONFieldError) {
                feed = try TransitRequest.feed(.named(feedName), loaded: feeds, path: "departures")
            } catch {
                throw .invalid("feed: \(error.description.dropPrefix("departures.feed: "))")
            }
            let moment = Int(now.timeIntervalSince1970)
            let date = GTFSDate.containing(moment, in: feed.timeZone)
            departures["date"] = .string(date.description)
            departures["time"] = .string(GTFSTime(seconds: moment - date.serviceDayStart(in: feed.timeZone)).description)
        case (nil, _?): throw .invalid("date: missing; give date (YYYY-MM-DD) with time, or neither for now")
        case (_?, nil): throw .invalid("time: missing; give time (H:MM:SS) with date, or neither for now")
        }
        if let count = values["count"] { departures["count"] = try number(count, parameter: "count") }
        var document: [String: JSONValue] = ["departures": .object(departures)]
        if let theme = values["theme"] { document["theme"] = .string(theme) }
        if let scale = values["scale"] { document["scale"] = try number(scale, parameter: "scale") }
        if values["width"] != nil || values["height"] != nil {
            document["size"] = .object([
                "width": try values["width"].map { text throws(FrameRequestError) in try number(text, parameter: "width") } ?? .number(320),
                "height": try values["height"].map { text throws(FrameRequestError) in try number(text, parameter: "height") } ?? .number(480),
            ])
        }
        do throws(JSONFieldError) {
            return try SceneFile.scene(departuresQuery: .object(document), catalog: catalog, feeds: TransitFeeds(feeds: feeds, realtime: realtime))
        } catch {
            let path = error.path
            let parameter = path.hasPrefix("departures.") ? String(path.dropFirst("departures.".count)) : path.hasPrefix("size.") ? String(path.dropFirst(5)) : path
            let message = error.description.dropPrefix(path + ": ")
            throw path == "style" ? .notFound(message) : .invalid("\(parameter): \(message)")
        }
    }

    /// A parameter's number; its range is the scene reader's to check.
    private static func number(_ text: String, parameter: String) throws(FrameRequestError) -> JSONValue {
        guard let value = Double(text), value.isFinite else { throw .invalid("\(parameter): '\(text.prefix(20))' is not a number") }
        return .number(value)
    }
}
