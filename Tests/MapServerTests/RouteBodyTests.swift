import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing

/// `POST /routes` with each route format MapFrame reads, told apart by the body's content.
@Suite struct RouteBodyTests {
    /// A fixture file of the payload parsers' tests, and the parts (points in each) it holds.
    struct FixtureFile: Sendable, CustomStringConvertible {
        var name: String
        var contentType: String
        var parts: [Int]

        var description: String { "\(name) as \(contentType)" }

        func body() throws -> Data {
            try Data(contentsOf: packageRoot.appendingPathComponent("Tests/ScreensTests/Fixtures/\(name)"))
        }
    }

    @Test(arguments: [
        FixtureFile(name: "journey.json", contentType: "application/json", parts: [6]),
        FixtureFile(name: "journey.xml", contentType: "application/xml", parts: [6]),
        FixtureFile(name: "tracks.gpx", contentType: "application/gpx+xml", parts: [2, 2, 3]),
        FixtureFile(name: "track.gpx", contentType: "text/xml", parts: [2, 2]),
        FixtureFile(name: "collection.geojson", contentType: "application/geo+json", parts: [2, 2, 2]),
        FixtureFile(name: "collection.geojson", contentType: "application/json", parts: [2, 2, 2]),
        FixtureFile(name: "route.geojson", contentType: "application/json", parts: [4]),
        FixtureFile(name: "routes/google-earth.kml", contentType: "application/vnd.google-earth.kml+xml", parts: [3, 3]),
        FixtureFile(name: "routes/gx-track.kml", contentType: "application/xml", parts: [3, 2, 3]),
        FixtureFile(name: "routes/activity.tcx", contentType: "application/vnd.garmin.tcx+xml", parts: [3, 3]),
        FixtureFile(name: "routes/osrm-polyline6.json", contentType: "application/json", parts: [6]),
        FixtureFile(name: "routes/valhalla.json", contentType: "application/json", parts: [6]),
        FixtureFile(name: "routes/google-directions.json", contentType: "application/json", parts: [7]),
        FixtureFile(name: "routes/graphhopper-elevation.json", contentType: "application/json", parts: [6]),
    ])
    func storesEachFormat(_ file: FixtureFile) async throws {
        try await TestServer.with { server in
            let created = try await server.post("/routes", contentType: file.contentType, body: try file.body())
            #expect(created.status == 201, "\(created)")
            let document = try created.json()
            #expect(document["parts"] as? [Int] == file.parts)
            #expect(document["points"] as? Int == file.parts.reduce(0, +))
            // Every fixture starts here; a precision-6 polyline has a sixth decimal.
            let start = try #require(document["start"] as? [String: Double])
            #expect(abs(start["lat"]! - 52.20557) < 1e-5 && abs(start["lon"]! - 0.14144) < 1e-5, "\(start)")
            let id = try #require(document["id"] as? String)
            let stored = try await server.get("/routes/\(id)").json()
            #expect((stored["coordinates"] as? [[Double]])?.count == file.parts.reduce(0, +))
            #expect(stored["parts"] as? [Int] == file.parts)
        }
    }

    static let refusals: [ErrorCase] = [
        .postRoute("application/geo+json", #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [0.14, 52.2]}}, {"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [0.15, 52.21]}}, {"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [0.16, 52.22]}}]}"#,
                   422, mentions: "features: a FeatureCollection of 3 Point features has no LineString or MultiLineString to draw as a route"),
        .postRoute("application/json", #"{"type": "FeatureCollection", "features": []}"#, 422, mentions: "an empty FeatureCollection has no LineString"),
        .postRoute("application/json", #"{"type": "MultiLineString", "coordinates": [[[0.14, 52.2], [0.15, 52.21]], [[0.16, 52.22]]]}"#, 422, mentions: "coordinates[1]: has 1 point"),
        .postRoute("application/gpx+xml", #"<gpx><trk><trkseg><trkpt lat="52.22" lon="0.16"/></trkseg></trk></gpx>"#,
                   422, mentions: "trk[1]/trkseg[1]: has 1 point; at least 2 are needed"),
        .postRoute("application/xml", #"<gpx><trk><trkseg/></trk></gpx>"#, 422, mentions: "trk[1]/trkseg[1]: has 0 points"),
        .postRoute("application/json", #"{"error": "Unknown journey"}"#, 422, mentions: "the CycleStreets API reported an error: Unknown journey"),
        .postRoute("application/json", journeyJSON(length: #""556 m""#), 422, mentions: #"marker[0].@attributes.length: "556 m" is not a whole number"#),
        .postRoute("application/json", journeyJSON(length: "true"), 422, mentions: "marker[0].@attributes.length: true is not allowed; expected a string"),
        .postRoute("application/json", #"{"marker": {"@attributes": {"type": "segment"}}}"#, 422, mentions: "marker[type=route]: missing; expected one route marker"),
        .postRoute("application/json", #"{"coordinates": [[0.14, 52.2], [0.15, 52.21]]}"#, 422, mentions: "type: missing; expected a GeoJSON type"),
        .postRoute("application/json", "[" + Array(repeating: "{}", count: 10).joined(separator: ",") + "]", 422, mentions: "document: an array of 10 is not allowed"),
    ]

    @Test(arguments: refusals)
    func refusesWhatItCannotDrawAndSaysWhy(_ errorCase: ErrorCase) async throws {
        try await TestServer.with { server in
            let reply = try await server.post("/routes", contentType: errorCase.contentType, body: errorCase.body ?? Data())
            try expectJSONError(reply, status: errorCase.status, mentions: errorCase.mentions)
            #expect(try await server.get("/routes").json()["total"] as? Int == 0, "a refused route is not stored")
        }
    }

    /// A route of two parts, the first in one tile and the second two tiles east of it; the
    /// tile between them is crossed only by where a joining line would run.
    @Test func routeTilesDrawEachPartAndNothingBetween() async throws {
        let first = TileID.containing(Fixtures.cambridge, zoom: 16)
        let gap = TileID(z: 16, x: first.x + 1, y: first.y), second = TileID(z: 16, x: first.x + 2, y: first.y)
        func point(in tile: TileID, x: Double, y: Double) -> String {
            let bounds = tile.bounds
            return "[\(bounds.west + x * (bounds.east - bounds.west)), \(bounds.north - y * (bounds.north - bounds.south))]"
        }
        let body = #"{"type": "MultiLineString", "coordinates": [[\#(point(in: first, x: 0.3, y: 0.4)), \#(point(in: first, x: 0.7, y: 0.5))], [\#(point(in: second, x: 0.3, y: 0.5)), \#(point(in: second, x: 0.7, y: 0.6))]]}"#
        try await TestServer.with(fixtures: true) { server in
            let created = try await server.post("/routes", contentType: "application/geo+json", body: Data(body.utf8))
            #expect(created.status == 201, "\(created)")
            let id = try #require(try created.json()["id"] as? String)
            for (tile, drawn) in [(first, true), (gap, false), (second, true)] {
                let plain = try await server.get(Fixtures.tilePath(tile))
                let withRoute = try await server.get(Fixtures.tilePath(tile, route: id))
                #expect(withRoute.status == 200, "\(withRoute)")
                let changed = zip(try plain.image().allPixels, try withRoute.image().allPixels).count { $0 != $1 }
                if drawn {
                    #expect(changed > 100, "tile \(tile): only \(changed) pixels show the route")
                } else {
                    #expect(withRoute.body == plain.body, "tile \(tile), in the gap, has \(changed) pixels drawn on it")
                }
            }
            let tileJSON = try await server.get("/routes/\(id)/tiles/osm.json").json()
            let bounds = try #require(tileJSON["bounds"] as? [Double])
            #expect(bounds[0] < first.bounds.east && bounds[2] > second.bounds.west, "the bounds hold both parts: \(bounds)")
        }
    }

    /// Hostile bodies, each within the 5 MB limit, are refused with a clear error, and what
    /// each takes at its peak is bounded: a few tens of bytes for each byte of the body. Each
    /// goes to a server of its own, so that its peak is its own (the C library keeps freed memory
    /// per thread for reuse, so the peaks of bodies read on different threads would add up), one
    /// at a time and at low priority, to leave the machine's cores to the timing tests that run
    /// alongside.
    @Test(.serialized, arguments: [
        HostileBody(name: "a million empty features", status: 422, mentions: #"features[0].type: missing; expected "Feature""#) {
            #"{"type": "FeatureCollection", "features": ["# + String(repeating: "{},", count: 999_999) + "{}]}"
        },
        HostileBody(name: "800,000 positions", status: 422, mentions: "coordinates: has 800000 points; at most 100000 are allowed") {
            #"{"type": "LineString", "coordinates": ["# + String(repeating: "[0,0],", count: 799_999) + "[0,0]]}"
        },
        HostileBody(name: "4.9 million open brackets", status: 400, mentions: "nesting deeper than 256 levels") {
            String(repeating: "[", count: 4_900_000)
        },
        HostileBody(name: "25,000 markers with a number that is not one", status: 422, mentions: #"marker[1].@attributes.time: "1e400" is not a whole number"#) {
            let route = #"{"@attributes": {"type": "route", "start": "A", "finish": "B", "length": "1", "time": "1", "plan": "balanced", "speed": "20", "coordinates": "0.1,52.2 0.2,52.3"}}"#
            let segment = #"{"@attributes": {"type": "segment", "name": "A", "distance": "1", "time": "1e400", "turn": "", "startBearing": "0", "provisionName": "x", "points": "0.1,52.2"}}"#
            return #"{"marker": [\#(route)"# + String(repeating: ", " + segment, count: 25_000) + "]}"
        },
    ])
    func hostileBodyGetsAClearErrorInBoundedMemory(_ hostile: HostileBody) async throws {
        let body = Data(hostile.body().utf8)
        #expect(body.count <= 5_000_000)
        let cache = try TemporaryDirectory("hostile-routes")
        defer { cache.remove() }
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"], lowPriority: true)
        let baseline = try server.peakMemory()
        let reply = try await server.post("/routes", contentType: "application/json", body: body)
        try expectJSONError(reply, status: hostile.status, mentions: hostile.mentions)
        let taken = try server.peakMemory() - baseline
        print("RouteBodyTests: \(hostile.name) (\(body.count) bytes) took \(taken >> 20) MiB at its peak")
        #expect(taken < HostileBody.memoryBound, "\(hostile.name) took \(taken >> 20) MiB; allowed \(HostileBody.memoryBound >> 20) MiB")
    }

    /// Reading a 5 MB body takes a second or more; done on Swift's cooperative threads (one per
    /// core), three such bodies held up every other request until one was read. They are read on
    /// a thread of their own now: a health check sent while they are read is answered before the
    /// first of them, whatever the machine's speed. The requests are made by curl from one shell,
    /// which prints each answer as it comes, so the order is the server's, not this process's
    /// scheduling.
    @Test("while hostile bodies are read, other requests are answered before them")
    func hostileBodiesDoNotHoldUpOtherRequests() async throws {
        let cache = try TemporaryDirectory("busy-routes")
        defer { cache.remove() }
        let body = cache.url.appendingPathComponent("hostile.json")
        try Data((#"{"type": "FeatureCollection", "features": ["# + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]}").utf8).write(to: body)
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"])
        let base = "http://127.0.0.1:\(server.port)"
        let script = """
            for i in 1 2 3; do
              curl -s -o /dev/null -w 'POST %{http_code}\\n' -H 'Content-Type: application/json' --data-binary @hostile.json \(base)/routes &
            done
            sleep 0.3  # once the bodies are sent; each takes far longer than this to read
            curl -s -o /dev/null -w 'GET %{http_code}\\n' \(base)/healthz
            wait
            """
        let result = try await runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: cache.url)
        let order = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(order.count == 4, "\(result)")
        #expect(order.first == "GET 200", "answered in the order \(order)")
        #expect(order.filter { $0.hasPrefix("POST") }.allSatisfy { $0 == "POST 422" || $0 == "POST 503" }, "\(order)")
    }

    struct HostileBody: Sendable, CustomTestStringConvertible {
        /// The most one body may take: 30 bytes for each byte of a 5 MB body.
        static let memoryBound = 150 << 20

        var name: String
        var status: Int
        var mentions: String
        var body: @Sendable () -> String

        var testDescription: String { name }
    }

    static func journeyJSON(length: String) -> String {
        #"{"marker": [{"@attributes": {"type": "route", "start": "A", "finish": "B", "length": \#(length), "time": "143", "plan": "balanced", "speed": "20", "coordinates": "0.14144,52.20557 0.14288,52.20926"}}, {"@attributes": {"type": "segment", "name": "A", "distance": "1", "time": "1", "turn": "", "startBearing": "0", "provisionName": "x", "points": "0.14144,52.20557"}}]}"#
    }
}
