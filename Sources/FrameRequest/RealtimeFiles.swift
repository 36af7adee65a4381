import Foundation
import GTFS
import StrictJSON

/// The GTFS-realtime files a request names: `"realtime": "vehicles.pb"` or a list of files,
/// each holding VehiclePositions, TripUpdates and Alerts in any mix, read together.
public enum RealtimeFiles {
    /// The files at `reader`'s `key`, relative to `directory`; nil when the key is absent. A
    /// scene with no directory (one posted to the server) may not name files.
    static func parse(_ reader: JSONObjectReader, key: String, directory: URL?) throws(JSONFieldError) -> [URL]? {
        guard let value = reader.fields[key] else { return nil }
        let path = reader.path(of: key)
        let names: [String]
        switch value {
        case .string(let name) where !name.isEmpty: names = [name]
        case .array(let items) where !items.isEmpty && items.count <= maxFiles:
            names = try items.enumerated().map { index, item throws(JSONFieldError) in
                guard case .string(let name) = item, !name.isEmpty else {
                    throw JSONFieldError(path: "\(path)[\(index)]", value: item, allowed: "the path of a GTFS-realtime file")
                }
                return name
            }
        default:
            throw JSONFieldError(path: path, value: value, allowed: "a GTFS-realtime file's path, or a list of 1 to \(maxFiles) of them")
        }
        guard let directory else {
            throw JSONFieldError(path: path, message: "names a file, which only a scene file on disk can; a server reads the realtime files it was started with (serve --gtfs-realtime NAME=PATH)")
        }
        return names.map { (($0.hasPrefix("/") ? URL(fileURLWithPath: $0) : directory.appendingPathComponent($0))).standardizedFileURL }
    }

    /// The most files one request reads.
    static let maxFiles = 16

    /// Reads `files` one entity at a time, keeping what `interest` wants, and merges them. A
    /// file that cannot be read or used is an error at `field`, naming the file, the entity and
    /// its field: `departures.realtime: alerts.pb: entity[3].alert.informed_entity[0]: …`.
    public static func read(_ files: [URL], keeping interest: RealtimeInterest, field: String) throws(JSONFieldError) -> RealtimeFeed {
        var feed = RealtimeFeed()
        for url in files {
            do {
                feed.merge(try RealtimeFeed.read(contentsOf: url, keeping: interest))
            } catch {
                throw JSONFieldError(path: field, message: error.description)
            }
        }
        return feed
    }
}
