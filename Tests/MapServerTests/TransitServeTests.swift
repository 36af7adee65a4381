import Foundation
import MapFrameTestSupport
import Testing

/// `serve --gtfs NAME=PATH`: feeds load at start-up, and a scene posted to /frame names one by
/// its name, never by a path; a client's mistakes are 4xx naming the field.
@Suite struct TransitServeTests {
    /// The made-up feed beside the example scenes.
    static let feed = packageRoot.appendingPathComponent("Scenes/transit/gtfs")

    static func scene(feed: String, stop: String = "S5", vehicle: String = #""time": "08:35:00""#) -> Data {
        Data(#"""
            {"camera": {"fit": "all"}, "transit": {"feed": "\#(feed)", "departure": {"trip": "T7-0830", "stop": "\#(stop)"},
             "vehicle": {"trip": "T7-0830", \#(vehicle)}}}
            """#.utf8)
    }

    @Test func aPostedSceneNamesAFeedTheServerLoaded() async throws {
        let cache = try TemporaryDirectory("transit-serve")
        defer { cache.remove() }
        try Fixtures.installOSMCache(in: cache.path)
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline", "--gtfs", "fenland=\(Self.feed.path)"])
        let drawn = try await server.post("/frame", contentType: "application/json", body: Self.scene(feed: "fenland"))
        #expect(drawn.status == 200 && drawn.header("Content-Type") == "image/png", "\(drawn)")

        let refusals: [(Data, String)] = [
            (Self.scene(feed: Self.feed.path), "is not a feed the server loaded; allowed one of fenland"),
            (Self.scene(feed: "fenland", stop: "S99"), "transit.departure.stop: \\\"S99\\\" is not a stop of trip T7-0830"),
            (Self.scene(feed: "fenland", vehicle: #""realtime": "/etc/passwd""#), "names a file, which only a scene file on disk can"),
            (Self.scene(feed: "fenland", vehicle: #""time": "25:99:00""#), "transit.vehicle.time"),
        ]
        for (body, mention) in refusals {
            let reply = try await server.post("/frame", contentType: "application/json", body: body)
            #expect(reply.status == 400 && reply.text.contains(mention), "\(reply.status) \(reply.text)")
        }
        server.send(SIGTERM)
        #expect(try await server.waitForExit() == 0, "\(server.standardError)")
    }

    @Test(arguments: [
        (["--gtfs", "fenland=/nonexistent/feed"], "--gtfs fenland: "),
        (["--gtfs", "../feed"], "--gtfs: '../feed' is not allowed; expected NAME=PATH"),
        (["--gtfs", "a=\(feed.path)", "--gtfs", "a=\(feed.path)"], "--gtfs: the name 'a' is given twice"),
        (["--gtfs", "a=\(feed.path)", "--gtfs-realtime", "b=trip-updates.pb"], "--gtfs-realtime: 'b' is not a feed given with --gtfs; allowed a"),
        (["--gtfs-realtime", "trip-updates.pb"], "--gtfs-realtime: 'trip-updates.pb' is not allowed; expected NAME=PATH"),
    ])
    func aFeedThatCannotBeLoadedStopsTheServerBeforeItStarts(arguments: [String], mention: String) async throws {
        let cache = try TemporaryDirectory("transit-serve-bad")
        defer { cache.remove() }
        let result = try await runProgram(MapframeExecutable.url(), ["serve", "--port", "0", "--cache-dir", cache.path, "--offline"] + arguments, in: cache.url)
        #expect(result.status != 0 && result.standardError.contains(mention), "\(result)")
    }
}
