import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// `GET /styles/v1/{user}/{style}/static/...`, the Mapbox Static Images API's grammar, called
/// by PyPI's Mapbox SDK (`StaticStyle.image`, scripts/test-clients.sh installs it) with only
/// its host changed, and by hand for the overlays the SDK does not write.
@Suite(.enabled(if: TestClients.unavailability == nil, "\(TestClients.unavailability ?? "")"))
struct MapboxStaticMapTests {
    /// A line due east through (52.2072, 0.1420), 6 px of 0072B2; a polygon south-west of it
    /// filled opaque E69F00 with no outline; a large green marker south-east of it.
    static let features = """
        [{"type": "Feature", "properties": {"stroke": "#0072B2", "stroke-width": 6, "title": "Ride"},
          "geometry": {"type": "LineString", "coordinates": [[0.1400, 52.2072], [0.1440, 52.2072]]}},
         {"type": "Feature", "properties": {"fill": "#E69F00", "fill-opacity": 1, "stroke-width": 0},
          "geometry": {"type": "Polygon", "coordinates": [[[0.1395, 52.2060], [0.1410, 52.2060], [0.1410, 52.2066], [0.1395, 52.2066], [0.1395, 52.2060]]]}},
         {"type": "Feature", "properties": {"marker-color": "#1A9641", "marker-size": "large", "marker-symbol": "7"},
          "geometry": {"type": "Point", "coordinates": [0.1440, 52.2064]}}]
        """

    /// Has the SDK draw `features` at a fixed camera, then fitted (`auto`), then at @2x, each
    /// saved under `directory`, and prints each answer's status and URL.
    static func script(server: TestServer, directory: URL) -> String {
        TestClients.mapboxService(at: server) + """
            import json
            features = json.loads('''\(features)''')
            answers = [
                service.image("mapbox", "streets-v11", lon=0.1420, lat=52.2072, zoom=16, features=features, width=320, height=240),
                service.image("mapbox", "streets-v11", features=features, width=320, height=240),
                service.image("mapbox", "streets-v12", lon=0.1420, lat=52.2072, zoom=16, width=160, height=120, retina=True),
            ]
            for index, answer in enumerate(answers):
                open("\(directory.path)/%d.png" % index, "wb").write(answer.content)
                print(answer.status_code, answer.url)
            """
    }

    @Test func sdkFramesDrawTheirGeoJSONAsTheFrameEndpointDoes() async throws {
        try await withTemporaryDirectory { directory in
            try await TestServer.with(fixtures: true) { server in
                let printed = try await TestClients.python(Self.script(server: server, directory: directory)).split(separator: "\n")
                try #require(printed.count == 3 && printed.allSatisfy { $0.hasPrefix("200 ") }, "\(printed)")
                #expect(printed[0].contains("/static/geojson(") && printed[0].contains("/0.142,52.2072,16,0,0/320x240"))
                let images = try (0..<3).map { try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("\($0).png"))) }

                let fixed = images[0]
                #expect(fixed.width == 320 && fixed.height == 240)
                // The line along its points, the polygon inside, the marker somewhere.
                #expect(fixed.pixel(x: 110, y: 121) == Colour(hex: 0x0072B2) && fixed.pixel(x: 250, y: 121) == Colour(hex: 0x0072B2))
                #expect(fixed.pixel(x: 78, y: 190) == Colour(hex: 0xE69F00))
                // The large marker's tip on (52.2064, 0.1440), 93 px east and 61 px south of the
                // centre; its head 2.4 radii (29 px) above, green beside the label, and the label
                // "7" inked in black, which stands out more on that green than white does.
                let head = (x: 160 + 93, y: 120 + 61 - 29)
                #expect(fixed.pixel(x: head.x - 8, y: head.y) == Colour(hex: 0x1A9641))
                let ink = (head.y - 6...head.y + 6).flatMap { y in (head.x - 5...head.x + 5).map { fixed.pixel(x: $0, y: y) } }.filter { $0 == .black }
                #expect(ink.count >= 12, "the label is not inked: \(ink.count) black pixels in the head")
                #expect(ContrastRatio(.black, Colour(hex: 0x1A9641)).value >= 4.5)
                // Pixel for pixel what /frame.png draws of the same document as a geojson parameter.
                let document = #"{"type": "FeatureCollection", "features": \#(Self.features)}"#
                let native = try await server.get(
                    "/frame.png?style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240&geojson="
                        + document.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                ).image()
                let differing = zip(fixed.allPixels, native.allPixels).filter { $0 != $1 }.count
                #expect(differing == 0, "\(differing) pixels differ from what /frame.png draws of the same document")

                // auto fits every feature: all three colours are in the frame.
                let fitted = Set(images[1].allPixels)
                #expect([0x0072B2, 0xE69F00, 0x1A9641].allSatisfy { fitted.contains(Colour(hex: $0)) })
                // @2x: twice the pixels.
                #expect(images[2].width == 320 && images[2].height == 240)
            }
        }
    }

    /// Mapbox's own path and pin overlays, and a box for the camera, as /frame.png's grammar.
    @Test func pathsPinsAndBoxesDrawAsTheFrameEndpointDoes() async throws {
        // 52.2022,0.1195 -> 52.2035,0.1230 -> 52.2028,0.1280, at precision 5.
        let polyline = "wvr}H{iVcG{TjCg^".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let box = "[0.1150,52.2000,0.1320,52.2060]"
        try await TestServer.with(fixtures: true) { server in
            let mapbox = try await server.get(
                "/styles/v1/anyone/streets-v11/static/path-5+f44-1+f44-0.2(\(polyline)),pin-l-a+285A98(0.1195,52.2022),pin-s-star(0.128,52.2028)/\(box)/320x240"
            )
            try #require(mapbox.status == 200, "\(mapbox)")
            let native = try await server.get(
                "/frame.png?style=osm&width=320&height=240&bbox=0.1150,52.2000,0.1320,52.2060"
                    + "&path=colour:FF4444%7Cwidth:5%7Cfill:FF444433%7Cenc:\(polyline)"
                    + "&marker=colour:285A98%7Csize:large%7Clabel:a%7C52.2022,0.1195&marker=colour:7E7E7E%7Csize:medium%7Cicon:star%7C52.2028,0.128"
            )
            try #require(native.status == 200, "\(native)")
            let differing = zip(try mapbox.image().allPixels, try native.image().allPixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) pixels differ from what /frame.png draws of the same objects")
            let pixels = Set(try mapbox.image().allPixels)
            #expect(pixels.contains(Colour(hex: 0xFF4444)) && pixels.contains(Colour(hex: 0x285A98)))
        }
    }

    @Test(arguments: [
        ("0.12,52.2,15,30/300x300", "bearing: '30' is not offered"),
        ("0.12,52.2,15,0,45/300x300", "pitch: '45' is not offered"),
        ("url-https%3A%2F%2Fexample.com%2Fpin.png(0.12,52.2)/auto/300x300", "overlay 1: url- markers are not offered"),
        ("pin-s-bicycle(0.12,52.2)/auto/300x300", "overlay 1 (pin label): \"bicycle\" is not allowed"),
        ("pin-m(0.12,52.2)/auto/300x300", "overlay 1: 'pin-m' is not offered; allowed: geojson, path, pin-s, pin-l"),
        ("pin-s-a-b(0.12,52.2)/auto/300x300", "overlay 1 (pin label): \"a-b\" is not allowed"),
        ("pin-s+red(0.12,52.2)/auto/300x300", "overlay 1 (pin colour): 'red' is not a colour"),
        ("pin-s(52.2)/auto/300x300", "overlay 1 (pin position): '52.2' is not lon,lat"),
        ("pin-s(0.12,52.2),circle(0.1,52.2)/auto/300x300", "overlay 2: 'circle' is not offered"),
        ("path-99(_p~iF~ps%7CU_ulLnnqC)/auto/300x300", "overlay 1 (path width): '99' is not a number in 0...50"),
        ("path-5+f44(_p~iF)/auto/300x300", "overlay 1 (path): the polyline"),
        ("geojson(%7B%22type%22:%22Point%22%7D)/auto/300x300", "overlay 1 (geojson).coordinates: missing"),
        ("geojson(%7Bnot%20json)/auto/300x300", "overlay 1 (geojson): malformed JSON"),
        ("auto/300x300", "position: auto fits the overlays, and there are none"),
        ("pin-s(0.12,52.2)/[0.13,52.19,0.11,52.21]/300x300", "position (box): [0.13, 52.19, 0.11, 52.21] is not [west, south, east, north]"),
        ("0.12,52.2,25/300x300", "position (zoom): 25 is outside the osm style's zoom range 0...19"),
        ("0.12,52.2,15/300x300@3x", "size: '300x300@3x' is not {width}x{height}"),
        ("0.12,52.2,15/99999x300", "size: 99999 is outside the allowed range"),
        ("0.12,52.2,15/300x300?attribution=false", "attribution: 'false' is not offered"),
        ("0.12,52.2,15/300x300?before_layer=road", "before_layer: not offered; vector style layers are not offered"),
        ("0.12,52.2,15/300x300?padding=10", "padding: only with auto or a [west,south,east,north] box"),
        ("pin-s(0.12,52.2)/auto/300x300?padding=10,20", "padding: '10,20' differs from side to side"),
        ("0.12,52.2,15/300x300?zoom=3", "zoom: not offered; allowed: access_token, attribution, logo, padding"),
        ("pin-s(0.12,52.2)/auto/300x300/more", "path: expected static/{overlays}/{position}/{width}x{height}"),
        ("0.12,52.2/300x300", "position: '0.12,52.2' is not lon,lat,zoom[,bearing[,pitch]]"),
    ])
    func whatCannotBeHonouredIs400NamingIt(rest: String, mentions: String) async throws {
        try await TestServer.with(fixtures: true) { server in
            try expectJSONError(try await server.get("/styles/v1/mapbox/streets-v11/static/" + rest), status: 400, mentions: mentions)
        }
    }

    @Test func otherMapboxStylesAreRefusedAndMapFrameStylesTaken() async throws {
        try await TestServer.with(fixtures: true) { server in
            try expectJSONError(
                try await server.get("/styles/v1/mapbox/satellite-v9/static/0.12,52.2,15/300x300"), status: 400,
                mentions: "style: 'satellite-v9' is not offered; allowed: "
            )
            let own = try await server.get("/styles/v1/anyone/osm/static/0.1420,52.2072,16/300x200?access_token=pk.SECRET&logo=false&attribution=true")
            #expect(own.status == 200 && own.header("Content-Type") == "image/png", "\(own)")
        }
    }
}
