import Foundation
import GTFS
import ImageCodec
import MapFrameTestSupport
import MapServer
import SwiftProtobuf
import Testing

/// `GET /departures.png`, `/departures/describe` and `/departures.html`: a stop's departure
/// board from a feed the server loaded (`serve --gtfs`), with the realtime files it reads
/// afresh for each frame (`serve --gtfs-realtime`); a client's mistakes, and a realtime file
/// that breaks the reference, are 400 naming the parameter, or the file, entity and field.
@Suite struct DeparturesEndpointTests {
    /// The made-up feed beside the example scenes, and the realtime files its demo reads.
    static let feed = packageRoot.appendingPathComponent("Scenes/transit/gtfs")
    static let realtime = ["trip-updates.pb", "alerts.pb"].map { packageRoot.appendingPathComponent("Scenes/transit/realtime/\($0)") }
    static let board = "feed=fenland&stop=S5&date=2024-03-15&time=8:36:00"

    private func withServer(realtime: [URL] = realtime, _ body: (TestServer) async throws -> Void) async throws {
        let feed = try GTFSFeed.open(at: Self.feed)
        try await TestServer.with({
            $0.transitFeeds = ["fenland": feed]
            $0.transitRealtime = ["fenland": realtime]
        }) { server in
            try await body(server)
        }
    }

    @Test func aBoardIsDrawnAtItsSizeScaleAndTheme() async throws {
        try await withServer { server in
            let reply = try await server.get("/departures.png?\(Self.board)")
            #expect(reply.status == 200 && reply.header("Content-Type") == "image/png", "\(reply)")
            let image = try reply.image()
            #expect(image.width == 320 && image.height == 480)
            let large = try await server.get("/departures.png?\(Self.board)&scale=2&theme=high-contrast&count=4")
            #expect(large.status == 200, "\(large)")
            #expect(try large.image().width == 640 && large.image().height == 960)
            // The board's header is its theme's: dark green, or black in high contrast.
            #expect(image.pixel(x: 160, y: 5) == Colour(hex: 0x2D6A2E))
            #expect(try large.image().pixel(x: 320, y: 10) == .black)
        }
    }

    @Test func describeAndTheExplorablePageReadTheBoardAsATable() async throws {
        try await withServer { server in
            let text = try await server.get("/departures/describe?\(Self.board)")
            #expect(text.status == 200 && text.header("Content-Type") == "text/plain; charset=utf-8", "\(text)")
            let lines = text.text.components(separatedBy: "\n")
            #expect(lines[0] == "Departures from Parker's Piece at 08:36: a table of 8 rows, with 1 disturbance.")
            // The disturbance first, then the table's shape, then each row cell by cell.
            #expect(lines[2] == "Disturbance on bus 60: Bus 60 diverted via Mill Road: roadworks on Regent Street.")
            #expect(lines[4] == "A table of 8 rows and 4 columns: Line, Destination, Departs, Minutes to go.")
            #expect(lines[5] == "Row 1: Line, Tram 7; Destination, Castle Hill, 3 minutes late; Departs, 08:42; Minutes to go, in 6 minutes, live.")
            let page = try await server.get("/departures.html?\(Self.board)")
            #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<img src="departures.png?\#(Self.board.replacingOccurrences(of: "&", with: "&amp;"))""#))
            #expect(page.text.contains("<caption>Departures from Parker's Piece at 08:36</caption>"))
            #expect(page.text.contains(#"<th scope="col">Minutes to go</th>"#))
            #expect(page.text.contains(#"<td dir="auto">Bus 60</td><td dir="auto">Cherry Hinton</td><td dir="auto">08:55</td><td dir="auto">cancelled</td>"#))
        }
    }

    @Test(arguments: [
        ("stop=S5&date=2024-03-15&time=8:36:00", "feed: missing; expected the name of a feed the server loaded"),
        ("feed=elsewhere&stop=S5&date=2024-03-15&time=8:36:00", "feed: \"elsewhere\" is not a feed the server loaded; allowed one of fenland"),
        ("feed=elsewhere&stop=S5", "feed: \"elsewhere\" is not a feed the server loaded; allowed one of fenland"),
        ("feed=fenland&date=2024-03-15&time=8:36:00", "stop: missing"),
        ("feed=fenland&stop=S99&date=2024-03-15&time=8:36:00", "stop: \"S99\" is not a stop in the feed's stops.txt"),
        ("feed=fenland&stop=S5&date=2024-02-30&time=8:36:00", "date: \"2024-02-30\" is not allowed; expected a date, YYYY-MM-DD"),
        ("feed=fenland&stop=S5&date=2024-03-15&time=8:61:00", "time: \"8:61:00\" is not allowed; expected a time of the service day, H:MM:SS"),
        ("feed=fenland&stop=S5&date=2024-03-15", "time: missing; give time (H:MM:SS) with date, or neither for now"),
        ("\(board)&count=40", "count: 40 is outside the allowed range 1...20"),
        ("\(board)&count=many", "count: 'many' is not a number"),
        ("\(board)&width=10000", "width: 10000 is outside the allowed range"),
        ("\(board)&theme=dark", "theme: \"dark\" is not allowed"),
        ("\(board)&stop=S4", "stop: given more than once; allowed once"),
        ("\(board)&zoom=3", "zoom: unknown parameter; allowed: count, date, feed, height, scale, stop, theme, time, width"),
    ])
    func aBadParameterIs400NamingIt(query: String, mention: String) async throws {
        try await withServer { server in
            for endpoint in ["/departures.png", "/departures/describe", "/departures.html"] {
                try expectJSONError(try await server.get("\(endpoint)?\(query)"), status: 400, mentions: mention)
            }
        }
    }

    @Test func aRealtimeFileThatBreaksTheReferenceIs400NamingTheFileEntityAndField() async throws {
        let message = TestRealtime.message(timestamp: 1_710_491_760, [
            TestRealtime.alert("0", header: "Fine", informing: [.init(route: "R7")]), TestRealtime.alert("1", header: "Fine", informing: [.init(route: "R7")]),
            TestRealtime.alert("2", header: "Fine", informing: [.init(route: "R7")]), TestRealtime.alert("3", header: "About nothing", informing: [.init()]),
        ])
        let directory = try TemporaryDirectory("departures-realtime")
        defer { directory.remove() }
        let alerts = directory.url.appendingPathComponent("alerts.pb")
        try message.serializedData().write(to: alerts)
        let missing = directory.url.appendingPathComponent("vehicles.pb")
        try await withServer(realtime: [Self.realtime[0], alerts]) { server in
            try expectJSONError(
                try await server.get("/departures.png?\(Self.board)"), status: 400,
                mentions: "realtime: alerts.pb: entity[3].alert.informed_entity[0]: names no route, trip or stop (nor an agency or route type); allowed at least one"
            )
            // Read afresh for each frame: once mended, the board is drawn.
            try TestRealtime.write(TestRealtime.message(timestamp: 1_710_491_760, []), to: alerts)
            #expect(try await server.get("/departures.png?\(Self.board)").status == 200)
        }
        try await withServer(realtime: [missing]) { server in
            try expectJSONError(try await server.get("/departures.png?\(Self.board)"), status: 400, mentions: "realtime: vehicles.pb: cannot be read")
        }
    }
}
