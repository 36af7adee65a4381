import Foundation
import FrameRequest
import MapGeometry
import MapRender
@testable import Screens
import StrictJSON
import Testing
import TileStore

@Suite struct ScriptParserTests {
    static let styles = ["osm": ZoomRange(min: 0, max: 19), "opencyclemap": ZoomRange(min: 0, max: 18)]
    static let directory = URL(fileURLWithPath: "/scripts/demo")

    /// The example from the script format's documentation.
    static let example = """
        {"style": "osm", "camera": {"center": {"lat": 52.2041, "lon": 0.1378}, "zoom": 16},
         "steps": [{"tap": {"x": 100, "y": 200}}, {"wait": 1.0}, {"pan": {"dx": 10, "dy": 0}},
                   {"zoomIn": true}, {"zoomOut": true}, {"stepBack": true},
                   {"plan": {"journey": "route.xml"}}, {"newRoute": true},
                   {"geolocate": {"lat": 52.205, "lon": 0.141, "accuracy": 150}},
                   {"placefinder": {"file": "geocoder.xml", "result": 0}},
                   {"photos": {"file": "photos.xml"}}, {"stage": 3}]}
        """

    func parse(_ json: String) throws(ScriptError) -> Script {
        try ScriptParser.parse(Data(json.utf8), relativeTo: Self.directory, styles: Self.styles)
    }

    func error(_ json: String) -> ScriptError? {
        do {
            _ = try parse(json)
            return nil
        } catch {
            return error
        }
    }

    /// The step limit is checked on the count, before any step is read, and holds exactly.
    @Test func stepLimit() throws {
        func script(steps count: Int) -> String {
            #"{"style": "osm", "steps": ["# + Array(repeating: #"{"zoomIn": true}"#, count: count).joined(separator: ",") + "]}"
        }
        #expect(try parse(script(steps: ScriptParser.maxSteps)).steps.count == ScriptParser.maxSteps)
        let refused = error(script(steps: ScriptParser.maxSteps + 1))
        #expect(refused?.description == "steps: \(ScriptParser.maxSteps + 1) steps; at most \(ScriptParser.maxSteps) are allowed (\(ScriptParser.maxSteps + 1) frames)")
        // Counted before the steps are read: a bad step past the limit is not what is reported.
        let late = #"{"style": "osm", "steps": ["# + Array(repeating: #"{"tapp": 1}"#, count: ScriptParser.maxSteps + 1).joined(separator: ",") + "]}"
        #expect(error(late)?.description.contains("at most \(ScriptParser.maxSteps) are allowed") == true)
    }

    @Test func readsTheExample() throws {
        let script = try parse(Self.example)
        #expect(script.style == "osm")
        #expect(script.zoomRange == ZoomRange(min: 0, max: 19))
        #expect(script.camera == Camera(center: Coordinate(latitude: 52.2041, longitude: 0.1378), zoom: 16))
        #expect(script.layout == ScreenLayout(width: 320, height: 480, scale: 1, chrome: false))
        #expect(script.steps == [
            .tap(x: 100, y: 200), .wait(seconds: 1), .pan(dx: 10, dy: 0), .zoomIn, .zoomOut, .stepBack,
            .plan(.journey(URL(fileURLWithPath: "/scripts/demo/route.xml")), seconds: 0), .newRoute,
            .geolocate(LocationFix(coordinate: Coordinate(latitude: 52.205, longitude: 0.141), accuracyMetres: 150)),
            .placefinder(file: URL(fileURLWithPath: "/scripts/demo/geocoder.xml"), result: 0),
            .photos(file: URL(fileURLWithPath: "/scripts/demo/photos.xml"), seconds: 0), .stage(3),
        ])
        #expect(script.steps.map(\.duration) == [0.1, 1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])
    }

    @Test func readsChromeSizeAndScale() throws {
        let script = try parse(#"{"style": "opencyclemap", "chrome": true, "size": {"width": 320, "height": 480}, "scale": 2, "steps": []}"#)
        #expect(script.layout.mapPanelViewport == Viewport(width: 320, height: 367, scale: 2))
        #expect(script.layout.frameViewport == Viewport(width: 320, height: 480, scale: 2))
        #expect(script.layout.mapPanelTop == 64)
        #expect(script.camera == MapDefaults.fallbackCamera)
        #expect(script.zoomRange.max == 18)
    }

    @Test func tapsAreCheckedAgainstTheMapPanel() {
        let tapX = error(#"{"style": "osm", "steps": [{"wait": 1}, {"zoomIn": true}, {"wait": 1}, {"tap": {"x": -5, "y": 10}}]}"#)
        #expect(tapX == .invalid(JSONFieldError(path: "steps[3].tap.x", message: "-5 is outside the allowed range 0...320")))
        #expect(tapX?.description == "steps[3].tap.x: -5 is outside the allowed range 0...320")
        let belowPanel = error(#"{"style": "osm", "chrome": true, "steps": [{"tap": {"x": 5, "y": 400}}]}"#)
        #expect(belowPanel?.description == "steps[0].tap.y: 400 is outside the allowed range 0...367")
    }

    @Test func unknownFieldsAreNamed() {
        #expect(error(#"{"style": "osm", "steps": [], "colour": "red"}"#)
            == .invalid(JSONFieldError(path: "colour", message: "unknown field; allowed fields are style, theme, camera, chrome, size, scale, firstRun, steps")))
        #expect(error(#"{"style": "osm", "steps": [{"tapp": {"x": 1, "y": 1}}]}"#)?.field == "steps[0].tapp")
        #expect(error(#"{"style": "osm", "steps": [{"tap": {"x": 1, "y": 1, "force": 3}}]}"#)?.field == "steps[0].tap.force")
        #expect(error(#"{"style": "osm", "camera": {"center": {"lat": 52, "lng": 0}, "zoom": 3}, "steps": []}"#)?.field == "camera.center.lng")
        #expect(error(#"{"style": "osm", "steps": [{"geolocate": {"lat": 52, "lon": 0, "accuracy": 5, "speed": 3}}]}"#)?.field == "steps[0].geolocate.speed")
    }

    @Test func badValuesNameFieldValueAndWhatIsAllowed() {
        #expect(error(#"{"style": "mapnik", "steps": []}"#)?.description == #"style: "mapnik" is not allowed; expected one of opencyclemap, osm"#)
        #expect(error(#"{"style": "osm", "scale": 3, "steps": []}"#)?.description == "scale: 3 is outside the allowed range 1...2")
        #expect(error(#"{"style": "osm", "scale": 1.5, "steps": []}"#)?.description == "scale: 1.5 is not allowed; expected a whole number in 1...2")
        #expect(error(#"{"style": "osm", "chrome": "yes", "steps": []}"#)?.description == #"chrome: "yes" is not allowed; expected true or false"#)
        #expect(error(#"{"style": "osm", "theme": "dark", "steps": []}"#)?.description
            == #"theme: "dark" is not allowed; expected one of cyclestreets, high-contrast, categories"#)
        #expect(error(#"{"style": "osm", "camera": {"center": {"lat": 52, "lon": 0}, "zoom": 20}, "steps": []}"#)?.description
            == "camera.zoom: 20 is outside the osm style's zoom range 0...19")
        #expect(error(#"{"style": "osm", "steps": [{"zoomIn": false}]}"#)?.description == "steps[0].zoomIn: false is not allowed; expected true")
        #expect(error(#"{"style": "osm", "steps": [{"wait": "1s"}]}"#)?.description == #"steps[0].wait: "1s" is not allowed; expected a number in 0...3600"#)
        #expect(error(#"{"style": "osm", "steps": [{"stage": 0}]}"#)?.description == "steps[0].stage: 0 is outside the allowed range 1...10000")
        #expect(error(#"{"style": "osm", "steps": [{"geolocate": {"lat": 86, "lon": 0, "accuracy": 5}}]}"#)?.description
            == "steps[0].geolocate.lat: 86 is outside the allowed range -85.0511...85.0511")
        #expect(error(#"{"style": "osm", "steps": [{"plan": {"journey": ""}}]}"#)?.description == #"steps[0].plan.journey: "" is not allowed; expected a non-empty string"#)
        #expect(error(#"{"style": "osm", "size": {"width": 320, "height": 100}, "chrome": true, "steps": []}"#)?.description
            == #"size.height: 100 leaves no map panel under the chrome; allowed 114...4096 with "chrome": true"#)
    }

    @Test func stepsHaveExactlyOneField() {
        #expect(error(#"{"style": "osm", "steps": [{"zoomIn": true, "zoomOut": true}]}"#)?.description
            == "steps[0]: an object is not allowed; expected an object with exactly one step field")
        #expect(error(#"{"style": "osm", "steps": [{}]}"#)?.field == "steps[0]")
        #expect(error(#"{"style": "osm", "steps": ["tap"]}"#)?.description == #"steps[0]: "tap" is not allowed; expected an object"#)
    }

    @Test func requiredFieldsAndMalformedJSON() throws {
        #expect(error(#"{"style": "osm"}"#) == .invalid(JSONFieldError(path: "steps", value: nil, allowed: "an array of steps")))
        #expect(try parse(#"{"steps": []}"#).style == "osm", "style defaults to osm, as in scene files")
        #expect(error(#"{"style": "osm", "steps": [{"tap": {"x": 1}}]}"#)?.description == "steps[0].tap.y: missing; expected a number in 0...480")
        #expect(error(#"[1, 2]"#)?.description == "document: an array of 2 is not allowed; expected an object")
        let truncated = error(#"{"style": "osm", "#)
        #expect(truncated?.field == nil)
        #expect(truncated?.description.hasPrefix("script: malformed JSON: ") == true)
        #expect(truncated?.description.hasSuffix("at line 1, column 18") == true)
        #expect(error(#"{"style": "osm", "style": "osm", "steps": []}"#)?.description.contains(#"duplicate field "style""#) == true)
        #expect(error(#"{"style": "osm", "steps": [],}"#)?.description.contains("trailing comma") == true)
    }

    @Test func loadResolvesPathsAgainstTheScriptsDirectory() throws {
        let script = try ScriptParser.load(contentsOf: Fixture.url("script.json"), styles: Self.styles)
        #expect(script.steps.contains(.plan(.journey(Fixture.url("journey.xml").standardizedFileURL), seconds: 0)))
        let absolute = try parse(#"{"style": "osm", "steps": [{"photos": {"file": "/data/photos.xml"}}, {"photos": {"file": "../p.xml"}}]}"#)
        #expect(absolute.steps == [
            .photos(file: URL(fileURLWithPath: "/data/photos.xml"), seconds: 0), .photos(file: URL(fileURLWithPath: "/scripts/p.xml"), seconds: 0),
        ])
        #expect(throws: ScriptError.self) { try ScriptParser.load(contentsOf: Fixture.url("missing.json"), styles: Self.styles) }
    }

    /// Scene files and scripts read their shared header with one reader: the same defaults,
    /// the same ranges and the same messages.
    @Test func sharesTheHeaderReaderWithSceneFiles() throws {
        let header = #""style": "opencyclemap", "chrome": true, "size": {"width": 300, "height": 400}, "scale": 2, "theme": "categories""#
        let camera = #""camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 12}"#
        let script = try parse("{\(header), \(camera), \"steps\": []}")
        let scene = try SceneFile.parse(Data("{\(header), \(camera)}".utf8), name: "scene.json", catalog: .builtin)
        #expect(scene.viewport == script.layout.frameViewport && scene.mapPanelViewport == script.layout.mapPanelViewport)
        #expect(scene.style == script.style && scene.camera == .fixed(script.camera))
        #expect(scene.theme == .categories && script.theme == .categories)
        #expect(try parse(#"{"steps": []}"#).theme == .cycleStreets)

        for (bad, expected) in [
            (#""camera": {"center": {"lat": 86, "lon": 0}, "zoom": 3}"#, "camera.center.lat: 86 is outside the allowed range -85.0511...85.0511"),
            (#""camera": {"center": {"lat": 52, "lon": 0}, "zoom": 20}"#, "camera.zoom: 20 is outside the osm style's zoom range 0...19"),
            (#""scale": 3, \#(camera)"#, "scale: 3 is outside the allowed range 1...2"),
        ] {
            let scriptError = error("{\(bad), \"steps\": []}")?.description
            var sceneError: String?
            do { _ = try SceneFile.parse(Data("{\(bad)}".utf8), name: "scene.json", catalog: .builtin) } catch { sceneError = error.problem.description }
            #expect(scriptError == expected && sceneError == expected)
        }
    }
}
