import Foundation
import GTFS
import MapFrameTestSupport
import SwiftProtobuf
import Testing

/// Departure boards and journeys with realtime files that break the GTFS-realtime reference, or
/// fields that cannot be used: `snapshot`, `describe` and `play` exit 2 naming the scene, the
/// field and, for a realtime file, the file, the entity and its field, and write nothing.
@Suite("mapframe with bad realtime files and departure boards")
struct RealtimeInputTests {
    static let feed = packageRoot.appendingPathComponent("Scenes/transit/gtfs").path

    static func board(_ fields: String = "", realtime: String = #"["alerts.pb"]"#) -> String {
        #"{"departures": {"feed": "\#(feed)", "stop": "S5", "date": "2024-03-15", "time": "8:36:00", "realtime": \#(realtime)\#(fields)}}"#
    }

    /// Three good alerts and one about nothing.
    static let badAlerts = TestRealtime.message(timestamp: 1_710_491_760, (0..<3).map {
        TestRealtime.alert("\($0)", header: "Fine", informing: [.init(route: "R7")])
    } + [TestRealtime.alert("3", header: "About nothing", informing: [.init()])])

    static let unorderedUpdates = TestRealtime.message(timestamp: 1_710_491_760, [
        TestRealtime.tripUpdate("t", trip: TestRealtime.trip("T7-0830"), stops: [.init(sequence: 4, arrivalDelay: 60), .init(sequence: 2, arrivalDelay: 60)]),
    ])

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let scene: String
        let message: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "an alert about nothing", scene: board(),
            message: "mapframe: scene.json: departures.realtime: alerts.pb: entity[3].alert.informed_entity[0]: names no route, trip or stop (nor an agency or route type); allowed at least one"
        ),
        Case(
            name: "trip updates out of order", scene: #"""
                {"camera": {"fit": "all"}, "transit": {"feed": "\#(feed)", "legs": [{"trip": "T7-0830", "board": "S5", "alight": "S7"}], "realtime": "trip-updates.pb"}}
                """#,
            message: "mapframe: scene.json: transit.realtime: trip-updates.pb: entity[0].trip_update.stop_time_update[1].stop_sequence: 2 does not come after the 4 before it; allowed the updates in increasing stop_sequence order"
        ),
        Case(
            name: "a file that is not a feed message", scene: board(realtime: #""notes.pb""#),
            message: "mapframe: scene.json: departures.realtime: notes.pb: is not a GTFS-realtime feed message ("
        ),
        Case(
            name: "a file that is not there", scene: board(realtime: #""absent.pb""#),
            message: "mapframe: scene.json: departures.realtime: absent.pb: cannot be read"
        ),
        Case(
            name: "an unknown stop", scene: board().replacingOccurrences(of: #""S5""#, with: #""S99""#),
            message: #"mapframe: scene.json: departures.stop: "S99" is not a stop in the feed's stops.txt"#
        ),
        Case(
            name: "a date that is not one", scene: board().replacingOccurrences(of: "2024-03-15", with: "15/03/2024"),
            message: #"mapframe: scene.json: departures.date: "15/03/2024" is not allowed; expected a date, YYYY-MM-DD, such as "2024-03-15""#
        ),
        Case(
            name: "too many departures", scene: board(#", "count": 50"#),
            message: "mapframe: scene.json: departures.count: 50 is outside the allowed range 1...20"
        ),
        Case(
            name: "a board and a journey at once",
            scene: board(realtime: "[]").dropLast() + #", "camera": {"fit": "all"}, "transit": {"feed": "\#(feed)", "legs": [{"trip": "T7-0830", "board": "S5", "alight": "S7"}]}}"#,
            message: "mapframe: scene.json: departures: give departures (a departure board) or transit (a journey on the map), not both"
        ),
    ]

    private func prepare(_ workspace: Workspace) throws {
        _ = try workspace.write(Self.badAlerts.serializedData(), to: "alerts.pb")
        _ = try workspace.write(Self.unorderedUpdates.serializedData(), to: "trip-updates.pb")
        _ = try workspace.write("not a protocol buffer\n", to: "notes.pb")
    }

    @Test("snapshot and describe exit 2 naming the file, entity and field, and write nothing", arguments: cases)
    func refused(bad: Case) async throws {
        try await Workspace.with { workspace in
            try prepare(workspace)
            let scene = try workspace.write(bad.scene, to: "scene.json")
            let snapshot = try await workspace.mapframe("snapshot", scene, "--offline", "--cache-dir", workspace.path("cache"), "--output", workspace.path("out.png"))
            #expect(snapshot.status == 2, "\(snapshot)")
            #expect(snapshot.standardError.hasPrefix(bad.message), "\(snapshot.standardError)")
            #expect(!workspace.exists("out.png"))
            let describe = try await workspace.mapframe("describe", scene)
            #expect(describe.status == 2 && describe.standardError.hasPrefix(bad.message), "\(describe)")
        }
    }

    @Test("a script's board with a bad realtime file stops before a frame is written")
    func badScriptBoard() async throws {
        try await Workspace.with { workspace in
            try prepare(workspace)
            let script = try workspace.write(#"{"steps": [{"wait": 1}, \#(Self.board())]}"#, to: "script.json")
            let result = try await workspace.mapframe("play", script, "--offline", "--cache-dir", workspace.path("cache"), "--out-dir", workspace.path("frames"))
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.hasPrefix("mapframe: script.json: steps[1].departures.realtime: alerts.pb: entity[3].alert.informed_entity[0]: names no route, trip or stop"), "\(result.standardError)")
            #expect(!workspace.exists("frames/00.png"))
        }
    }
}
