import Foundation
import MapGeometry
import MapRender
import StrictJSON
import Testing
@testable import Payloads
import PhoneScreen
@testable import Screens

/// The itinerary's list of stages (app spec 6.6), as scripts show it.
@Suite struct ItineraryListTests {
    func play(_ steps: String) throws(ScriptError) -> ScriptRun {
        let json = #"{"style": "osm", "camera": {"center": {"lat": 52.2070, "lon": 0.1410}, "zoom": 16}, "chrome": true, "steps": [\#(steps)]}"#
        return try ScriptPlayer.run(ScriptParser.parse(Data(json.utf8), relativeTo: Fixture.directory, styles: ScriptParserTests.styles))
    }

    static let planned = #"{"tap": {"x": 160, "y": 300}}, {"tap": {"x": 160, "y": 40}}, {"plan": {"journey": "journey.xml"}}"#

    @Test func listsEveryStageUnderTheRoutesNameAndNumber() throws {
        let journey = try Fixture.journey()
        let run = try play(#"\#(Self.planned), {"itinerary": {}}, {"stage": 3}, {"itinerary": {}}, {"itinerary": {"selected": 2}}"#)
        let list = try #require(run.frames[4].state.itineraryList)
        #expect(run.frames[4].state.screen == .itineraryList && run.log[4].previousScreen == .planner)
        #expect(list.title == "\(journey.startName) to \(journey.finishName)")
        #expect(list.subtitle.hasPrefix("Route 3287451: "))
        #expect(list.rows.map(\.street) == journey.segments.map(\.name))
        #expect(list.rows[0].turn == "Set off" && list.selected == nil)
        #expect(run.frames[6].state.itineraryList?.selected == 3, "the stage last shown on the map")
        #expect(run.frames[7].state.itineraryList?.selected == 2)
        #expect(run.frames[6].state.chrome == .itineraryList)
        let scene = run.frames[6].state.scene(layout: run.layout, style: "osm", theme: .cycleStreets)
        #expect(scene.overlays.itineraryList == list.selecting(3) && scene.overlays.attribution == .hidden)
    }

    @Test func wordsDistancesTimesAndTurns() {
        #expect(ItineraryWords.distance(metres: 330) == "330 m" && ItineraryWords.distance(metres: 1260) == "1.3 km")
        #expect(ItineraryWords.time(seconds: 41) == "41 s" && ItineraryWords.time(seconds: 214) == "3 min 34 s")
        #expect(ItineraryWords.time(seconds: 120) == "2 min" && ItineraryWords.time(seconds: 3900) == "1 h 5 min")
        #expect(ItineraryWords.turn("bear right", isFirst: false) == "Bear right" && ItineraryWords.turn("", isFirst: false) == "Carry on")
    }

    @Test func refusalsAndBadStages() throws {
        let run = try play(#"{"itinerary": {}}, \#(Self.planned), {"itinerary": {}}, {"pan": {"dx": 5, "dy": 0}}, {"zoomIn": true}"#)
        #expect(run.log[1].accepted == false && run.log[1].message == "Plan a route before showing the itinerary")
        #expect(run.log[6].message == ScriptPlayer.listHasNoMap && run.log[7].message == ScriptPlayer.listHasNoMap)
        #expect(throws: ScriptError.invalid(JSONFieldError(path: "steps[3].itinerary.selected", message: "9 is outside the allowed range 1...4 (the route's stages)"))) {
            try play(#"\#(Self.planned), {"itinerary": {"selected": 9}}"#)
        }
    }
}

extension ItineraryList {
    func selecting(_ stage: Int?) -> ItineraryList {
        var list = self
        list.selected = stage
        return list
    }
}
