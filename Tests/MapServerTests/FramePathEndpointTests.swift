import Foundation
import ImageCodec
import MapFrameTestSupport
import MapRender
import Testing

/// `path=` on the endpoints that draw and explain frames.
@Suite struct FramePathEndpointTests {
    /// At zoom 16 over (52.2072, 0.1420) in a 320 x 240 frame, 0.002 degrees of longitude is 93 px.
    static let frame = "/frame.png?style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240"

    @Test func pathsDrawWhereTheQuerySays() async throws {
        try await TestServer.with(fixtures: true) { server in
            // Due east through the centre, as points and as a precision-6 polyline (written by
            // the PyPI polyline package: `polyline.encode([(52.2072, 0.14), (52.2072, 0.144)], 6)`).
            let asPoints = "colour:0072B2|width:6|52.2072,0.1400|52.2072,0.1440"
            let asPolyline = "colour:0072B2|width:6|enc6:_enqbB_mpG?_yF"
            for path in [asPoints, asPolyline] {
                let query = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let reply = try await server.get(Self.frame + "&path=" + query)
                #expect(reply.status == 200, "\(reply)")
                let image = try reply.image()
                #expect(image.pixel(x: 160, y: 120) == Colour(hex: 0x0072B2) && image.pixel(x: 110, y: 121) == Colour(hex: 0x0072B2))
                #expect(image.pixel(x: 160, y: 126) != Colour(hex: 0x0072B2))
            }
            let described = String(decoding: try await server.get(
                "/frame/describe?style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240&path=title:Quayside%7C52.2072,0.1400%7C52.2072,0.1440"
            ).body, as: UTF8.self)
            #expect(described.contains("Quayside, at the centre."), "\(described)")
        }
    }

    @Test func badPathsAre400NamingTheField() async throws {
        try await TestServer.with(fixtures: true) { server in
            try expectJSONError(try await server.get(Self.frame + "&path=width:99%7C52.2,0.14%7C52.3,0.14"), status: 400, mentions: "path.width: 99 is outside the allowed range 0...50")
            try expectJSONError(try await server.get(Self.frame + "&path=52.2,0.14"), status: 400, mentions: "path: has 1 point")
            try expectJSONError(
                try await server.get(Self.frame + "&path=enc:gknqbBgwaF~W_%60Ffw@_nDvcAgiBfw@w%60EoK_gE"), status: 400,
                mentions: "path: the enc: polyline point 1 is 522.073,1.161, off the map"
            )
        }
    }

    /// `bbox` fits a box whatever the objects cover; `padding` works with any fitted camera.
    @Test func aBoxCameraFitsTheBox() async throws {
        try await TestServer.with(fixtures: true) { server in
            let boxed = "/frame/describe?style=osm&width=320&height=240&bbox=0.1400,52.2060,0.1440,52.2080&path=title:Quayside%7C52.2072,0.1400%7C52.2072,0.1440"
            let reply = try await server.get(boxed)
            #expect(reply.status == 200, "\(reply)")
            #expect(String(decoding: reply.body, as: UTF8.self).contains("Quayside"))
            let padded = try await server.get("/frame.png?style=osm&width=320&height=240&bbox=0.1400,52.2060,0.1440,52.2080&padding=40")
            #expect(padded.status == 200, "\(padded)")
            for (query, message) in [
                ("bbox=0.14,52.206,0.144&lat=52.2", "bbox: give bbox or lat, lon and zoom, not both"),
                ("bbox=0.14,52.206,0.144", "bbox: an array of 3 is not allowed; expected [west, south, east, north]"),
                ("bbox=0.144,52.206,0.14,52.208", "bbox: [0.144, 52.206, 0.14, 52.208] is not [west, south, east, north]"),
                ("bbox=0.14,52.206,200,52.208", "bbox[2] (east): 200 is outside the allowed range"),
                ("bbox=0.14,52.206,east,52.208", "bbox: 'east' is not a number"),
                ("lat=52.2&lon=0.14&zoom=15&padding=10", "padding: only for a fitted camera"),
                ("bbox=0.14,52.206,0.144,52.208&padding=500", "padding: 500 is outside the allowed range"),
            ] {
                try expectJSONError(try await server.get("/frame.png?style=osm&width=320&height=240&" + query), status: 400, mentions: message)
            }
        }
    }
}
