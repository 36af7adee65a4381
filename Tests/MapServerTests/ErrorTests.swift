import Foundation
import Testing

/// One request the server must refuse, and how.
struct ErrorCase: Sendable, CustomStringConvertible {
    var method = "GET"
    var path: String
    var contentType: String?
    var body: Data?
    var status: Int
    /// A phrase the JSON `error` message must contain, so that the refusal is for the right reason.
    var mentions: String

    var description: String { "\(method) \(path.prefix(80)) -> \(status)" }

    static func get(_ path: String, _ status: Int, mentions: String) -> ErrorCase {
        ErrorCase(path: path, status: status, mentions: mentions)
    }

    static func postRoute(_ contentType: String, _ body: String, _ status: Int, mentions: String) -> ErrorCase {
        ErrorCase(method: "POST", path: "/routes", contentType: contentType, body: Data(body.utf8), status: status, mentions: mentions)
    }
}

/// Every error status the contract names: a JSON `{"error": "..."}` body, the right status and
/// `Access-Control-Allow-Origin: *`.
@Suite struct ErrorTests {
    static let tileErrors: [ErrorCase] = [
        .get("/tiles/osm/abc/0/0.png", 400, mentions: "z: 'abc' is not a whole number"),
        .get("/tiles/osm/16/-1/0.png", 400, mentions: "x: '-1' is not a whole number"),
        .get("/tiles/osm/16/1.5/0.png", 400, mentions: "x: '1.5'"),
        .get("/tiles/osm/16/0/zero.png", 400, mentions: "y: 'zero' is not a whole number"),
        .get("/tiles/osm/16/0/0.jpg", 400, mentions: "must end in .png or @2x.png"),
        .get("/tiles/osm/16/0/0@3x.png", 400, mentions: "y: '0@3x'"),
        .get("/tiles/osm/16/0/0", 400, mentions: "must end in .png"),
        .get("/tiles/osm/2/4/0.png", 400, mentions: "x: 4 is outside 0...3"),
        .get("/tiles/osm/2/0/4.png", 400, mentions: "y: 4 is outside 0...3"),
        .get("/tiles/osm/16/65536/0@2x.png", 400, mentions: "x: 65536 is outside 0...65535"),
        .get("/tiles/nope/1/0/0.png", 404, mentions: "style 'nope' is not known"),
        .get("/tiles/osm/20/0/0.png", 404, mentions: "z: 20 is outside"),
        .get("/tiles/nope.json", 404, mentions: "style 'nope' is not known"),
        .get("/tiles/osm.xml", 404, mentions: "not a TileJSON document"),
        .get("/routes/0123456789abcdef", 404, mentions: "route '0123456789abcdef' is not known"),
        .get("/routes/0123456789abcdef/tiles/osm.json", 404, mentions: "route '0123456789abcdef' is not known"),
        .get("/routes/0123456789abcdef/tiles/osm/16/0/0.png", 404, mentions: "route '0123456789abcdef' is not known"),
        ErrorCase(method: "DELETE", path: "/routes/0123456789abcdef", status: 404, mentions: "is not known"),
        .get("/no/such/path", 404, mentions: "Not Found"),
    ]

    static let frameErrors: [ErrorCase] = [
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&width=abc", 400, mentions: "width: 'abc' is not a number"),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&width=2.5", 400, mentions: "width: 2.5 is not allowed; expected a whole number in 1...4096"),
        .get("/frame.png?lat=north&lon=0.14&zoom=16", 400, mentions: "lat: 'north' is not a number"),
        .get("/frame.png?lat=91&lon=0.14&zoom=16", 400, mentions: "lat: 91 is outside"),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&scale=3", 400, mentions: "scale: 3 is outside the allowed range 1...2"),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&width=5000", 400, mentions: "width: 5000 is outside"),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&width=nan", 400, mentions: "width: 'nan'"),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&colour=red", 400, mentions: "colour: unknown parameter"),
        .get("/frame.png?lon=0.14&zoom=16", 400, mentions: "lat: missing"),
        .get("/frame.png?lat=52.2&lon=0.14", 400, mentions: "zoom: missing"),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=20", 400, mentions: "zoom: 20 is outside"),
        .get("/frame.png?style=nope&lat=52.2&lon=0.14&zoom=16", 404, mentions: #"style: "nope" is not allowed; expected one of opencyclemap, osm"#),
        .get("/frame.png?lat=52.2&lon=0.14&zoom=16&route=0123456789abcdef", 404, mentions: "route '0123456789abcdef' is not known"),
        ErrorCase(method: "POST", path: "/frame", contentType: "application/json", body: Data(#"{"camera": {"zoom": 16}}"#.utf8), status: 400, mentions: "camera.center"),
        ErrorCase(method: "POST", path: "/frame", contentType: "application/json", body: Data("{not json".utf8), status: 400, mentions: "scene"),
    ]

    static let routeErrors: [ErrorCase] = [
        .postRoute("text/plain", "0.14,52.2 0.15,52.21", 415, mentions: "Content-Type 'text/plain' is not supported"),
        ErrorCase(method: "POST", path: "/routes", body: Data("{}".utf8), status: 415, mentions: "is not supported"),
        .postRoute("application/geo+json", #"{"type": "LineString", "coordinates": []}"#, 422, mentions: "coordinates: has 0 points"),
        .postRoute("application/json", #"{"type": "LineString", "coordinates": [[0.14, 52.2]]}"#, 422, mentions: "has 1 point"),
        .postRoute("application/json", #"{"type": "Point", "coordinates": [0.14, 52.2]}"#, 422, mentions: "type"),
        .postRoute("application/xml", #"<?xml version="1.0"?><markers><error>Unknown journey</error></markers>"#, 422, mentions: "Unknown journey"),
        .postRoute("application/gpx+xml", #"<gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>"#, 422, mentions: "has 0 points"),
        .postRoute(
            "application/geo+json", #"{"type": "LineString", "coordinates": ["# + Array(repeating: "[0,0]", count: 100_001).joined(separator: ",") + "]}",
            422, mentions: "coordinates: has 100001 points; at most 100000 are allowed"
        ),
        .postRoute("application/xml", "<markers><marker type=\"route\"", 400, mentions: "not well-formed XML"),
        .postRoute("application/gpx+xml", "not xml at all", 400, mentions: "a document beginning with 'n' is neither XML nor JSON"),
        .postRoute("application/json", #"{"type": "LineString", "coordinates": [[0.14, 52.2]"#, 400, mentions: "route: malformed JSON"),
        .postRoute("application/xml", #"<?xml version="1.0"?><sayt/>"#, 400, mentions: "root element <sayt> is not <gpx> or <kml> or <TrainingCenterDatabase> or <markers>"),
        .postRoute("application/xml", #"<?xml version="1.0"?><kml/>"#, 422, mentions: "has no LineString, gx:Track or gx:MultiTrack to draw as a route"),
        .postRoute("application/json", String(repeating: "[", count: 10_000), 400, mentions: "nesting deeper than 256 levels"),
        // XXE: an external entity naming a local file. Refused before parsing, and nothing leaks.
        .postRoute("application/xml", """
            <?xml version="1.0"?>
            <!DOCTYPE markers [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <markers><marker type="route" start="&xxe;" finish="B" length="1" time="1" plan="x" speed="1" coordinates="0.1,52.2 0.2,52.3"/></markers>
            """, 400, mentions: "DOCTYPE is not allowed"),
        .postRoute("application/gpx+xml", """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <gpx><trk><name>&b;</name></trk></gpx>
            """, 400, mentions: "DOCTYPE is not allowed"),
    ]

    @Test(arguments: tileErrors + frameErrors + routeErrors)
    func refusedWithAJSONError(_ errorCase: ErrorCase) async throws {
        try await TestServer.with { server in
            let reply = try await HTTP.send(
                errorCase.method, errorCase.path, port: server.port,
                headers: errorCase.contentType.map { [("Content-Type", $0)] } ?? [], body: errorCase.body
            )
            try expectJSONError(reply, status: errorCase.status, mentions: errorCase.mentions)
            #expect(!reply.text.contains("root:x:0"), "the answer leaks /etc/passwd")
        }
    }

    /// 413 for a body over the 5 MB limit, whatever it is; both for routes and scenes.
    @Test(arguments: ["/routes", "/frame"])
    func bodyOverTheLimit(path: String) async throws {
        let sixMegabytes = Data(repeating: UInt8(ascii: " "), count: 6_000_000)
        try await TestServer.with { server in
            // Over a raw socket: the server answers before it has read the body.
            let reply = try await HTTP.send("POST", path, port: server.port, headers: [("Content-Type", "application/json")], body: sixMegabytes)
            try expectJSONError(reply, status: 413, mentions: "larger than 5000000 bytes")
            // The server is still there for the next client.
            #expect(try await server.get("/healthz").status == 200)
        }
    }

    /// A route tile's z, x and y are checked like a base tile's.
    @Test func routeTileAddressesAreChecked() async throws {
        try await TestServer.with { server in
            let route = try await server.addRoute(.gpx(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            try expectJSONError(try await server.get("/routes/\(id)/tiles/osm/2/4/0.png"), status: 400, mentions: "x: 4 is outside 0...3")
            try expectJSONError(try await server.get("/routes/\(id)/tiles/osm/16/0/0.gif"), status: 400, mentions: ".png")
            try expectJSONError(try await server.get("/routes/\(id)/tiles/osm/25/0/0.png"), status: 404, mentions: "z: 25 is outside")
            try expectJSONError(try await server.get("/routes/\(id)/tiles/nope/16/0/0.png"), status: 404, mentions: "style 'nope'")
            try expectJSONError(try await server.get("/routes/\(id)/tiles/nope.json"), status: 404, mentions: "style 'nope'")
        }
    }
}
