import Foundation
import ImageCodec
import MapGeometry
import MapFrameTestSupport
import MapRender
import Testing

/// `marker=` on the endpoints that draw and explain frames, and `"layers"` in posted scenes.
@Suite struct FrameMarkerEndpointTests {
    /// At zoom 16 over (52.2072, 0.1420) in a 320 x 240 frame, 0.002 degrees of longitude is 93 px.
    static let frame = "/frame.png?style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240"

    @Test func markersDrawWhereTheQuerySays() async throws {
        try await TestServer.with(fixtures: true) { server in
            // Blue, centre-anchored with a dot: its head's middle is on the point, so the pixel
            // 5 px left of the point is the fill.
            let reply = try await server.get(Self.frame + "&marker=colour:0072B2|anchor:center|icon:dot|52.2072,0.1420|52.2072,0.1440")
            #expect(reply.status == 200, "\(reply)")
            let image = try reply.image()
            for x in [160, 160 + 93] {
                #expect(image.pixel(x: x - 5, y: 120) == Colour(hex: 0x0072B2), "no blue at \(x - 5), 120")
                #expect(image.pixel(x: x, y: 120).redLevel > 200, "the dot's white ink is not on the point at \(x), 120")
            }
            // Without a camera, the frame fits the markers.
            let fitted = try await server.get("/frame.png?width=320&height=240&marker=label:A|52.2072,0.1420&marker=colour:00FF00|52.21,0.15")
            #expect(fitted.status == 200, "\(fitted)")
            #expect(try fitted.image().allPixels.contains(Colour(hex: 0x00FF00)))
        }
    }

    @Test func explainedFramesNameTheMarkers() async throws {
        try await TestServer.with(fixtures: true) { server in
            let query = "style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240&marker=title:Market%20square|52.2072,0.1440"
            let hit = try await server.get("/frame/hit?\(query)&x=253&y=100").json()
            #expect(hit["category"] as? String == "marker" && hit["label"] as? String == "Market square", "\(hit)")
            let description = String(decoding: try await server.get("/frame/describe?\(query)").body, as: UTF8.self)
            #expect(description.contains("Market square, 140 metres east of the centre."), "\(description)")
        }
    }

    @Test func postedScenesTakeLayers() async throws {
        try await TestServer.with(fixtures: true) { server in
            let scene = ##"{"size": {"width": 320, "height": 240}, "camera": {"fit": "all"}, "layers": [{"type": "marker", "lat": 52.2072, "lon": 0.142, "colour": "#0072B2"}]}"##
            let posted = try await server.post("/frame", contentType: "application/json", body: Data(scene.utf8))
            #expect(posted.status == 200, "\(posted)")
            #expect(try posted.image().allPixels.contains(Colour(hex: 0x0072B2)))
            let bad = ##"{"camera": {"fit": "all"}, "layers": [{"type": "marker", "lat": 52.2072, "lon": 0.142, "size": "huge"}]}"##
            try expectJSONError(
                try await server.post("/frame", contentType: "application/json", body: Data(bad.utf8)), status: 400,
                mentions: #"layers[0].size: "huge" is not allowed; expected one of small, medium, large"#
            )
        }
    }

    @Test func badMarkersAre400NamingTheField() async throws {
        try await TestServer.with(fixtures: true) { server in
            try expectJSONError(try await server.get(Self.frame + "&marker=colour:blue|52.2,0.14"), status: 400, mentions: #"marker.colour: "blue" is not allowed"#)
            try expectJSONError(
                try await server.get(Self.frame + "&marker=52.2,0.14&marker=size:tiny|52.2,0.14"), status: 400,
                mentions: #"marker[2].size: "tiny" is not allowed; expected one of small, medium, large"#
            )
            try expectJSONError(try await server.get(Self.frame + "&marker=52.2"), status: 400, mentions: "marker: '52.2' is not a point; expected lat,lon")
            try expectJSONError(try await server.get(Self.frame + "&zoom=15"), status: 400, mentions: "zoom: given more than once")
            let many = Array(repeating: "52.2,0.14", count: MapObjects.maximumPerScene + 1).joined(separator: "|")
            try expectJSONError(try await server.get(Self.frame + "&marker=" + many), status: 400, mentions: "allowed at most 1000")
            // A camera half given is not a fit.
            try expectJSONError(try await server.get("/frame.png?lat=52.2&marker=52.2,0.14"), status: 400, mentions: "lon: missing")
        }
    }
}
