import Foundation
import FrameExplain
import FrameRequest
@testable import GTFS
import MapFrameTestSupport
import MapGeometry
import MapRender
import PhoneScreen
import Screens
import SwiftProtobuf
import Testing
import TileStore

/// The `transit` key of scene files and script steps: read, looked up in its feed, drawn,
/// explained, and refused with the field, the feed's file, line and column, and what is allowed.
@Suite struct TransitSceneTests {
    static let transfer = #"""
        {"feed": "gtfs", "legs": [{"trip": "T7", "board": "S3", "alight": "S5"}, {"trip": "B60", "board": "S5", "alight": "S9"}],
         "vehicle": {"trip": "T7", "time": "08:31:00"}}
        """#

    /// Writes the test feed into `gtfs/` and a scene with `transit` beside it, and loads the scene.
    private func loadScene(transit: String, feedChanges: [String: String] = [:], extra: String = "") throws(SceneError) -> Scene {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MapFrameTests-transit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("scene.json")
        do {
            _ = try TransitFeedFixture.write(into: directory.appendingPathComponent("gtfs"), changing: feedChanges)
            try Data(#"{"camera": {"fit": "all"}, \#(extra) "transit": \#(transit)}"#.utf8).write(to: scene)
        } catch {
            Issue.record("cannot write the scene: \(error)")
        }
        return try SceneFile.load(scene, catalog: .builtin)
    }

    @Test func aRealtimeFilePlacesTheVehicle() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        var entity = TransitRealtime_FeedEntity()
        entity.id = "tram"
        entity.vehicle.trip.tripID = "T7"
        entity.vehicle.stopID = "S4"
        entity.vehicle.currentStatus = .incomingAt
        message.entity = [entity]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("MapFrameTests-vehicles-\(UUID().uuidString).pb")
        defer { try? FileManager.default.removeItem(at: file) }
        try message.serializedData().write(to: file)
        let scene = try loadScene(transit: #"{"feed": "gtfs", "departure": {"trip": "T7", "stop": "S5"}, "vehicle": {"trip": "T7", "realtime": "\#(file.path)"}}"#)
        #expect(scene.overlays.transit?.sentence == "Tram 7 is between Elizabeth Way and Midsummer Common, 1 stop before yours. It arrives at 08:38.")
        // The file may stand beside "vehicle", and the trip defaults to the departure's.
        let beside = try loadScene(transit: #"{"feed": "gtfs", "departure": {"trip": "T7", "stop": "S5"}, "realtime": "\#(file.path)"}"#)
        #expect(beside.overlays.transit?.sentence == scene.overlays.transit?.sentence)
        let twice = refusal(transit: #"{"feed": "gtfs", "departure": {"trip": "T7", "stop": "S5"}, "realtime": "\#(file.path)", "vehicle": {"realtime": "\#(file.path)"}}"#)
        #expect(twice?.contains("transit.realtime: is given twice") == true, "\(twice ?? "accepted")")
        entity.vehicle.trip.tripID = "B60"
        message.entity = [entity]
        try message.serializedData().write(to: file)
        let refused = refusal(transit: #"{"feed": "gtfs", "departure": {"trip": "T7", "stop": "S5"}, "vehicle": {"trip": "T7", "realtime": "\#(file.path)"}}"#)
        #expect(refused?.contains("has no vehicle on trip T7, nor a trip update for it; it has vehicles on trips B60") == true, "\(refused ?? "accepted")")
    }

    private func refusal(transit: String, feedChanges: [String: String] = [:]) -> String? {
        #expect(throws: SceneError.self) { try loadScene(transit: transit, feedChanges: feedChanges) }.map(\.description)
    }

    @Test func aSceneDrawsTheJourneyFittedWithRoomForItsSentence() throws {
        let scene = try loadScene(transit: Self.transfer)
        let transit = try #require(scene.overlays.transit)
        #expect(transit.sentence == "Tram 7 is between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:34.")
        let geometry = FrameRenderer.geometry(for: scene, tileSet: StyleCatalog.builtin["osm"]!.tileSet)
        let caption = try #require(FrameRenderer.elements(for: scene, geometry: geometry, tileSet: StyleCatalog.builtin["osm"]!.tileSet).first { $0.category == .caption })
        for stop in transit.stops {
            let pixel = geometry.pixel(for: stop.coordinate)
            #expect(pixel.x > 0 && pixel.x < 320 && pixel.y > 0 && pixel.y < caption.shape.bounds.minY, "\(stop.label) at \(pixel)")
        }
    }

    @Test func hitTestAndDescribeNameTheLinesStopsAndVehicle() throws {
        let scene = try loadScene(transit: Self.transfer)
        let frame = ExplainedFrame(scene: scene, tileSet: StyleCatalog.builtin["osm"]!.tileSet)
        let transit = try #require(scene.overlays.transit)
        func hit(_ coordinate: Coordinate) throws -> HitAnswer {
            let pixel = frame.geometry.pixel(for: coordinate)
            return try frame.hit(x: Int(pixel.x), y: Int(pixel.y), slop: 0)
        }
        let vehicle = try hit(try #require(transit.vehicle).coordinate)
        #expect(vehicle.category == .vehicle && vehicle.label == "Tram 7 towards Castle Hill, between Coldham's Lane and Newmarket Road")
        let transferStop = try #require(transit.stops.first { $0.role == .transfer })
        let answer = try hit(transferStop.coordinate)
        #expect(answer.category == .stop && answer.label == "Parker's Piece, transfer to bus 60 at 08:45")
        let busMiddle = Coordinate(latitude: 52.185, longitude: 0.11)
        #expect(try hit(busMiddle).label == "Bus 60 towards Cherry Hinton")

        let description = frame.description()
        #expect(description.short.contains("a public-transport journey and its vehicle"))
        #expect(description.long.contains("Tram 7 is between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:34."))
        #expect(description.long.contains("Transit lines: Tram 7 towards Castle Hill, before your stop; Tram 7 towards Castle Hill; Bus 60 towards Cherry Hinton."))
        #expect(description.elements.contains { $0.category == .stop && $0.label == "Coleridge Café, alight from bus 60 at 08:49" })
    }

    @Test(arguments: [
        (#"{"feed": "gtfs", "legs": [{"trip": "T7", "board": "S1", "alight": "S2"}], "departure": {"trip": "T7", "stop": "S1"}}"#,
         #"transit.legs: give exactly one of "legs" (the journey's legs) and "departure" (the departures view)"#),
        (#"{"feed": "gtfs", "legs": [{"trip": "T7", "board": "S1", "alight": "S2"}], "vehicle": {"trip": "T7", "time": "8:3"}}"#,
         #"transit.vehicle.time: "8:3" is not allowed; expected a time of the service day, H:MM:SS"#),
        (#"{"feed": "gtfs", "legs": [{"trip": "T7", "board": "S4", "alight": "S1"}]}"#,
         #"transit.legs[0].alight: "S1" does not come after the boarding stop "S4" on trip T7"#),
        (#"{"feed": "gtfs", "legs": [{"trip": "T7", "board": "S1", "alight": "S2", "via": "S9"}]}"#, "transit.legs[0]"),
        (#"{"feed": "nowhere", "legs": [{"trip": "T7", "board": "S1", "alight": "S2"}]}"#, "transit.feed:"),
        (#"{"feed": "gtfs", "departure": {"trip": "T7", "stop": "S1"}, "vehicle": {"trip": "T7", "realtime": "missing.pb"}}"#,
         "transit.vehicle.realtime: missing.pb: cannot be read"),
    ])
    func aBadTransitObjectIsRefusedNamingItsField(transit: String, expected: String) {
        let message = refusal(transit: transit)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
        #expect(message?.hasPrefix("scene.json: ") == true)
    }

    @Test func aVehicleWithNoTripFollowsTheJourneysFirstTrip() throws {
        let scene = try loadScene(transit: #"{"feed": "gtfs", "legs": [{"trip": "T7", "board": "S3", "alight": "S6"}], "vehicle": {"time": "08:32:30"}}"#)
        #expect(scene.overlays.transit?.sentence == "Tram 7 is at Newmarket Road, the stop before yours. It arrives at 08:34.")
    }

    @Test func aFeedAtFaultIsNamedByFileLineAndColumn() {
        let badTime = TransitFeedFixture.feed.files["stop_times.txt"]!.replacingOccurrences(of: "T7,08:32:00,08:33:00", with: "T7,8:3,08:33:00")
        let message = refusal(transit: Self.transfer, feedChanges: ["stop_times.txt": badTime])
        #expect(message?.contains("transit.feed: stop_times.txt line 3, column arrival_time") == true, "\(message ?? "accepted")")
    }

    @Test func aSceneSentAsBytesNamesALoadedFeedAndNoFiles() throws {
        try withTemporaryDirectory { directory in
            let feed = try TransitFeedFixture.open(in: directory)
            let body = #"{"camera": {"fit": "all"}, "transit": {"feed": "city", "departure": {"trip": "T7", "stop": "S5"}, "vehicle": {"trip": "T7", "time": "08:35:00"}}}"#
            let scene = try SceneFile.parse(Data(body.utf8), name: "scene", catalog: .builtin, feeds: ["city": feed])
            #expect(scene.overlays.transit?.sentence == "Tram 7 is between Elizabeth Way and Midsummer Common, 1 stop before yours. It arrives at 08:38.")
            let path = body.replacingOccurrences(of: #""city""#, with: #""\#(directory.path)""#)
            let unknown = #expect(throws: SceneError.self) { try SceneFile.parse(Data(path.utf8), name: "scene", catalog: .builtin, feeds: ["city": feed]) }
            #expect(unknown?.description.contains("is not a feed the server loaded; allowed one of city") == true)
            let realtime = body.replacingOccurrences(of: #""time": "08:35:00""#, with: #""realtime": "/etc/passwd""#)
            let refused = #expect(throws: SceneError.self) { try SceneFile.parse(Data(realtime.utf8), name: "scene", catalog: .builtin, feeds: ["city": feed]) }
            #expect(refused?.description.contains("transit.vehicle.realtime: names a file, which only a scene file on disk can") == true)
        }
    }

    @Test func aScriptsWaitsMoveTheVehicleOnByTheScriptClock() throws {
        try withTemporaryDirectory { directory in
            _ = try TransitFeedFixture.write(into: directory.appendingPathComponent("gtfs"))
            let script = #"""
                {"steps": [{"transit": {"feed": "gtfs", "legs": [{"trip": "T7", "board": "S3", "alight": "S6"}],
                                        "vehicle": {"trip": "T7", "time": "08:33:00"}}},
                           {"wait": 30}, {"wait": 30}, {"wait": 30}, {"zoomIn": true}]}
                """#
            let parsed = try ScriptParser.parse(Data(script.utf8), relativeTo: directory, styles: StyleCatalog.builtin.sources.mapValues(\.tileSet.zoomRange))
            let run = try ScriptPlayer.run(parsed)
            #expect(run.log.map(\.transit) == [
                nil,
                "Tram 7 is at Newmarket Road, the stop before yours. It arrives at 08:34.",
                "Tram 7 is between Newmarket Road and your stop, Elizabeth Way. It arrives at 08:34.",
                "Tram 7 is at your stop, Elizabeth Way. It leaves at 08:34.",
                "Tram 7 is at your stop, Elizabeth Way. It leaves at 08:34.",
                "Tram 7 is at your stop, Elizabeth Way. It leaves at 08:34.",
            ])
            let vehicles = run.frames.map { $0.state.transit?.vehicle?.coordinate }
            #expect(vehicles[1] != vehicles[2] && vehicles[2] != vehicles[3])
            #expect(run.frames[1].state.camera != run.frames[0].state.camera, "the map is fitted to the journey")
        }
    }
}
