import Foundation
import MapGeometry
import Testing

/// `GET /frame/hit`, `GET /frame/describe` and `GET /frame.html`: the frame of `/frame.png`'s
/// parameters, explained for screen readers.
@Suite struct ExplainEndpointTests {
    /// A route due east through the frame's centre: at zoom 16, 0.002 degrees of longitude
    /// is 93 px, so the start marker's tip is at (67, 120) and the finish's at (253, 120).
    static let points = [Coordinate(latitude: 52.2072, longitude: 0.1400), Coordinate(latitude: 52.2072, longitude: 0.1440)]

    static func frame(route id: String) -> String {
        "style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240&route=\(id)"
    }

    @Test func hitNamesTheElementAtAPixel() async throws {
        try await TestServer.with(fixtures: true) { server in
            let id = try #require(try await server.addRoute(.geoJSONLineString(Self.points))["id"] as? String)
            let frame = Self.frame(route: id)
            let route = try await server.get("/frame/hit?\(frame)&x=160&y=120")
            #expect(route.status == 200, "\(route)")
            #expect(route.header("Content-Type") == "application/json")
            #expect(String(decoding: route.body, as: UTF8.self) == #"{"category":"route","label":"Route"}"#)
            let start = try await server.get("/frame/hit?\(frame)&x=67&y=105").json()
            #expect(start["category"] as? String == "start" && start["label"] as? String == "Start marker")
            let map = try await server.get("/frame/hit?\(frame)&x=160&y=20").json()
            #expect(map["category"] as? String == "basemap")
            // Just off the line, a slop reaches it.
            let near = try await server.get("/frame/hit?\(frame)&x=160&y=127&slop=6").json()
            #expect(near["category"] as? String == "route")
        }
    }

    @Test func badHitParametersAre400NamingTheField() async throws {
        try await TestServer.with(fixtures: true) { server in
            let id = try #require(try await server.addRoute(.geoJSONLineString(Self.points))["id"] as? String)
            let frame = Self.frame(route: id)
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=320&y=10"), status: 400, mentions: "x: 320 is outside the frame; allowed 0...319")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=5&y=-1"), status: 400, mentions: "y: -1 is outside the frame; allowed 0...239")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=left&y=1"), status: 400, mentions: "x: 'left' is not a whole number")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&y=1"), status: 400, mentions: "x: missing")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=1&y=1&slop=-2"), status: 400, mentions: "slop: '-2' is not allowed; expected a number of logical pixels in 0...100")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=1&y=1&z=3"), status: 400, mentions: "z: unknown parameter; allowed: bbox, geojson, height, lang, lat, lon, marker, padding, path, route, scale, slop, style, theme, units, width, x, y, zoom")
            try expectJSONError(try await server.get("/frame/describe?\(frame)&x=1"), status: 400, mentions: "x: unknown parameter")
            try expectJSONError(try await server.get("/frame.html?\(frame)&theme=dark"), status: 400, mentions: #"theme: "dark" is not allowed"#)
            try expectJSONError(try await server.get("/frame/describe?\(frame)&detail=loud"), status: 400, mentions: "detail: 'loud' is not a detail; allowed brief, standard, full")
            try expectJSONError(try await server.get("/frame/describe?\(frame)&from=moon"), status: 400, mentions: "from: 'moon' is not a viewpoint; allowed start, location or x,y")
            try expectJSONError(try await server.get("/frame/describe?\(frame)&lang=fr"), status: 400, mentions: "lang: 'fr' is not a language; allowed en-GB or sv")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=1&y=1&units=furlongs"), status: 400, mentions: "units: 'furlongs' is not a unit system; allowed metric or imperial")
            try expectJSONError(try await server.get("/frame.html?\(frame)&lang=de"), status: 400, mentions: "lang: 'de' is not a language; allowed en-GB or sv")
            try expectJSONError(try await server.get("/frame/hit?\(frame)&x=1&y=1&detail=full"), status: 400, mentions: "detail: unknown parameter")
        }
    }

    @Test func describeAnswersTextOrJSONByAccept() async throws {
        try await TestServer.with(fixtures: true) { server in
            let id = try #require(try await server.addRoute(.geoJSONLineString(Self.points))["id"] as? String)
            let text = try await server.get("/frame/describe?\(Self.frame(route: id))")
            #expect(text.status == 200)
            #expect(text.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(String(decoding: text.body, as: UTF8.self) == """
                Map about 470 metres across, showing a route with its start and finish markers.

                The map is about 470 metres across.
                The route is 270 metres long.
                The route starts on the left and ends on the right.
                The route heads east for 270 metres.
                The finish is 270 metres east of the start.
                Finish marker, 140 metres east of the centre.
                Start marker, 140 metres west of the centre.
                Map attribution: © OpenStreetMap contributors.

                """)
            let json = try await server.get("/frame/describe?\(Self.frame(route: id))", headers: [("Accept", "application/json")]).json()
            #expect((json["long"] as? [String])?.count == 8)
            #expect((json["elements"] as? [[String: Any]])?.map { $0["direction"] as? String } == ["east", "west"])
        }
    }

    @Test func theExplorableFrameLinksItsImageAndMapsEachElement() async throws {
        try await TestServer.with(fixtures: true) { server in
            let id = try #require(try await server.addRoute(.geoJSONLineString(Self.points))["id"] as? String)
            let page = try await server.get("/frame.html?\(Self.frame(route: id))")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            let html = String(decoding: page.body, as: UTF8.self)
            // The attribute's ampersands are escaped, as HTML asks.
            let src = try #require(html.firstMatch(of: #/<img [^>]*src="([^"]+)"/#)?.1).replacingOccurrences(of: "&amp;", with: "&")
            #expect(src == "frame.png?\(Self.frame(route: id))")
            #expect(try await server.get("/" + src).status == 200)
            for label in ["Start marker", "Finish marker", "Route", "Map attribution: © OpenStreetMap contributors"] {
                #expect(html.contains(#"alt="\#(label)""#), "no area for \(label)")
            }
        }
    }
}
