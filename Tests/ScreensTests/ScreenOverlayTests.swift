import Foundation
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Testing
@testable import Screens

/// The loading indicator and the geolocation button's spinning arrow, as scripts play them.
@Suite struct ScreenOverlayTests {
    func play(_ steps: String) throws(ScriptError) -> ScriptRun {
        let json = #"{"style": "osm", "camera": {"center": {"lat": 52.2070, "lon": 0.1410}, "zoom": 16}, "chrome": true, "steps": [\#(steps)]}"#
        return try ScriptPlayer.run(ScriptParser.parse(Data(json.utf8), relativeTo: Fixture.directory, styles: ScriptParserTests.styles))
    }

    @Test func theSpinnerHasEightStates45DegreesApart() {
        #expect(GeolocationSpinner.stateCount == 8)
        let states = (0..<9).map { GeolocationSpinner(secondsRunning: Double($0) * GeolocationSpinner.secondsPerState) }
        #expect(states.map(\.state) == [0, 1, 2, 3, 4, 5, 6, 7, 0])
        #expect(states.map(\.degrees) == [0, 45, 90, 135, 180, 225, 270, 315, 0])
        #expect(GeolocationSpinner(secondsRunning: GeolocationSpinner.secondsPerState * 0.99).state == 0)
    }

    @Test func theButtonSpinsByTheScriptClockUntilAFixSucceeds() throws {
        // A poor fix keeps the geolocation looking; a good one ends the spinning.
        let run = try play(#"""
            {"geolocate": {"lat": 52.2070, "lon": 0.1410, "accuracy": 400}}, {"wait": 0.125}, {"wait": 0.25},
            {"geolocate": {"lat": 52.2070, "lon": 0.1410, "accuracy": 15}}
            """#)
        let spinners = run.frames.map(\.state.geolocationSpinner)
        // Pressed at 0; the waits end at 0.225 s and 0.475 s.
        #expect(spinners[0] == nil && spinners[1] == GeolocationSpinner(state: 0))
        #expect(spinners[2] == GeolocationSpinner(state: 1) && spinners[3] == GeolocationSpinner(state: 3))
        #expect(spinners[4] == nil, "a fix within 20 m succeeds and the button is itself again")
        #expect(run.frames[2].state.chrome.geolocationSpinner == GeolocationSpinner(state: 1))
    }

    @Test func thePhotomapShowsLoadingUntilItsPhotosArrive() throws {
        let run = try play(#"{"photos": {"file": "photos.xml", "seconds": 1}}, {"pan": {"dx": 10, "dy": 0}}, {"wait": 0.7}, {"wait": 0.1}"#)
        let states = run.frames.map(\.state)
        #expect(states[1].loading == "Loading photos" && states[1].photos.isEmpty && states[1].screen == .photomap)
        #expect(states[2].loading != nil && states[3].loading != nil, "0.9 s after the request")
        #expect(states[4].loading == nil && states[4].photos.map(\.id) == [41523, 41877])
        #expect(run.log[1].previousScreen == .planner && run.log[2].previousScreen == nil, "the log says when the screen changes")
        let scene = states[1].scene(layout: run.layout, style: "osm", theme: .cycleStreets)
        #expect(scene.overlays.loading == "Loading photos")
        let instant = try play(#"{"photos": {"file": "photos.xml"}}"#)
        #expect(instant.frames[1].state.loading == nil)
    }
}
