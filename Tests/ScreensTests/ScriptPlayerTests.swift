import Foundation
import FrameRequest
import MapGeometry
import MapRender
@testable import Payloads
import PhoneScreen
@testable import Screens
import StrictJSON
import Testing
import Wording

@Suite struct ScriptPlayerTests {
    func play(_ json: String) throws(ScriptError) -> ScriptRun {
        try ScriptPlayer.run(ScriptParser.parse(Data(json.utf8), relativeTo: Fixture.directory, styles: ScriptParserTests.styles))
    }

    @Test func playsTheFixtureScriptStepByStep() throws {
        let script = try ScriptParser.load(contentsOf: Fixture.url("script.json"), styles: ScriptParserTests.styles)
        let run = try ScriptPlayer.run(script)
        let log = run.log
        #expect(run.layout.mapPanelViewport == Viewport(width: 320, height: 367))
        #expect(run.frames.count == script.steps.count + 1)
        #expect(log.map(\.step) == Array(0...18))
        #expect(log.map(\.event) == ["start"] + script.steps.map(\.name))
        #expect(log[0].commentary == "Set start" && log[0].accepted)
        #expect(log[1].commentary == "Set finish")

        #expect(log[4].time == 1.2, "1 s wait after the first tap, then the pan")
        #expect(log[4].accepted == false)
        #expect(log[4].message == "Tap ignored: less than 0.2 s after the map moved")
        #expect(log[5].camera.zoom == 17 && log[6].camera.zoom == 16)

        #expect(log[8].accepted == false)
        #expect(log[8].message == "Move the map to set a finish point further away.")
        #expect(log[8].finish == nil)
        #expect(log[9].finish != nil && log[9].commentary == "Plan route")
        #expect(log[10].finish == nil && log[10].commentary == "Set finish")
        #expect(log[11].commentary == "Plan route")

        let journey = try Fixture.journey()
        let planned = run.frames[12].state
        #expect(planned.commentary?.britishEnglish == "New route")
        #expect(planned.routeLine == journey.routeLine)
        #expect(planned.start == journey.startCoordinate && planned.finish == journey.finishCoordinate)

        let stage = run.frames[13].state
        #expect(stage.screen == .itinerary)
        #expect(stage.emphasisedStage?.counter == "3/4")
        #expect(stage.enabledButtons.contains(.previousStage) && stage.enabledButtons.contains(.nextStage))

        let photos = run.frames[14].state
        #expect(photos.screen == .photomap)
        #expect(photos.camera == planned.camera, "the Photomap opens where the planner looks")
        #expect(photos.photos.map(\.id) == [41523, 41877])

        let asked = run.frames[15]
        #expect(asked.state.dialog?.title == "New route" && asked.state.routeLine != nil, "New route asks before clearing")
        let cleared = run.frames[16].state
        #expect(cleared.screen == .planner && cleared.commentary?.britishEnglish == "Set start")
        #expect(cleared.camera == planned.camera && cleared.routeLine == nil)

        let located = run.frames[17].state
        #expect(located.start == Coordinate(latitude: 52.205, longitude: 0.141))
        #expect(located.locationRing?.accuracyMetres == 150)
        #expect(located.camera == planned.camera, "the fix is on screen, so the map stays")

        let placed = run.frames[18].state
        let millRoad = Coordinate(latitude: 52.20005, longitude: 0.13952)
        #expect(placed.finish == millRoad && placed.camera.center == millRoad)
        #expect(placed.locationRing == nil, "choosing a place ends geolocation")
        #expect(placed.commentary?.britishEnglish == "Plan route")
    }

    /// CycleStreets' JSON answers play exactly as their XML does: the files are told apart by
    /// their content, so a script names either.
    @Test func jsonAnswersPlayAsTheirXMLDoes() throws {
        func steps(journey: String, geocoder: String, photos: String) -> String {
            #"""
            {"style": "osm", "steps": [{"tap": {"x": 160, "y": 300}}, {"tap": {"x": 160, "y": 40}}, {"plan": {"journey": "\#(journey)"}},
              {"stage": 2}, {"photos": {"file": "\#(photos)"}}, {"newRoute": true}, {"confirm": true},
              {"placefinder": {"file": "\#(geocoder)", "result": 1}}]}
            """#
        }
        let xml = try play(steps(journey: "journey.xml", geocoder: "geocoder.xml", photos: "photos.xml"))
        let json = try play(steps(journey: "journey.json", geocoder: "geocoder.geojson", photos: "photos.geojson"))
        #expect(json == xml)
        #expect(json.frames[3].state.routeLine == (try Fixture.journey().routeLine))
        #expect(json.frames[5].state.photos.map(\.id) == [41523, 41877])
        #expect(json.frames[8].state.start == Coordinate(latitude: 52.20188, longitude: 0.13672))
    }

    @Test func playingIsDeterministicAndTheLogEncodes() throws {
        let script = try ScriptParser.load(contentsOf: Fixture.url("script.json"), styles: ScriptParserTests.styles)
        let first = try ScriptPlayer.run(script), second = try ScriptPlayer.run(script)
        #expect(first == second)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let json = try encoder.encode(first.log)
        #expect(try JSONDecoder().decode([ScriptLogEntry].self, from: json) == first.log)
        #expect(try encoder.encode(second.log) == json)
    }

    @Test func logTimesReadAsTheScriptWroteThem() throws {
        let run = try play(#"{"style": "osm", "steps": [{"wait": 0.1}, {"wait": 0.1}, {"wait": 0.1}, {"wait": 0.1}]}"#)
        #expect(run.log.map(\.time) == [0, 0, 0.1, 0.2, 0.3])
        let json = String(decoding: try JSONEncoder().encode(run.log.map(\.time)), as: UTF8.self)
        #expect(json == "[0,0,0.1,0.2,0.3]")
    }

    @Test func waitingLongEnoughLetsTheTapThrough() throws {
        let run = try play(#"{"style": "osm", "steps": [{"pan": {"dx": 5, "dy": 0}}, {"wait": 0.1}, {"tap": {"x": 10, "y": 10}}]}"#)
        #expect(run.log.map(\.time) == [0, 0, 0.1, 0.2])
        #expect(run.log[3].accepted)
        #expect(run.frames[3].state.start != nil)
    }

    @Test func geolocationSwitchesOffAsTheScriptClockRuns() throws {
        let run = try play("""
            {"style": "osm", "camera": {"center": {"lat": 52.2070, "lon": 0.1410}, "zoom": 16}, "steps": [
              {"geolocate": {"lat": 52.2050, "lon": 0.1410, "accuracy": 15}}, {"wait": 0.8}, {"wait": 0.2}]}
            """)
        #expect(run.frames[1].state.locationRing != nil)
        #expect(run.frames[2].state.locationRing != nil)
        #expect(run.frames[3].state.locationRing == nil, "1 s after the best fix")
        #expect(run.frames[3].state.start == Coordinate(latitude: 52.2050, longitude: 0.1410))
    }

    @Test func stageNeedsAPlannedRouteAndAStageThatExists() throws {
        let early = try play(#"{"style": "osm", "steps": [{"stage": 1}]}"#)
        #expect(early.log[1].accepted == false && early.log[1].message == "Plan a route before showing a stage")
        #expect(early.frames[1].state.screen == .planner)
        let route = #"{"tap": {"x": 160, "y": 300}}, {"tap": {"x": 160, "y": 40}}, {"plan": {"journey": "journey.xml"}}"#
        #expect(throws: ScriptError.invalid(JSONFieldError(path: "steps[3].stage", message: "5 is outside the allowed range 1...4 (the route's stages)"))) {
            try play(#"{"style": "osm", "steps": [\#(route), {"stage": 5}]}"#)
        }
    }

    @Test func panAndZoomActOnTheScreenShown() throws {
        let run = try play(#"{"style": "osm", "steps": [{"photos": {"file": "photos.xml"}}, {"zoomOut": true}, {"pan": {"dx": 50, "dy": 0}}]}"#)
        #expect(run.frames[2].state.screen == .photomap && run.frames[2].state.camera.zoom == 5)
        #expect(run.frames[3].state.camera.center.longitude < run.frames[2].state.camera.center.longitude)
        #expect(run.log[3].commentary == nil)
    }

    @Test func badFilesAreErrorsNamingTheStep() {
        #expect(throws: ScriptError.invalid(JSONFieldError(path: "steps[0].placefinder.result", message: "2 is outside the allowed range 0...1 (the file's results)"))) {
            try play(#"{"style": "osm", "steps": [{"placefinder": {"file": "geocoder.xml", "result": 2}}]}"#)
        }
        #expect(throws: ScriptError.invalid(JSONFieldError(
            path: "steps[0].placefinder.result", message: "0 is not allowed: the file has no results to choose from"
        ))) {
            try play(#"{"style": "osm", "steps": [{"placefinder": {"file": "geocoder-empty.xml", "result": 0}}]}"#)
        }
        do {
            _ = try play(#"{"style": "osm", "steps": [{"plan": {"journey": "geocoder.xml"}}]}"#)
            Issue.record("planned with a geocoder file")
        } catch {
            #expect(error == .payload(
                field: "steps[0].plan.journey", path: Fixture.url("geocoder.xml").path,
                error: .unexpectedRoot(found: "sayt", expected: ["markers"])
            ))
        }
        do {
            _ = try play(#"{"style": "osm", "steps": [{"photos": {"file": "nowhere.xml"}}]}"#)
            Issue.record("read a missing file")
        } catch {
            guard case .unreadable(let path, _) = error else {
                Issue.record("expected unreadable, got \(error)")
                return
            }
            #expect(path.hasSuffix("Fixtures/nowhere.xml"))
        }
    }
}
