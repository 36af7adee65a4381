import Foundation
import GTFS
import MapFrameTestSupport
import Transit

/// A feed for departure boards, written for these tests with the varieties real feeds have: a
/// station (P) with two platforms; tram 1 every ten minutes, one of its trips ending at the
/// station and one running past midnight to 29:39; bus 2 whose call at the station has no time of
/// its own, with hours written with one digit, and a run that takes nobody on there; a
/// Saturday trip served by calendar_dates.txt alone; a campus shuttle whose trips are all
/// frequency-based (one about every 10 minutes, one exactly every 15); a stop and a headsign in
/// Hebrew; and shapes.txt with its columns in an unusual order. Times are Stockholm's.
enum BoardFeedFixture {
    /// Wednesday 13 March 2024, a weekday of the feed's calendar.
    static let wednesday = GTFSDate(year: 2024, month: 3, day: 13)!
    /// 2024-03-13 08:05 in Stockholm (CET), seconds since 1970.
    static let eightOhFive = 1_710_313_500

    static func at(_ clock: String, on date: GTFSDate = wednesday) -> Int {
        date.serviceDayStart(in: TimeZone(identifier: "Europe/Stockholm")!) + GTFSTime(parsing: Substring(clock))!.seconds
    }

    static var feed: TestGTFSFeed {
        var feed = TestGTFSFeed()
        feed.setTable("agency.txt", ["agency_id", "agency_name", "agency_url", "agency_timezone"], [["HL", "Harbour Lines", "https://example.org", "Europe/Stockholm"]])
        feed.setTable(
            "routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type", "route_color", "route_text_color"],
            [
                ["R1", "HL", "1", "Harbour - Hill", "0", "0062A8", "FFFFFF"],
                ["R2", "HL", "2", "", "3", "", ""],
                ["RS", "HL", "S", "Campus shuttle", "3", "00687A", "FFFFFF"],
            ]
        )
        feed.setTable(
            "stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station"],
            [
                ["A", "Harbour", "57.7000", "11.9400", "", ""],
                ["P", "Plaza", "57.7020", "11.9500", "1", ""],
                ["P1", "Plaza", "57.7020", "11.9500", "0", "P"],
                ["P2", "Plaza", "57.7021", "11.9502", "0", "P"],
                ["Q", "תחנה מרכזית", "57.7040", "11.9600", "", ""],
                ["Z", "Hill", "57.7060", "11.9700", "", ""],
                ["C", "Campus", "57.6980", "11.9550", "", ""],
            ]
        )
        feed.setTable(
            "calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"],
            [["WK", "1", "1", "1", "1", "1", "0", "0", "20240101", "20241231"]]
        )
        feed.setTable(
            "calendar_dates.txt", ["service_id", "date", "exception_type"],
            [["WK", "20240315", "2"], ["SAT", "20240316", "1"], ["SAT", "20240323", "1"]]
        )
        feed.setTable(
            "trips.txt", ["route_id", "service_id", "trip_id", "trip_headsign", "shape_id"],
            [
                ["R1", "WK", "T1-0800", "Hill", "SH1"], ["R1", "WK", "T1-0810", "Hill", "SH1"], ["R1", "WK", "T1-0820", "Hill", "SH1"],
                ["R1", "WK", "T1-END", "Plaza", "SH1"], ["R1", "WK", "T1-NIGHT", "", "SH1"],
                ["R2", "WK", "B2-0805", "ירושלים", ""], ["R2", "WK", "B2-DROP", "Hill", ""],
                ["R1", "SAT", "T1-SAT", "Hill", "SH1"],
                ["RS", "WK", "S-LOOP", "Campus", ""], ["RS", "WK", "S-EXACT", "Campus", ""],
            ]
        )
        var rows: [[String]] = []
        func trip(_ id: String, _ calls: [(String, String)], pickup: [String: String] = [:]) {
            for (index, call) in calls.enumerated() {
                rows.append([id, call.1, call.1, call.0, String(index + 1), pickup[call.0] ?? ""])
            }
        }
        for (id, minute) in [("T1-0800", 0), ("T1-0810", 10), ("T1-0820", 20)] {
            trip(id, [("A", "08:\(twoDigits(minute)):00"), ("P1", "08:\(twoDigits(minute + 3)):00"), ("Q", "08:\(twoDigits(minute + 5)):00"), ("Z", "08:\(twoDigits(minute + 8)):00")])
        }
        trip("T1-END", [("A", "08:04:00"), ("P1", "08:07:00")])
        trip("T1-NIGHT", [("A", "24:15:00"), ("P1", "24:20:00"), ("Q", "29:30:00"), ("Z", "29:39:00")])
        // Hours with one digit, and the station's call left for interpolation.
        trip("B2-0805", [("A", "8:05:00"), ("P2", ""), ("Q", ""), ("Z", "8:17:00")])
        trip("B2-DROP", [("A", "8:06:00"), ("P2", "8:09:00"), ("Z", "8:15:00")], pickup: ["P2": "1"])
        trip("T1-SAT", [("A", "09:00:00"), ("P1", "09:03:00"), ("Z", "09:08:00")])
        trip("S-LOOP", [("C", "07:00:00"), ("P2", "07:04:00"), ("C", "07:09:00")])
        trip("S-EXACT", [("C", "08:00:00"), ("P1", "08:02:00"), ("C", "08:06:00")])
        feed.setTable("stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type"], rows)
        feed.setTable(
            "frequencies.txt", ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
            [["S-LOOP", "07:00:00", "22:00:00", "600", "0"], ["S-EXACT", "08:00:00", "09:00:00", "900", "1"]]
        )
        // Columns in an order no other feed here uses.
        feed.setTable(
            "shapes.txt", ["shape_pt_sequence", "shape_pt_lon", "shape_id", "shape_pt_lat"],
            [["1", "11.9400", "SH1", "57.7000"], ["2", "11.9500", "SH1", "57.7020"], ["3", "11.9600", "SH1", "57.7040"], ["4", "11.9700", "SH1", "57.7060"]]
        )
        return feed
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The feed written into `directory` and opened.
    static func open(in directory: URL, changing changes: [String: String] = [:]) throws -> GTFSFeed {
        var changed = feed
        changed.files.merge(changes) { $1 }
        try changed.write(to: directory)
        return try GTFSFeed.open(at: directory)
    }

    /// The board at `stop` at `time` on `date`, with `realtime` messages as the files say them.
    static func departures(
        at stop: String = "P", on date: GTFSDate = wednesday, time: String = "08:05:00", count: Int = 8, realtime: [TransitRealtime_FeedMessage] = [],
        in directory: URL
    ) throws -> Departures {
        let feed = try open(in: directory.appendingPathComponent("gtfs"))
        let files = try realtime.enumerated().map { index, message in
            let url = directory.appendingPathComponent("realtime-\(index).pb")
            try TestRealtime.write(message, to: url)
            return url
        }
        return try Departures(at: stop, on: date, time: GTFSTime(parsing: Substring(time))!, count: count, in: feed) { interest throws(TransitError) in
            var merged = RealtimeFeed()
            for url in files {
                do throws(GTFSError) {
                    merged.merge(try RealtimeFeed.read(contentsOf: url, keeping: interest))
                } catch {
                    throw TransitError(field: "realtime", message: error.description)
                }
            }
            return merged
        }
    }
}
