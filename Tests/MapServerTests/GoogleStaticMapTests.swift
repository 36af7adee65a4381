import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// `GET /staticmap`, Google Static Maps' grammar, called through URLs that PyPI's `motionless`
/// builds (scripts/test-clients.sh installs it), with only the host changed.
@Suite(.enabled(if: TestClients.unavailability == nil, "\(TestClients.unavailability ?? "")"))
struct GoogleStaticMapTests {
    /// motionless's URLs for a map at zoom 16 over (52.2072, 0.1420), 320 x 240: a path due east
    /// through the centre, a blue marker labelled A on it, a red mid-sized 1 south-east of it.
    static let script = """
        from motionless import DecoratedMap, LatLonMarker
        decorated = DecoratedMap(lat=52.2072, lon=0.1420, zoom=16, size_x=320, size_y=240, pathcolor="0x0072B2ff", pathweight=6, key="SECRET-KEY-123")
        decorated.add_marker(LatLonMarker(52.2072, 0.1420, color="blue", label="A"))
        decorated.add_marker(LatLonMarker(52.2064, 0.1440, color="red", size="mid", label="1"))
        decorated.add_path_latlon(52.2072, 0.1400)
        decorated.add_path_latlon(52.2072, 0.1440)
        print(decorated.generate_url())
        fitted = DecoratedMap(size_x=320, size_y=240)
        fitted.add_marker(LatLonMarker(52.2072, 0.1420, color="green"))
        fitted.add_marker(LatLonMarker(52.2100, 0.1500, color="0x00FF00"))
        print(fitted.generate_url())
        """

    /// The same frame in MapFrame's own grammar (`/frame.png`), its path the polyline motionless
    /// wrote (which puts the east end at 0.14399, not 0.144: it rounds down).
    static func native(polyline: String) -> String {
        "/frame.png?style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240"
            + "&path=" + "colour:0072B2FF|width:6|enc:\(polyline)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            + "&marker=colour:0000FF%7Csize:large%7Clabel:A%7C52.2072,0.1420&marker=colour:FF0000%7Csize:medium%7Clabel:1%7C52.2064,0.1440"
    }

    @Test func motionlessURLsDrawAsTheFrameEndpointDoes() async throws {
        let urls = try await TestClients.python(Self.script).split(separator: "\n").map(String.init)
        try #require(urls.count == 2 && urls.allSatisfy { $0.hasPrefix(TestClients.googleBase + "/staticmap?") }, "\(urls)")
        try await TestServer.with(fixtures: true) { server in
            let decorated = try await server.get(String(urls[0].dropFirst(TestClients.googleBase.count)))
            try #require(decorated.status == 200, "\(decorated)")
            #expect(decorated.header("Content-Type") == "image/png")
            let image = try decorated.image()
            // The path is 0072B2 along its points; its east end is 93 px from the centre.
            #expect(image.pixel(x: 110, y: 121) == Colour(hex: 0x0072B2) && image.pixel(x: 160 + 90, y: 121) == Colour(hex: 0x0072B2))
            // Pixel for pixel what MapFrame's own grammar draws for the same objects.
            let path = URLComponents(string: urls[0])?.queryItems?.first { $0.name == "path" }?.value ?? ""
            let polyline = try #require(path.firstRange(of: "enc:").map { String(path[$0.upperBound...]) }, "no enc: polyline in \(path)")
            let native = try await server.get(Self.native(polyline: polyline)).image().allPixels
            let differing = zip(image.allPixels, native).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) pixels differ from what /frame.png draws of the same objects")

            // Without center and zoom, the frame fits the markers: both are in it.
            let fitted = try await server.get(String(urls[1].dropFirst(TestClients.googleBase.count)))
            try #require(fitted.status == 200, "\(fitted)")
            let pixels = try fitted.image().allPixels
            #expect(pixels.contains(Colour(hex: 0x00FF00)) && pixels.contains(Colour(hex: 0x008000)))
        }
    }

    @Test func formatAndScaleAreHonoured() async throws {
        try await TestServer.with(fixtures: true) { server in
            let reply = try await server.get("/staticmap?center=52.2072,0.1420&zoom=16&size=160x120&scale=2&format=jpg&maptype=roadmap&sensor=false&language=en")
            try #require(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type") == "image/jpeg")
            let header = try ImageHeader.read(reply.body)
            #expect(header.width == 320 && header.height == 240)
        }
    }

    /// `visible` widens the fitted frame and draws nothing: as a box camera around its places.
    @Test func visiblePlacesAreFittedAndNotDrawn() async throws {
        try await TestServer.with(fixtures: true) { server in
            let visible = try await server.get("/staticmap?size=320x240&visible=52.2072,0.1420%7C52.2100,0.1500")
            try #require(visible.status == 200, "\(visible)")
            let boxed = try await server.get("/frame.png?style=osm&width=320&height=240&bbox=0.1420,52.2072,0.1500,52.2100")
            try #require(boxed.status == 200, "\(boxed)")
            let differing = zip(try visible.image().allPixels, try boxed.image().allPixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) pixels differ from the frame fitted to the same box")
            // With a marker beyond the places, the frame shows both.
            let both = try await server.get("/staticmap?size=320x240&visible=52.2072,0.1420&markers=color:0x00FF00%7C52.2100,0.1500")
            #expect(try both.image().allPixels.contains(Colour(hex: 0x00FF00)))
        }
    }

    @Test(arguments: [
        ("center=52.2,0.14&zoom=16", "size: required"),
        ("size=big&center=52.2,0.14&zoom=16", "size: 'big' is not {width}x{height}"),
        ("size=320x240&center=Cambridge&zoom=16", "center: 'Cambridge' is not a point; expected lat,lon in decimal degrees; addresses are not looked up"),
        ("size=320x240&center=52.2,0.14", "zoom: required with center"),
        ("size=320x240&center=52.2,0.14&zoom=16.5", "zoom: '16.5' is not a whole number"),
        ("size=320x240&center=52.2,0.14&zoom=16&scale=4", "scale: '4' is not offered; allowed: 1, 2"),
        ("size=320x240&center=52.2,0.14&zoom=16&format=gif", "format: 'gif' is not offered"),
        ("size=320x240&center=52.2,0.14&zoom=16&maptype=satellite", "maptype: 'satellite' is not offered; allowed: roadmap, terrain"),
        ("size=320x240&markers=icon:http://example.com/a.png%7C52.2,0.14", "markers.icon: not offered; custom icons are not fetched"),
        ("size=320x240&markers=color:pink%7C52.2,0.14", "markers.color: 'pink' is not a colour"),
        ("size=320x240&markers=label:AB%7C52.2,0.14", "markers.label: 'AB' is not one of A-Z, 0-9"),
        ("size=320x240&markers=Cambridge", "markers: 'Cambridge' is not a point"),
        ("size=320x240&path=geodesic:true%7C52.2,0.14%7C52.3,0.15", "path.geodesic: 'true' is not offered"),
        ("size=320x240&path=weight:99%7C52.2,0.14%7C52.3,0.15", "path.weight: '99' is not allowed; expected 0 to 50 pixels"),
        ("size=320x240&path=52.2,0.14", "path: has 1 point"),
        ("size=320x240&center=52.2,0.14&zoom=16&visible=52.3,0.15", "visible: only without center and zoom"),
        ("size=320x240&visible=Cambridge", "visible: 'Cambridge' is not a point"),
        ("size=99999x240&center=52.2,0.14&zoom=16", "size"),
    ])
    func whatCannotBeHonouredIs400NamingIt(query: String, mentions: String) async throws {
        try await TestServer.with(fixtures: true) { server in
            try expectJSONError(try await server.get("/staticmap?" + query), status: 400, mentions: mentions)
        }
    }
}
