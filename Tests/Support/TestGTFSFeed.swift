import Foundation
import ZIPFoundation

/// A GTFS feed written from Swift values, as a folder or a zip: each file's text as it is to be
/// written, so that a test can also write what no feed should hold.
public struct TestGTFSFeed: Sendable {
    /// Each file's text by name, such as `stops.txt`.
    public var files: [String: String]

    public init(files: [String: String] = [:]) {
        self.files = files
    }

    /// The feed with the first `text` in `file` replaced by `replacement`; fails the caller's
    /// setup when `file` does not hold `text`.
    public func replacing(_ text: String, with replacement: String, in file: String) throws -> TestGTFSFeed {
        guard let contents = files[file], let range = contents.range(of: text) else {
            throw TestSetupError(description: "\(file) holds no \"\(text)\"")
        }
        var feed = self
        feed.files[file] = contents.replacingCharacters(in: range, with: replacement)
        return feed
    }

    /// Sets the file `name` to a table: the header, then one line per row.
    public mutating func setTable(_ name: String, _ header: [String], _ rows: [[String]]) {
        files[name] = Self.csv(header, rows)
    }

    /// A table as CSV: fields holding a comma, a quote or a line break are quoted, and quotes in
    /// them doubled.
    public static func csv(_ header: [String], _ rows: [[String]], lineEnding: String = "\n") -> String {
        ([header] + rows).map { $0.map(csvField).joined(separator: ",") + lineEnding }.joined()
    }

    /// Writes each file into `folder`, creating it when missing.
    public func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
    }

    /// Writes the files into a new zip at `file`, deflated, at its root or inside `folder`.
    public func writeZip(to file: URL, inFolder folder: String? = nil) throws {
        let prefix = folder.map { "\($0)/" } ?? ""
        try Self.writeZip(entries: files.sorted { $0.key < $1.key }.map { (prefix + $0.key, Data($0.value.utf8)) }, to: file)
    }

    /// Writes a new zip at `file` holding `entries` as they are, deflated, whatever their paths.
    public static func writeZip(entries: [(path: String, contents: Data)], to file: URL) throws {
        let archive = try Archive(url: file, accessMode: .create)
        for (path, contents) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(contents.count), compressionMethod: .deflate) { position, size in
                contents.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    private static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension TestGTFSFeed {


    /// A small feed in central Gothenburg: tram 7 (brown, white text, with a shape) from
    /// Järntorget (S1) to Centralstationen (S6) at 08:30 and again at 23:50, arriving after
    /// midnight at 24:01:00; bus 60 (no colours, no shape) from Kungsportsplatsen (S4), the
    /// transfer stop, to Masthugget (S9) at 08:45; all on weekdays of 2024 to 2026 but
    /// Christmas Day 2024.
    public static let twoLines: TestGTFSFeed = {
        var feed = TestGTFSFeed()
        feed.setTable(
            "agency.txt", ["agency_id", "agency_name", "agency_url", "agency_timezone"],
            [["VT", "Västtrafik", "https://www.vasttrafik.se", "Europe/Stockholm"]]
        )
        feed.setTable(
            "routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type", "route_color", "route_text_color"],
            [
                ["R7", "VT", "7", "Tynnered - Angered", "0", "7B4A12", "FFFFFF"],
                ["R60", "VT", "60", "Redbergsplatsen - Masthugget", "3", "", ""],
            ]
        )
        feed.setTable(
            "stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon"],
            [
                ["S1", "Järntorget", "57.69960", "11.95270"],
                ["S2", "Vasaplatsen", "57.69940", "11.97060"],
                ["S3", "Valand", "57.70000", "11.97480"],
                ["S4", "Kungsportsplatsen", "57.70460", "11.96940"],
                ["S5", "Brunnsparken", "57.70680", "11.96690"],
                ["S6", "Centralstationen", "57.70870", "11.97330"],
                ["S7", "Domkyrkan", "57.70340", "11.96460"],
                ["S8", "Grönsakstorget", "57.70250", "11.95880"],
                ["S9", "Masthugget", "57.69930", "11.94220"],
            ]
        )
        feed.setTable(
            "trips.txt", ["route_id", "service_id", "trip_id", "trip_headsign", "shape_id"],
            [
                ["R7", "WEEKDAY", "T7-0830", "Angered", "SH7"],
                ["R7", "WEEKDAY", "T7-2350", "Angered", "SH7"],
                ["R60", "WEEKDAY", "B60-0845", "Masthugget", ""],
            ]
        )
        let tram = [("S1", "0:00"), ("S2", "2:00"), ("S3", "4:00"), ("S4", "7:00"), ("S5", "9:00"), ("S6", "11:00")]
        func calls(_ trip: String, hour: Int, minute: Int, _ stops: [(String, String)]) -> [[String]] {
            stops.enumerated().map { index, stop in
                let offset = stop.1.split(separator: ":").map { Int($0)! }
                let seconds = hour * 3600 + (minute + offset[0]) * 60 + offset[1]
                let time = String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                return [trip, time, time, stop.0, String(index + 1)]
            }
        }
        feed.setTable(
            "stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"],
            calls("T7-0830", hour: 8, minute: 30, tram) + calls("T7-2350", hour: 23, minute: 50, tram)
                + calls("B60-0845", hour: 8, minute: 45, [("S4", "0:00"), ("S7", "2:00"), ("S8", "4:00"), ("S9", "8:00")])
        )
        feed.setTable(
            "calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"],
            [["WEEKDAY", "1", "1", "1", "1", "1", "0", "0", "20240101", "20261231"]]
        )
        feed.setTable("calendar_dates.txt", ["service_id", "date", "exception_type"], [["WEEKDAY", "20241225", "2"]])
        // No trip of these is frequency-based; the table is there, empty, as some feeds ship it.
        feed.setTable("frequencies.txt", ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"], [])
        feed.setTable(
            "shapes.txt", ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"],
            [
                ("57.69960", "11.95270"), ("57.69900", "11.96200"), ("57.69940", "11.97060"), ("57.70000", "11.97480"),
                ("57.70300", "11.97200"), ("57.70460", "11.96940"), ("57.70680", "11.96690"), ("57.70800", "11.97000"),
                ("57.70870", "11.97330"),
            ].enumerated().map { index, point in ["SH7", point.0, point.1, String(index + 1)] }
        )
        return feed
    }()
}
extension TestGTFSFeed {
    /// The stop ids of trip `T<trip>` of a feed `writeLarge` wrote, in order, for its first `count` calls.
    public static func largeFeedStops(ofTrip trip: Int, count: Int) -> [String] {
        (0..<count).map { largeFeedStop(ofTrip: trip, call: $0, stops: largeFeedStopCount) }
    }

    static let largeFeedStopCount = 5000

    /// The stop with the most calls in a feed `writeLarge` wrote, and how many it has.
    public static func largeFeedBusiestStop(trips: Int, stopsPerTrip: Int) -> (stop: String, calls: Int) {
        var calls = [Int](repeating: 0, count: largeFeedStopCount)
        for trip in 0..<trips {
            for call in 0..<stopsPerTrip { calls[(trip * 31 + call * 7) % largeFeedStopCount] += 1 }
        }
        let busiest = calls.indices.max { calls[$0] < calls[$1] }!
        return ("S\(busiest)", calls[busiest])
    }

    private static func largeFeedStop(ofTrip trip: Int, call: Int, stops: Int) -> String {
        "S\((trip * 31 + call * 7) % stops)"
    }


    /// Writes into `folder` a feed of `trips` trips (`T0`, `T1`, ...) of `stopsPerTrip` calls each,
    /// `trips * stopsPerTrip` rows of `stop_times.txt`, a block at a time: 100 routes, each with a
    /// 200-point shape, 5,000 stops around Gothenburg, and a service that runs every day. For
    /// measuring how a large feed reads.
    public static func writeLarge(to folder: URL, trips: Int, stopsPerTrip: Int) throws {
        let routes = 100, stops = largeFeedStopCount, shapePoints = 200
        var feed = TestGTFSFeed()
        feed.setTable("agency.txt", ["agency_name", "agency_url", "agency_timezone"], [["Västtrafik", "https://www.vasttrafik.se", "Europe/Stockholm"]])
        feed.setTable(
            "routes.txt", ["route_id", "route_short_name", "route_type", "route_color", "route_text_color"],
            (0..<routes).map { ["R\($0)", "\($0 + 1)", $0 % 2 == 0 ? "0" : "3", String(format: "%06X", $0 * 0x020406), "FFFFFF"] }
        )
        feed.setTable(
            "stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon"],
            (0..<stops).map { ["S\($0)", "Stop \($0)", String(format: "%.5f", 57.6 + Double($0 / 100) * 0.004), String(format: "%.5f", 11.8 + Double($0 % 100) * 0.004)] }
        )
        feed.setTable(
            "trips.txt", ["route_id", "service_id", "trip_id", "shape_id"],
            (0..<trips).map { ["R\($0 % routes)", "DAILY", "T\($0)", "SH\($0 % routes)"] }
        )
        feed.setTable(
            "calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"],
            [["DAILY", "1", "1", "1", "1", "1", "1", "1", "20240101", "20301231"]]
        )
        try feed.write(to: folder)
        try writeInBlocks(to: folder.appendingPathComponent("stop_times.txt"), header: "trip_id,arrival_time,departure_time,stop_id,stop_sequence", count: trips) { trip in
            // Trips start every few minutes from 05:00; calls are two minutes apart.
            let start = 5 * 3600 + (trip * 137) % (19 * 3600)
            return (0..<stopsPerTrip).map { call in
                let seconds = start + call * 120
                let time = "\(seconds / 3600):\(twoDigits(seconds / 60 % 60)):00"
                return "T\(trip),\(time),\(time),\(largeFeedStop(ofTrip: trip, call: call, stops: stops)),\(call + 1)\n"
            }.joined()
        }
        try writeInBlocks(to: folder.appendingPathComponent("shapes.txt"), header: "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence", count: routes) { route in
            (0..<shapePoints).map { point in
                let t = Double(point) / Double(shapePoints - 1)
                return "SH\(route),\(String(format: "%.5f", 57.6 + 0.2 * t)),\(String(format: "%.5f", 11.8 + 0.004 * Double(route) + 0.01 * sin(t * 20))),\(point + 1)\n"
            }.joined()
        }
    }

    /// Writes `header` and the text of `count` parts to `file`, a megabyte at a time.
    private static func writeInBlocks(to file: URL, header: String, count: Int, part: (Int) -> String) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw TestSetupError(description: "cannot create \(file.path)")
        }
        let output = try FileHandle(forWritingTo: file)
        defer { try? output.close() }
        var block = header + "\n"
        for index in 0..<count {
            block += part(index)
            if block.utf8.count >= 1 << 20 {
                try output.write(contentsOf: Data(block.utf8))
                block = ""
            }
        }
        try output.write(contentsOf: Data(block.utf8))
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
