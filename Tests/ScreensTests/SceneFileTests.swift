import Foundation
import FrameRequest
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Testing
import TileStore

@Suite("Scene files")
struct SceneFileTests {
    static func parse(_ json: String) throws -> Scene {
        try SceneFile.parse(Data(json.utf8), name: "scene.json", catalog: .builtin)
    }

    @Test("a full scene parses, with [lon, lat] route positions")
    func fullScene() throws {
        let scene = try Self.parse("""
            {
              "size": {"width": 320, "height": 480}, "scale": 2, "style": "opencyclemap",
              "camera": {"fit": "all", "padding": 24},
              "start": {"lat": 52.2055, "lon": 0.1414}, "finish": {"lat": 52.2092, "lon": 0.1428},
              "route": {"coordinates": [[0.1414, 52.2055], [0.1402, 52.2061], [0.1428, 52.2092]]},
              "photos": [{"lat": 52.207, "lon": 0.141, "id": 7, "caption": "Bridge"}, {"lat": 52.208, "lon": 0.142}],
              "location": {"lat": 52.206, "lon": 0.142, "accuracy": 65},
              "attribution": "legacy"
            }
            """)
        #expect(scene.viewport == Viewport(width: 320, height: 480, scale: 2))
        #expect(scene.style == "opencyclemap")
        #expect(scene.camera == .fitAll(padding: 24))
        #expect(scene.overlays.start == Coordinate(latitude: 52.2055, longitude: 0.1414))
        #expect(scene.overlays.finish == Coordinate(latitude: 52.2092, longitude: 0.1428))
        #expect(scene.overlays.route?.parts == [[
            Coordinate(latitude: 52.2055, longitude: 0.1414), Coordinate(latitude: 52.2061, longitude: 0.1402),
            Coordinate(latitude: 52.2092, longitude: 0.1428),
        ]])
        #expect(scene.overlays.photos == [
            Photo(id: 7, coordinate: Coordinate(latitude: 52.207, longitude: 0.141), caption: "Bridge"),
            Photo(id: 1, coordinate: Coordinate(latitude: 52.208, longitude: 0.142)),
        ])
        #expect(scene.overlays.location == LocationFix(coordinate: Coordinate(latitude: 52.206, longitude: 0.142), accuracyMetres: 65))
        #expect(scene.overlays.attribution == .legacy)
    }

    @Test("a fixed camera and the defaults")
    func fixedCameraAndDefaults() throws {
        let scene = try Self.parse(#"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 16.5}}"#)
        #expect(scene.camera == .fixed(Camera(center: Coordinate(latitude: 52.2, longitude: 0.14), zoom: 16.5)))
        #expect(scene.viewport == Viewport(width: 320, height: 480, scale: 1))
        #expect(scene.style == "osm" && scene.overlays.attribution == .current)
        #expect(scene.overlays.start == nil && scene.overlays.route == nil && scene.overlays.photos.isEmpty && scene.overlays.location == nil)
    }

    @Test("a camera fitted to a box, whatever the layers cover")
    func boundsCamera() throws {
        let scene = try Self.parse(#"{"camera": {"bounds": [0.11, 52.19, 0.13, 52.21], "padding": 10}}"#)
        #expect(scene.camera == .fitBounds(GeoBounds(south: 52.19, west: 0.11, north: 52.21, east: 0.13), padding: 10))
        let unpadded = try Self.parse(#"{"camera": {"bounds": [0.11, 52.19, 0.13, 52.21]}}"#)
        #expect(unpadded.camera == .fitBounds(GeoBounds(south: 52.19, west: 0.11, north: 52.21, east: 0.13), padding: MapDefaults.fitPadding))
    }

    @Test("a scene names its theme; the CycleStreets look by default", arguments: Theme.Name.allCases)
    func theme(name: Theme.Name) throws {
        let scene = try Self.parse(#"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 16}, "theme": "\#(name.rawValue)"}"#)
        #expect(scene.theme == name.theme)
        #expect(try Self.parse(#"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 16}}"#).theme == .cycleStreets)
    }

    @Test("a fitted camera leaves room for a theme's larger markers")
    func fittedInTheme() throws {
        // 280 px between the markers at zoom 16: 342 px with the app's markers, 373 with the theme's.
        let markers = #""size": {"width": 320, "height": 360}, "camera": {"fit": "all", "padding": 0}, "start": {"lat": 52.2055, "lon": 0.1414}, "finish": {"lat": 52.2092, "lon": 0.1428}"#
        let app = try Self.parse("{\(markers)}"), highContrast = try Self.parse(#"{\#(markers), "theme": "high-contrast"}"#)
        let source = try #require(StyleCatalog.builtin["osm"])
        #expect(FrameRenderer.geometry(for: highContrast, tileSet: source.tileSet).camera.zoom < FrameRenderer.geometry(for: app, tileSet: source.tileSet).camera.zoom)
        #expect(SceneFile.scene(app, inTheme: .highContrast, catalog: .builtin) == highContrast)
    }

    /// A bad scene and what its error must mention: the field, the value and what is allowed.
    struct BadScene: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let mustMention: [String]
        var testDescription: String { name }
    }

    static let camera = #""camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 16}"#

    static let badScenes: [BadScene] = [
        BadScene(name: "malformed JSON", json: #"{"camera": {"center": "#, mustMention: ["scene.json", "malformed JSON"]),
        BadScene(name: "not an object", json: "[1, 2]", mustMention: ["document", "an object"]),
        BadScene(name: "unknown top-level field", json: #"{\#(camera), "colour": "red"}"#, mustMention: ["colour", "unknown field", "attribution"]),
        BadScene(
            name: "unknown camera field", json: #"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 16, "bearing": 90}}"#,
            mustMention: ["camera.bearing", "unknown field", "zoom"]
        ),
        BadScene(name: "unknown start field", json: #"{\#(camera), "start": {"lat": 52.2, "lon": 0.14, "alt": 3}}"#, mustMention: ["start.alt", "unknown field", "lat, lon"]),
        BadScene(name: "latitude beyond 85.0511", json: #"{\#(camera), "start": {"lat": 86, "lon": 0.14}}"#, mustMention: ["start.lat", "86", "-85.0511...85.0511"]),
        BadScene(
            name: "camera latitude beyond 85.0511", json: #"{"camera": {"center": {"lat": -85.1, "lon": 0}, "zoom": 3}}"#,
            mustMention: ["camera.center.lat", "-85.1", "-85.0511...85.0511"]
        ),
        BadScene(name: "longitude beyond 180", json: #"{\#(camera), "finish": {"lat": 52.2, "lon": 181}}"#, mustMention: ["finish.lon", "181", "-180...180"]),
        BadScene(
            name: "route latitude out of range", json: #"{\#(camera), "route": {"coordinates": [[0.14, 52.2], [0.15, 91]]}}"#,
            mustMention: ["route.coordinates[1][1]", "91", "-85.0511...85.0511"]
        ),
        BadScene(name: "zoom beyond the style", json: #"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 20}}"#, mustMention: ["camera.zoom", "20", "0...19"]),
        BadScene(name: "negative zoom", json: #"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": -1}}"#, mustMention: ["camera.zoom", "-1", "0...19"]),
        BadScene(name: "wider than 4096 px", json: #"{\#(camera), "size": {"width": 5000, "height": 480}}"#, mustMention: ["size.width", "5000", "1...4096"]),
        BadScene(
            name: "2500 px wide at scale 2", json: #"{\#(camera), "scale": 2, "size": {"width": 2500, "height": 480}}"#,
            mustMention: ["size.width", "2500", "1...2048"]
        ),
        BadScene(name: "scale 3", json: #"{\#(camera), "scale": 3}"#, mustMention: ["scale", "3", "1...2"]),
        BadScene(name: "too many route points", json: #"{\#(camera), "route": {"coordinates": [\#(routePositions(100_001))]}}"#, mustMention: ["route.coordinates", "100001", "100000"]),
        BadScene(
            name: "too many route points over all lines",
            json: #"{\#(camera), "route": {"type": "MultiLineString", "coordinates": [[\#(routePositions(50_000))], [\#(routePositions(50_001))]]}}"#,
            mustMention: ["route.coordinates", "100001 points in all", "2...100000"]
        ),
        BadScene(
            name: "a route line of one point", json: #"{\#(camera), "route": {"type": "MultiLineString", "coordinates": [[[0.14, 52.2], [0.15, 52.2]], [[0.14, 52.2]]]}}"#,
            mustMention: ["route.coordinates[1]", "has 1 point", "2...100000"]
        ),
        BadScene(name: "a route of no lines", json: #"{\#(camera), "route": {"type": "MultiLineString", "coordinates": []}}"#, mustMention: ["route.coordinates", "no lines"]),
        BadScene(
            name: "a route of another type", json: #"{\#(camera), "route": {"type": "Point", "coordinates": [0.14, 52.2]}}"#,
            mustMention: ["route.type", "Point", "MultiLineString"]
        ),
        BadScene(name: "unknown style", json: #"{\#(camera), "style": "satellite"}"#, mustMention: ["style", "satellite", "opencyclemap, osm"]),
        BadScene(name: "unknown theme", json: #"{\#(camera), "theme": "dark"}"#, mustMention: ["theme", "dark", "cyclestreets, high-contrast, categories"]),
        BadScene(name: "theme not a name", json: #"{\#(camera), "theme": 2}"#, mustMention: ["theme", "2", "a string"]),
        BadScene(name: "fit with nothing to fit", json: #"{"camera": {"fit": "all"}}"#, mustMention: ["camera.fit", "all", "nothing to fit"]),
        BadScene(name: "missing camera", json: #"{"style": "osm"}"#, mustMention: ["camera", "missing"]),
        BadScene(
            name: "bounds the wrong way round", json: #"{"camera": {"bounds": [0.13, 52.19, 0.11, 52.21]}}"#,
            mustMention: ["camera.bounds", "[0.13, 52.19, 0.11, 52.21]", "west < east"]
        ),
        BadScene(name: "bounds of three numbers", json: #"{"camera": {"bounds": [0.13, 52.19, 0.11]}}"#, mustMention: ["camera.bounds", "[west, south, east, north]"]),
        BadScene(name: "bounds off the map", json: #"{"camera": {"bounds": [0.11, -89, 0.13, 52.21]}}"#, mustMention: ["camera.bounds[1] (south)", "-89"]),
        BadScene(name: "bounds and fit", json: #"{"camera": {"bounds": [0.11, 52.19, 0.13, 52.21], "fit": "all"}}"#, mustMention: ["camera.bounds", "not both"]),
        BadScene(
            name: "location without accuracy", json: #"{\#(camera), "location": {"lat": 52.2, "lon": 0.14}}"#,
            mustMention: ["location.accuracy", "missing", "0.1...100000"]
        ),
    ]

    /// `count` route positions as JSON array items.
    static func routePositions(_ count: Int) -> String {
        (0..<count).map { "[0.\(1000 + $0 % 500), 52.2]" }.joined(separator: ",")
    }

    @Test("a bad scene is refused, naming the field, the value and what is allowed", arguments: badScenes)
    func badScene(bad: BadScene) {
        do {
            let scene = try Self.parse(bad.json)
            Issue.record("\(bad.name) parsed as \(scene)")
        } catch {
            let message = String(describing: error)
            for word in bad.mustMention {
                #expect(message.contains(word), "\"\(message)\" does not mention \(word)")
            }
        }
    }

    @Test("a MultiLineString route has one part per line")
    func multiLineRoute() throws {
        let scene = try Self.parse(#"""
            {\#(Self.camera), "route": {"type": "MultiLineString", "coordinates": [[[0.14, 52.2], [0.15, 52.21]], [[0.16, 52.22], [0.17, 52.23, 12]]]}}
            """#)
        #expect(scene.overlays.route?.parts == [
            [Coordinate(latitude: 52.2, longitude: 0.14), Coordinate(latitude: 52.21, longitude: 0.15)],
            [Coordinate(latitude: 52.22, longitude: 0.16), Coordinate(latitude: 52.23, longitude: 0.17)],
        ])
        let typed = try Self.parse(#"{\#(Self.camera), "route": {"type": "LineString", "coordinates": [[0.14, 52.2], [0.15, 52.21]]}}"#)
        #expect(typed.overlays.route?.parts.count == 1)
    }

    @Test("exactly 100,000 route points are allowed")
    func routePointLimit() throws {
        let scene = try Self.parse(#"{\#(Self.camera), "route": {"coordinates": [\#(Self.routePositions(100_000))]}}"#)
        #expect(scene.overlays.route?.pointCount == 100_000)
    }

    @Test("rescaling checks the 4096 px limit", arguments: [(2048, true), (2049, false)])
    func rescaling(width: Int, allowed: Bool) throws {
        let scene = try Self.parse(#"{\#(Self.camera), "size": {"width": \#(width), "height": 100}}"#)
        do {
            let scaled = try SceneFile.scene(scene, name: "scene.json", atScale: 2)
            #expect(allowed && scaled.viewport.pixelWidth == 2 * width)
        } catch {
            #expect(!allowed, "\(error)")
            let message = String(describing: error)
            for word in ["size", "\(width)x100", "\(2 * width)", "4096"] {
                #expect(message.contains(word), "\"\(message)\" does not mention \(word)")
            }
        }
    }
}
