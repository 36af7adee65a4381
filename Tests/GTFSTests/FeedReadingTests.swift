import Foundation
@testable import GTFS
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing

/// Two lines in Gothenburg, read from a folder and from zips: routes with and without colours,
/// a transfer stop, a shape, and a trip running past midnight.
@Suite("Reading a GTFS feed")
struct FeedReadingTests {
    @Test("the tables are read whole when the feed opens")
    func tables() throws {
        try withOpenedFeed(.twoLines) { feed throws in
            #expect(feed.agencies == [GTFSAgency(id: "VT", name: "Västtrafik", timezone: "Europe/Stockholm")])
            #expect(feed.routes["R7"] == GTFSRoute(
                id: "R7", shortName: "7", longName: "Tynnered - Angered", type: 0,
                colour: Colour(redLevel: 0x7B, greenLevel: 0x4A, blueLevel: 0x12), textColour: Colour(redLevel: 255, greenLevel: 255, blueLevel: 255),
                agencyID: "VT"
            ))
            #expect(feed.routes["R60"]?.colour == nil && feed.routes["R60"]?.textColour == nil, "a route with no colour keeps none")
            #expect(feed.trips["B60-0845"] == GTFSTrip(id: "B60-0845", routeID: "R60", serviceID: "WEEKDAY", headsign: "Masthugget", shapeID: nil))
            #expect(feed.trips["T7-0830"]?.shapeID == "SH7")
            #expect(feed.stops.count == 9)
            #expect(feed.stops["S4"] == GTFSStop(id: "S4", name: "Kungsportsplatsen", coordinate: Coordinate(latitude: 57.7046, longitude: 11.9694)))
        }
    }

    @Test("one pass over stop_times.txt keeps the trips asked for, in stop_sequence order")
    func stopTimes() throws {
        // The rows of the two trips interleaved and out of order.
        var feed = TestGTFSFeed.twoLines
        let lines = feed.files["stop_times.txt"]!.split(separator: "\n")
        feed.files["stop_times.txt"] = ([lines[0]] + lines.dropFirst().reversed()).joined(separator: "\n") + "\n"
        try withOpenedFeed(feed) { feed throws in
            let calls = try feed.stopTimes(ofTrips: ["T7-0830", "B60-0845"])
            #expect(Set(calls.keys) == ["T7-0830", "B60-0845"], "only the trips asked for")
            let tram = try #require(calls["T7-0830"])
            #expect(tram.map(\.stopID) == ["S1", "S2", "S3", "S4", "S5", "S6"])
            #expect(tram.map(\.sequence) == [1, 2, 3, 4, 5, 6])
            #expect(tram[3] == GTFSStopTime(
                tripID: "T7-0830", sequence: 4, stopID: "S4", arrival: GTFSTime(seconds: 8 * 3600 + 37 * 60),
                departure: GTFSTime(seconds: 8 * 3600 + 37 * 60), distanceTravelled: nil
            ))
            let bus = try #require(calls["B60-0845"])
            #expect(bus.map(\.stopID) == ["S4", "S7", "S8", "S9"])
            #expect(Set(tram.map(\.stopID)).intersection(bus.map(\.stopID)) == ["S4"], "Kungsportsplatsen is the transfer")
        }
    }

    @Test("a trip after midnight keeps its times past 24:00:00")
    func pastMidnight() throws {
        try withOpenedFeed(.twoLines) { feed throws in
            let night = try #require(try feed.stopTimes(ofTrips: ["T7-2350"])["T7-2350"])
            #expect(night.first?.departure == GTFSTime(seconds: 23 * 3600 + 50 * 60))
            #expect(night.last?.arrival == GTFSTime(seconds: 24 * 3600 + 60))
            #expect(night.last?.arrival?.description == "24:01:00")
            #expect(night.last?.arrival?.clock == "00:01")
        }
    }

    @Test("a shape's points come in shape_pt_sequence order; a feed without shapes.txt has none")
    func shapes() throws {
        var feed = TestGTFSFeed.twoLines
        let lines = feed.files["shapes.txt"]!.split(separator: "\n")
        feed.files["shapes.txt"] = ([lines[0]] + lines.dropFirst().reversed()).joined(separator: "\n") + "\n"
        try withOpenedFeed(feed) { feed throws in
            let shape = try #require(try feed.shapes(["SH7"])["SH7"])
            #expect(shape.map(\.sequence) == Array(1...9))
            #expect(shape.first?.coordinate == Coordinate(latitude: 57.6996, longitude: 11.9527))
            #expect(shape.last?.coordinate == Coordinate(latitude: 57.7087, longitude: 11.9733))
        }
        var withoutShapes = TestGTFSFeed.twoLines
        withoutShapes.files["shapes.txt"] = nil
        withoutShapes = try withoutShapes.replacing(",SH7\n", with: ",\n", in: "trips.txt").replacing(",SH7\n", with: ",\n", in: "trips.txt")
        try withOpenedFeed(withoutShapes) { feed throws in
            #expect(try feed.shapes(["SH7"]).isEmpty)
            #expect(feed.trips["T7-0830"]?.shapeID == nil)
        }
    }

    @Test("a folder, a zip and a zip with a top folder read the same")
    func zipAndFolder() throws {
        try withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("feed")
            let zip = directory.appendingPathComponent("feed.zip")
            let nested = directory.appendingPathComponent("nested.zip")
            try TestGTFSFeed.twoLines.write(to: folder)
            try TestGTFSFeed.twoLines.writeZip(to: zip)
            try TestGTFSFeed.twoLines.writeZip(to: nested, inFolder: "gothenburg-gtfs")
            let trips: Set<String> = ["T7-0830", "B60-0845", "T7-2350"]
            func summary(_ url: URL) throws -> String {
                let feed = try GTFSFeed.open(at: url)
                return "\(feed.agencies) \(feed.routes.sorted { $0.key < $1.key }) \(feed.trips.sorted { $0.key < $1.key })"
                    + " \(feed.stops.sorted { $0.key < $1.key }) \(try feed.stopTimes(ofTrips: trips).sorted { $0.key < $1.key })"
                    + " \(try feed.shapes(["SH7"]))"
            }
            let fromFolder = try summary(folder)
            #expect(try summary(zip) == fromFolder)
            #expect(try summary(nested) == fromFolder)
        }
    }

    @Test("a zipped feed is extracted into a private folder, removed when the feed is released")
    func extractedFolderIsRemoved() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.twoLines.writeZip(to: zip)
            var feed: GTFSFeed? = try GTFSFeed.open(at: zip)
            let folder = try #require(feed?.files.folder)
            #expect(folder.deletingLastPathComponent().path != directory.path)
            let permissions = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
            #expect(permissions == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == FeedFile.allCases.map(\.rawValue).sorted())
            #expect(try feed?.stopTimes(ofTrips: ["T7-0830"]).count == 1)
            feed = nil
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }

    /// A feed as exported by a spreadsheet or another tool: a byte order mark, CR LF, quoted
    /// fields with commas, quotes and line breaks, columns in another order, columns GTFS does not
    /// define, and optional fields left empty.
    @Test("a BOM, CR LF, quoted fields, reordered and unknown columns, empty optional fields")
    func formatting() throws {
        var feed = TestGTFSFeed.twoLines
        feed.files["agency.txt"] = "\u{FEFF}" + TestGTFSFeed.csv(
            ["agency_timezone", "agency_name", "agency_url", "agency_phone"], [["Europe/Stockholm", "Västtrafik, \"VT\"", "https://www.vasttrafik.se", ""]],
            lineEnding: "\r\n"
        )
        feed.files["routes.txt"] = "\u{FEFF}" + TestGTFSFeed.csv(
            ["route_type", "route_text_color", "route_id", "route_long_name", "route_sort_order", "route_short_name", "route_color"],
            [["0", "ffffff", "R7", "Tynnered,\r\nAngered", "1", "7", "7b4a12"], ["3", "", "R60", "", "", "60", ""]],
            lineEnding: "\r\n"
        )
        // A stop name over two lines, so that the rows after it start one line later.
        feed = try feed.replacing("S2,Vasaplatsen", with: "S2,\"Vasa-\nplatsen\"", in: "stops.txt")
            .replacing("S5,Brunnsparken,57.70680", with: "S5,Brunnsparken,north", in: "stops.txt")
        try withTemporaryDirectory { directory in
            try feed.write(to: directory)
            let error = #expect(throws: GTFSError.self) { try GTFSFeed.open(at: directory) }
            #expect(error?.description == "stops.txt line 7, column stop_lat: \"north\" is not a number; allowed -90 to 90")
        }
        feed = try feed.replacing("S5,Brunnsparken,north", with: "S5,Brunnsparken,57.70680", in: "stops.txt")
        try withOpenedFeed(feed) { feed throws in
            #expect(feed.agencies == [GTFSAgency(id: "", name: "Västtrafik, \"VT\"", timezone: "Europe/Stockholm")])
            #expect(feed.routes["R7"]?.longName == "Tynnered,\r\nAngered")
            #expect(feed.routes["R7"]?.colour == Colour(redLevel: 0x7B, greenLevel: 0x4A, blueLevel: 0x12))
            #expect(feed.routes["R60"]?.longName == nil && feed.routes["R60"]?.shortName == "60")
            #expect(feed.stops["S2"]?.name == "Vasa-\nplatsen")
            #expect(try feed.stopTimes(ofTrips: ["T7-0830"])["T7-0830"]?.count == 6)
        }
    }

    @Test("times may be left out between the first and last stop; one time alone is both")
    func untimedStops() throws {
        let feed = try TestGTFSFeed.twoLines
            .replacing("T7-0830,8:32:00,8:32:00", with: "T7-0830,,", in: "stop_times.txt")
            .replacing("T7-0830,8:34:00,8:34:00", with: "T7-0830,,8:34:00", in: "stop_times.txt")
        try withOpenedFeed(feed) { feed throws in
            let tram = try #require(try feed.stopTimes(ofTrips: ["T7-0830"])["T7-0830"])
            #expect(tram[1].arrival == nil && tram[1].departure == nil)
            #expect(tram[2].arrival == GTFSTime(seconds: 8 * 3600 + 34 * 60) && tram[2].departure == tram[2].arrival)
        }
    }

    @Test("generic nodes and boarding areas need no position and are left out of the stops")
    func positionlessLocations() throws {
        var feed = TestGTFSFeed.twoLines
        feed.setTable(
            "stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station"],
            feed.files["stops.txt"]!.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) + ["", ""] }
                + [["N1", "", "", "", "3", "ST1"], ["B1", "", "", "", "4", "S4"], ["ST1", "Kungsportsplatsen", "57.7046", "11.9694", "1", ""]]
        )
        try withOpenedFeed(feed) { feed throws in
            #expect(feed.stops["N1"] == nil && feed.stops["B1"] == nil)
            #expect(feed.stops["ST1"]?.name == "Kungsportsplatsen")
            #expect(try feed.stopTimes(ofTrips: ["B60-0845"])["B60-0845"]?.count == 4)
        }
        let callingAtNode = try feed.replacing("B60-0845,8:47:00,8:47:00,S7", with: "B60-0845,8:47:00,8:47:00,N1", in: "stop_times.txt")
        #expect(try readingError(callingAtNode) == "stop_times.txt line 15, column stop_id: \"N1\" is a generic node (location_type 3); allowed a stop or platform (location_type 0)")
        let callingAtStation = try feed.replacing("B60-0845,8:47:00,8:47:00,S7", with: "B60-0845,8:47:00,8:47:00,ST1", in: "stop_times.txt")
        #expect(try readingError(callingAtStation) == "stop_times.txt line 15, column stop_id: \"ST1\" is a station (location_type 1); allowed a stop or platform (location_type 0)")
    }

    @Test("GTFS times: H:MM:SS with one to three hour digits", arguments: [
        ("0:00:00", 0), ("8:31:30", 8 * 3600 + 31 * 60 + 30), ("08:31:30", 8 * 3600 + 31 * 60 + 30), ("25:05:00", 25 * 3600 + 300),
        ("100:00:00", 100 * 3600),
    ])
    func validTimes(_ text: String, _ seconds: Int) {
        #expect(GTFSTime(parsing: text[...]) == GTFSTime(seconds: seconds))
    }

    @Test("anything else is not a time", arguments: ["", "8:3", "8:30", "8:3:00", "8:60:00", "8:00:60", "1000:00:00", ":00:00", "8:00:00:00", "８:00:00", "8.00.00", " 8:00:00", "-1:00:00", "99999999999999999999:00:00"])
    func invalidTimes(_ text: String) {
        #expect(GTFSTime(parsing: text[...]) == nil)
    }
}
