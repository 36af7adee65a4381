import Foundation
@testable import GTFS
import MapFrameTestSupport
import Testing

/// Feeds that break the GTFS reference, each refused with an error naming the file, the line,
/// the column, the value found and what is allowed.
@Suite("Hostile GTFS feeds")
struct HostileFeedTests {
    static let requiredFiles = ["agency.txt", "routes.txt", "trips.txt", "stops.txt", "stop_times.txt"]

    @Test("a feed missing a required file names the file and the feed", arguments: requiredFiles)
    func missingFile(_ name: String) throws {
        var feed = TestGTFSFeed.twoLines
        feed.files[name] = nil
        try withTemporaryDirectory { directory in
            try feed.write(to: directory)
            #expect(readingError(at: directory) == "\(name): is missing from the feed \(directory.path); required files: \(Self.requiredFiles.joined(separator: ", "))")
        }
    }

    @Test("a feed that does not exist")
    func missingFeed() throws {
        try withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("feed")
            #expect(readingError(at: missing) == "\(missing.path): does not exist; allowed a GTFS folder or .zip")
        }
    }

    @Test("an empty table")
    func emptyTable() throws {
        var feed = TestGTFSFeed.twoLines
        feed.files["agency.txt"] = ""
        #expect(try readingError(feed) == "agency.txt line 1: is empty; a header row naming the columns is required")
    }

    @Test("a table without a required column", arguments: [
        ("agency.txt", "agency_timezone"), ("routes.txt", "route_id"), ("routes.txt", "route_type"), ("trips.txt", "service_id"),
        ("trips.txt", "trip_id"), ("stops.txt", "stop_lat"), ("stop_times.txt", "stop_sequence"), ("stop_times.txt", "arrival_time"),
        ("shapes.txt", "shape_pt_lon"),
    ])
    func missingColumn(_ file: String, _ column: String) throws {
        let feed = try TestGTFSFeed.twoLines.replacing(column, with: "renamed", in: file)
        let header = feed.files[file]!.prefix { $0 != "\n" }.split(separator: ",").joined(separator: ", ")
        #expect(try readingError(feed, trips: ["T7-0830"]) == "\(file) line 1, column \(column): the header has no such column; it is required (the header has \(header))")
    }

    @Test("routes.txt without either route name column, and a route with neither name")
    func routeNames() throws {
        var feed = TestGTFSFeed.twoLines
        feed.setTable("routes.txt", ["route_id", "route_type"], [["R7", "0"], ["R60", "3"]])
        #expect(try readingError(feed) == "routes.txt line 1, column route_short_name: the header has neither route_short_name nor route_long_name; one of them is required")
        let unnamed = try TestGTFSFeed.twoLines.replacing("R60,VT,60,Redbergsplatsen - Masthugget", with: "R60,VT,,", in: "routes.txt")
        #expect(try readingError(unnamed) == "routes.txt line 3, column route_short_name: is empty and so is the other route name; allowed route_short_name, route_long_name or both")
    }

    @Test("a row with too few or too many fields")
    func fieldCounts() throws {
        let short = try TestGTFSFeed.twoLines.replacing("S3,Valand,57.70000,11.97480", with: "S3,Valand,57.70000", in: "stops.txt")
        #expect(try readingError(short) == "stops.txt line 4: the row has 3 fields; allowed 4, as the header has")
        let long = try TestGTFSFeed.twoLines.replacing("T7-2350,23:50:00,23:50:00,S1,1", with: "T7-2350,23:50:00,23:50:00,S1,1,extra", in: "stop_times.txt")
        #expect(try readingError(long) == "stop_times.txt line 8: the row has 6 fields; allowed 5, as the header has")
    }

    @Test("a bad value in any row of stop_times.txt, even of a trip not asked for", arguments: [
        ("T7-0830,8:32:00,8:32:00", "T7-0830,8:3,8:32:00", "line 3, column arrival_time: \"8:3\" is not a time; allowed H:MM:SS, hours past 24 for trips after midnight"),
        ("T7-0830,8:32:00,8:32:00", "T7-0830,8:32:00,8.32", "line 3, column departure_time: \"8.32\" is not a time; allowed H:MM:SS, hours past 24 for trips after midnight"),
        ("T7-0830,8:32:00,8:32:00", "T7-0830,8:32:00,8:31:00", "line 3, column departure_time: 8:31:00 is before the arrival_time 8:32:00; allowed 8:32:00 or later"),
        ("T7-2350,24:01:00,24:01:00,S6,6", "T7-2350,24:01:00,24:01:00,S6,six", "line 13, column stop_sequence: \"six\" is not a whole number; allowed 0 or more"),
        ("T7-2350,24:01:00,24:01:00,S6,6", "T7-2350,24:01:00,24:01:00,S6,-6", "line 13, column stop_sequence: -6 is out of range; allowed 0 or more"),
        ("T7-2350,24:01:00,24:01:00,S6,6", "T7-2350,24:01:00,24:01:00,S6,", "line 13, column stop_sequence: is empty; a value is required"),
        ("B60-0845,8:53:00,8:53:00,S9", "B60-0845,8:53:00,8:53:00,S99", "line 17, column stop_id: \"S99\" is not in stops.txt; allowed the stop_id of a row of stops.txt"),
        ("B60-0845,8:53:00", "B60-0855,8:53:00", "line 17, column trip_id: \"B60-0855\" is not in trips.txt; allowed the trip_id of a row of trips.txt"),
    ])
    func badStopTime(_ text: String, _ replacement: String, _ expected: String) throws {
        let feed = try TestGTFSFeed.twoLines.replacing(text, with: replacement, in: "stop_times.txt")
        try withOpenedFeed(feed) { feed throws in
            let error = #expect(throws: GTFSError.self) { try feed.stopTimes(ofTrips: []) }
            #expect(error?.description == "stop_times.txt " + expected)
        }
    }

    @Test("a bad value in the tables read when the feed opens", arguments: [
        ("routes.txt", "7B4A12", "brown", "line 2, column route_color: \"brown\" is not a colour; allowed six hexadecimal digits such as 00A1DE"),
        ("routes.txt", "7B4A12,FFFFFF", "7B4A12,#FFFFFF", "line 2, column route_text_color: \"#FFFFFF\" is not a colour; allowed six hexadecimal digits such as 00A1DE"),
        ("routes.txt", "Masthugget,3", "Masthugget,13", "line 3, column route_type: 13 is not a route type; allowed 0 to 7, 11, 12, or an extended type from 100 to 1799"),
        ("routes.txt", "Masthugget,3", "Masthugget,bus", "line 3, column route_type: \"bus\" is not a whole number; allowed 0 to 1799"),
        ("routes.txt", "R60,VT", "R60,SL", "line 3, column agency_id: \"SL\" is not in agency.txt; allowed the agency_id of a row of agency.txt"),
        ("routes.txt", "R60,", "R7,", "line 3, column route_id: \"R7\" is already used by an earlier row; allowed once"),
        ("stops.txt", "57.70000", "91", "line 4, column stop_lat: 91 is out of range; allowed -90 to 90"),
        ("stops.txt", "11.97480", "nan", "line 4, column stop_lon: \"nan\" is not a number; allowed -180 to 180"),
        ("stops.txt", "11.97480", "0x1p3", "line 4, column stop_lon: \"0x1p3\" is not a number; allowed -180 to 180"),
        ("stops.txt", "11.97480", "1e999", "line 4, column stop_lon: \"1e999\" is not a number; allowed -180 to 180"),
        ("stops.txt", "57.70000,11.97480", ",11.97480", "line 4, column stop_lat: is empty while stop_lon is given; allowed both or neither"),
        ("stops.txt", "57.70000,11.97480", ",", "line 4, column stop_lat: is empty; a position is required for a stop"),
        ("stops.txt", "S3,Valand", "S3,", "line 4, column stop_name: is empty; a value is required"),
        ("stops.txt", "S3,", "S2,", "line 4, column stop_id: \"S2\" is already used by an earlier row; allowed once"),
        ("trips.txt", "R60,WEEKDAY", "R6,WEEKDAY", "line 4, column route_id: \"R6\" is not in routes.txt; allowed the route_id of a row of routes.txt"),
        ("trips.txt", "R60,WEEKDAY", "R60,", "line 4, column service_id: is empty; a value is required"),
        ("agency.txt", "VT,Västtrafik", "VT,", "line 2, column agency_name: is empty; a value is required"),
    ])
    func badTableValue(_ file: String, _ text: String, _ replacement: String, _ expected: String) throws {
        let feed = try TestGTFSFeed.twoLines.replacing(text, with: replacement, in: file)
        #expect(try readingError(feed) == "\(file) \(expected)")
    }

    @Test("a trip asked for must be whole: two stops or more, timed at both ends, in order", arguments: [
        ("T7-0830,8:41:00,8:41:00,S6,6", "T7-0830,8:41:00,8:41:00,S6,5", ["T7-0830"], "line 7, column stop_sequence: 5 is used on line 6 for the same trip; allowed once per trip"),
        ("T7-0830,8:39:00,8:39:00", "T7-0830,8:29:00,8:29:00", ["T7-0830"], "line 6, column arrival_time: 8:29:00 is before the departure 8:37:00 from the stop on line 5; allowed 8:37:00 or later"),
        ("T7-0830,8:30:00,8:30:00", "T7-0830,,", ["T7-0830"], "line 2, column arrival_time: is empty at the first stop of trip T7-0830; a time is required at a trip's first and last stop"),
        ("B60-0845,8:53:00,8:53:00", "B60-0845,,", ["B60-0845"], "line 17, column arrival_time: is empty at the last stop of trip B60-0845; a time is required at a trip's first and last stop"),
        ("T7-0830,", "T7-0830,", ["T7-0930"], "column trip_id: the trip T7-0930 is not in trips.txt; a trip needs at least two stops"),
    ])
    func incompleteTrip(_ text: String, _ replacement: String, _ trips: [String], _ expected: String) throws {
        let feed = try TestGTFSFeed.twoLines.replacing(text, with: replacement, in: "stop_times.txt")
        #expect(try readingError(feed, trips: Set(trips)) == "stop_times.txt \(expected)")
        #expect(try readingError(feed) == nil, "a trip not asked for is not checked as a whole")
    }

    @Test("a trip with one stop, or none")
    func tripWithoutStops() throws {
        var feed = TestGTFSFeed.twoLines
        let lines = feed.files["stop_times.txt"]!.split(separator: "\n")
        feed.files["stop_times.txt"] = lines.filter { !$0.hasPrefix("B60-0845") || $0.hasSuffix(",1") }.joined(separator: "\n") + "\n"
        #expect(try readingError(feed, trips: ["B60-0845"]) == "stop_times.txt line 14, column trip_id: the trip B60-0845 has only this row; a trip needs at least two stops")
        feed.files["stop_times.txt"] = lines.filter { !$0.hasPrefix("B60-0845") }.joined(separator: "\n") + "\n"
        #expect(try readingError(feed, trips: ["B60-0845"]) == "stop_times.txt column trip_id: the trip B60-0845 has no rows; a trip needs at least two stops")
    }

    @Test("shapes: a bad point, a repeated sequence, a shape trips.txt names and shapes.txt lacks")
    func badShapes() throws {
        let badPoint = try TestGTFSFeed.twoLines.replacing("57.69900", with: "57,69900", in: "shapes.txt")
        #expect(try readingError(badPoint, trips: ["T7-0830"]) == "shapes.txt line 3: the row has 5 fields; allowed 4, as the header has")
        let repeated = try TestGTFSFeed.twoLines.replacing("11.97330,9", with: "11.97330,8", in: "shapes.txt")
        #expect(try readingError(repeated, trips: ["T7-0830"]) == "shapes.txt line 10, column shape_pt_sequence: 8 is used on line 9 for the same shape; allowed once per shape")
        let missing = try TestGTFSFeed.twoLines.replacing("R7,WEEKDAY,T7-0830,Angered,SH7", with: "R7,WEEKDAY,T7-0830,Angered,SH8", in: "trips.txt")
        #expect(try readingError(missing, trips: ["T7-0830"]) == "shapes.txt column shape_id: has no rows for the shape SH8, which trips.txt names; allowed the shape_id of a row of shapes.txt")
        var noShapesFile = TestGTFSFeed.twoLines
        noShapesFile.files["shapes.txt"] = nil
        #expect(try readingError(noShapesFile) == "trips.txt line 2, column shape_id: \"SH7\" names a shape, and the feed has no shapes.txt; allowed empty without shapes.txt")
    }

    @Test("several agencies must each have an agency_id, and routes must say whose they are")
    func severalAgencies() throws {
        var feed = TestGTFSFeed.twoLines
        feed.files["agency.txt"]! += "SJ,SJ,https://www.sj.se,Europe/Stockholm\n"
        #expect(try readingError(feed) == nil)
        let unowned = try feed.replacing("R60,VT", with: "R60,", in: "routes.txt")
        #expect(try readingError(unowned) == "routes.txt line 3, column agency_id: is empty; a value is required when the feed has more than one agency")
        let anonymous = try feed.replacing("SJ,SJ", with: ",SJ", in: "agency.txt")
        #expect(try readingError(anonymous) == "agency.txt line 3, column agency_id: a feed with more than one agency must give each an agency_id; allowed a non-empty agency_id on every row")
    }

    @Test("a quoted field left open swallows no rows: the error names the row it starts in")
    func unterminatedQuote() throws {
        let atEnd = try TestGTFSFeed.twoLines.replacing("S3,Valand", with: "S3,\"Valand", in: "stops.txt")
        #expect(try readingError(atEnd) == "stops.txt line 4: a quoted field in this row is not closed before the end of the file; allowed \"\" for a quote inside a quoted field")
        // Text after a closing quote: CSV.swift reads on as if the field were still quoted.
        let trailing = try TestGTFSFeed.twoLines.replacing("S3,Valand", with: "S3,\"Val\"and", in: "stops.txt")
        #expect(try readingError(trailing) == "stops.txt line 4: the row has 2 fields; allowed 4, as the header has")
        // In a large stop_times.txt, an open quote stops at the longest row allowed.
        var large = TestGTFSFeed.twoLines
        let rows = (0..<40_000).map { "T7-0830,8:45:00,8:45:00,S6,\($0 + 10)\n" }.joined()
        large.files["stop_times.txt"] = try large.replacing("T7-0830,8:41:00,8:41:00,S6", with: "T7-0830,\"8:41:00,8:41:00,S6", in: "stop_times.txt").files["stop_times.txt"]! + rows
        #expect(try readingError(large) == "stop_times.txt line 7: the row is longer than 1 MiB; a quoted field may be missing its closing quote")
    }

    @Test("a table that is not UTF-8 names the line")
    func notUTF8() throws {
        try withTemporaryDirectory { directory in
            try TestGTFSFeed.twoLines.write(to: directory)
            var stops = Data(TestGTFSFeed.twoLines.files["stops.txt"]!.utf8)
            let valand = try #require(stops.firstRange(of: Data("Valand".utf8)))
            stops[valand.lowerBound + 1] = 0xFF
            try stops.write(to: directory.appendingPathComponent("stops.txt"))
            #expect(readingError(at: directory) == "stops.txt line 4: is not UTF-8 text; allowed UTF-8")
        }
    }

    @Test("the tables read whole are held to a size; stop_times.txt is not")
    func wholeTableLimit() throws {
        try withTemporaryDirectory { directory in
            try TestGTFSFeed.twoLines.write(to: directory)
            let sizes = try FeedFile.allCases.map { file in
                try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file.rawValue).path)[.size] as! Int
            }
            let largestWhole = zip(FeedFile.allCases, sizes).filter { $0.0.isReadWhole }.map(\.1).max()!
            #expect(sizes[FeedFile.allCases.firstIndex(of: .stopTimes)!] > largestWhole)
            let fits = try GTFSFeed.open(at: directory, limits: FeedLimits(wholeTableBytes: largestWhole, extractedBytes: 1 << 20))
            #expect(try fits.stopTimes(ofTrips: ["T7-0830"]).count == 1)
            let error = #expect(throws: GTFSError.self) {
                try GTFSFeed.open(at: directory, limits: FeedLimits(wholeTableBytes: 64, extractedBytes: 1 << 20))
            }
            #expect(error?.description == "agency.txt: is \(sizes[FeedFile.allCases.firstIndex(of: .agency)!]) bytes; allowed up to 64 bytes")
        }
    }

    @Test("a stops.txt over its limit is refused by its size, before a row of it is read")
    func wholeTableRefusedUnread() throws {
        try withTemporaryDirectory { directory in
            // A bad second row, which reading the file would find first, then 2 MiB of rows.
            var feed = TestGTFSFeed.twoLines
            let stops = feed.files["stops.txt"]!
            let header = stops.prefix { $0 != "\n" }
            feed.files["stops.txt"] = header + "\nS1,Järntorget,north,11.95270\n" + String(repeating: "S2,Vasaplatsen,57.69940,11.97060\n", count: 70_000)
            try feed.write(to: directory)
            let size = feed.files["stops.txt"]!.utf8.count
            #expect(size > 2 << 20)
            let error = #expect(throws: GTFSError.self) {
                try GTFSFeed.open(at: directory, limits: FeedLimits(wholeTableBytes: 1 << 20, extractedBytes: 4 << 20))
            }
            #expect(error?.description == "stops.txt: is \(size) bytes; allowed up to 1 MiB")
        }
    }
}
