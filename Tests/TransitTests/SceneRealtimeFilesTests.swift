import Foundation
import GTFS
import MapFrameTestSupport
import SwiftProtobuf
import Testing

/// The GTFS-realtime files the demo scenes and scripts read (`Scenes/transit/realtime/`), built
/// here through the generated code, so that what they hold is written down in Swift. The files
/// must be these messages, byte for byte; `MAPFRAME_RECORD_GOLDENS=1` rewrites them.
@Suite struct SceneRealtimeFilesTests {
    /// 2024-03-15 08:36:00 in Cambridge (GMT), the moment the demo's boards and journeys show.
    static let moment: UInt64 = 1_710_491_760

    static func at(_ clock: String) -> Int64 {
        let parts = clock.split(separator: ":").map { Int64($0)! }
        return Int64(moment) - (8 * 3600 + 36 * 60) + parts[0] * 3600 + parts[1] * 60
    }

    static let files: [String: TransitRealtime_FeedMessage] = [
        "trip-updates.pb": TestRealtime.message(timestamp: moment, [
            // Tram 7 of 08:30 runs 3 minutes late from Elizabeth Way on.
            TestRealtime.tripUpdate("tu-T7-0830", trip: TestRealtime.trip("T7-0830", route: "R7", startDate: "20240315"), stops: [
                .init(sequence: 3, stopID: "S3", arrivalDelay: 180),
            ]),
            // Bus 60 of 08:55 does not run.
            TestRealtime.tripUpdate("tu-B60-0855", trip: TestRealtime.trip("B60-0855", route: "R60", startDate: "20240315", relationship: .canceled)),
            // An extra tram the timetable lacks.
            TestRealtime.tripUpdate(
                "tu-T7-extra", trip: TestRealtime.trip("T7-X0845", route: "R7", startDate: "20240315", startTime: "08:45:00", relationship: .added),
                stops: [
                    .init(stopID: "S4", departureTime: at("08:46")), .init(stopID: "S5", arrivalTime: at("08:48"), departureTime: at("08:48")),
                    .init(stopID: "S6", arrivalTime: at("08:50")), .init(stopID: "S7", arrivalTime: at("08:53")),
                ], headsign: "Castle Hill"
            ),
        ]),
        "alerts.pb": TestRealtime.message(timestamp: moment, [
            TestRealtime.alert(
                "alert-60", header: "Bus 60 diverted via Mill Road: roadworks on Regent Street", informing: [.init(route: "R60")],
                periods: [(moment - 2 * 3600, moment + 10 * 3600)]
            ),
            // Not about anything the demo draws: left out.
            TestRealtime.alert("alert-99", header: "Line 99 does not run today", informing: [.init(route: "R99")]),
            // Over already.
            TestRealtime.alert("alert-old", header: "Tram 7 replaced by buses", informing: [.init(route: "R7")], periods: [(moment - 86_400, moment - 3600)]),
        ]),
    ]

    static let folder = packageRoot.appendingPathComponent("Scenes/transit/realtime")

    @Test func theScenesRealtimeFilesAreTheseMessages() throws {
        for (name, message) in Self.files {
            let url = Self.folder.appendingPathComponent(name)
            let data = try message.serializedData()
            if ProcessInfo.processInfo.environment["MAPFRAME_RECORD_GOLDENS"] == "1" {
                try data.write(to: url)
                continue
            }
            #expect(try Data(contentsOf: url) == data, "\(name) differs from the message written here; run with MAPFRAME_RECORD_GOLDENS=1 to rewrite it")
            #expect(try RealtimeFeed.read(data, file: name).timestamp == Int(Self.moment))
        }
    }
}
