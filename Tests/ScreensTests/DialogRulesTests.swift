import Foundation
import MapGeometry
import MapRender
import PhoneScreen
import StrictJSON
import Testing
@testable import Screens

/// The rules of the app's modal dialogs as scripts play them.
@Suite struct DialogRulesTests {
    func play(_ steps: String, firstRun: Bool = false) throws(ScriptError) -> ScriptRun {
        let json = #"{"style": "osm", "camera": {"center": {"lat": 52.2070, "lon": 0.1410}, "zoom": 16}, "chrome": true, "firstRun": \#(firstRun), "steps": [\#(steps)]}"#
        return try ScriptPlayer.run(ScriptParser.parse(Data(json.utf8), relativeTo: Fixture.directory, styles: ScriptParserTests.styles))
    }

    /// Two taps far enough apart to make a start and a finish.
    static let twoTaps = #"{"tap": {"x": 160, "y": 300}}, {"tap": {"x": 160, "y": 40}}"#

    @Test func aRouteRequestBlocksTapsUntilItsAnswerArrives() throws {
        let run = try play(#"\#(Self.twoTaps), {"plan": {"journey": "journey.xml", "seconds": 2}}, {"tap": {"x": 20, "y": 20}}, {"pan": {"dx": 5, "dy": 0}}, {"wait": 1.6}, {"wait": 0.1}"#)
        let log = run.log
        #expect(log[3].dialog?.kind == .routeRequested && run.frames[3].state.dialog?.showsSpinner == true)
        #expect(run.frames[3].state.routeLine == nil, "no route before the answer")
        #expect(log[4].accepted == false && log[4].message == "Blocked by the Planning route dialog")
        #expect(log[5].accepted == false && log[5].camera == log[3].camera, "a pan is blocked too")
        #expect(log[6].dialog?.kind == .routeRequested, "1.9 s after the request, 0.1 s short of its answer")
        #expect(log[7].dialog == nil && log[7].dialogsClosed?.map(\.endedBy) == ["answer received"])
        #expect(run.frames[7].state.routeLine != nil && log[7].commentary == "New route")
    }

    @Test func newRouteAsksAndCancelKeepsTheRoute() throws {
        let run = try play(#"\#(Self.twoTaps), {"plan": {"journey": "journey.xml"}}, {"newRoute": true}, {"tap": {"x": 20, "y": 20}}, {"confirm": false}, {"newRoute": true}, {"confirm": true}"#)
        let log = run.log
        #expect(log[4].dialog?.title == "New route" && log[4].dialog?.buttons == ["Cancel", "OK"])
        #expect(log[5].accepted == false && log[5].message == "Blocked by the New route dialog")
        #expect(log[6].dialogsClosed?.map(\.endedBy) == ["Cancel"] && run.frames[6].state.routeLine == run.frames[3].state.routeLine)
        #expect(log[6].start != nil && log[6].commentary == "New route")
        #expect(log[8].dialogsClosed?.map(\.endedBy) == ["OK"] && run.frames[8].state.routeLine == nil && log[8].start == nil)
        #expect(log[8].camera == log[7].camera, "the map stays where it is")
    }

    @Test func answeringWithNoDialogOpenIsARefusal() throws {
        let run = try play(#"{"confirm": true}, \#(Self.twoTaps), {"plan": {"journey": "journey.xml", "seconds": 1}}, {"confirm": true}, {"confirm": false}"#)
        #expect(run.log[1].accepted == false && run.log[1].message == "There is no dialog to answer")
        #expect(run.log[5].message == "The Planning route dialog has no OK button")
        #expect(run.log[6].message == "The Planning route dialog has no Cancel button")
        #expect(run.log[6].dialog?.kind == .routeRequested, "a refused answer leaves the dialog open")
    }

    @Test func anAPIErrorShowsItsMessageWithOK() throws {
        let run = try play(#"\#(Self.twoTaps), {"plan": {"journey": "journey-error.xml"}}, {"confirm": false}, {"confirm": true}, {"plan": {"unreachable": true}}"#)
        let error = try #require(run.log[3].dialog)
        #expect(error.kind == .routeError && error.title == "Route not planned" && error.buttons == ["OK"])
        #expect(error.message == "No route could be found between the start and the finish.")
        #expect(run.log[4].message == "The Route not planned dialog has no Cancel button")
        #expect(run.log[5].dialog == nil && run.log[5].commentary == "Plan route", "the markers stay for another try")
        #expect(run.log[6].dialog?.message == DialogKind.unreachableMessage)
    }

    @Test func aFinishPlacedTooNearGoesAwayByItself() throws {
        // The start by geolocation a few metres from the placefinder's first result.
        let run = try play(#"{"geolocate": {"lat": 52.20010, "lon": 0.13955, "accuracy": 15}}, {"wait": 2}, {"placefinder": {"file": "geocoder.xml", "result": 0}}, {"tap": {"x": 160, "y": 40}}, {"wait": 2.7}, {"wait": 0.1}, {"tap": {"x": 160, "y": 40}}"#)
        let log = run.log
        #expect(log[1].start != nil && log[3].accepted == false && log[3].message == JourneyPlanner.finishTooCloseMessage)
        #expect(log[3].dialog?.kind == .finishTooNear && log[3].dialog?.buttons == [] && log[3].finish == nil)
        #expect(log[4].message == "Blocked by the Finish too near dialog")
        #expect(log[5].dialog?.kind == .finishTooNear, "2.9 s after it opened")
        #expect(log[6].dialog == nil && log[6].dialogsClosed?.map(\.endedBy) == ["closed by itself"])
        #expect(log[7].accepted && log[7].finish != nil)
    }

    @Test func aTapTooNearIsRefusedWithoutADialog() throws {
        let run = try play(#"{"tap": {"x": 160, "y": 200}}, {"tap": {"x": 162, "y": 202}}"#)
        #expect(run.log[2].message == JourneyPlanner.finishTooCloseMessage && run.log[2].dialog == nil)
    }

    @Test func theWalkThroughShowsEachDialogOnceOnAFirstRunOnly() throws {
        let steps = #"""
            {"tap": {"x": 160, "y": 300}}, {"confirm": true}, {"tap": {"x": 160, "y": 300}}, {"confirm": true},
            {"tap": {"x": 160, "y": 40}}, {"confirm": true}, {"stepBack": true}, {"tap": {"x": 160, "y": 40}},
            {"plan": {"journey": "journey.xml"}}, {"confirm": true}, {"confirm": true}, {"newRoute": true}, {"confirm": true},
            \#(Self.twoTaps), {"plan": {"journey": "journey.xml"}}, {"confirm": true}, {"newRoute": true}, {"confirm": true},
            \#(Self.twoTaps), {"plan": {"journey": "journey.xml"}}
            """#
        let first = try play(steps, firstRun: true)
        let shown = first.log.compactMap(\.dialog).map(\.kind)
        let opened = zip([nil] + shown.map { Optional($0) }, shown).filter { $0.0 != $0.1 }.map(\.1)
        #expect(opened.filter(\.isWalkThrough) == [.welcome, .startSet, .finishSet, .firstRoute, .itinerary, .secondRoute])
        #expect(first.log[0].dialog?.kind == .welcome)
        #expect(first.log[1].message == "Blocked by the Welcome to CycleStreets dialog")
        #expect(first.log[3].dialog?.kind == .startSet && first.log[5].dialog?.kind == .finishSet)
        // The finish set again after step-back shows nothing: each dialog is shown once.
        #expect(first.log[8].dialog == nil && first.log[8].finish != nil)
        #expect(first.log[9].dialog?.kind == .firstRoute && first.log[10].dialog?.kind == .itinerary, "one after the other")
        #expect(first.log.last?.dialog == nil, "after the third route, no dialog")

        let again = try play(steps, firstRun: false)
        #expect(Set(again.log.compactMap(\.dialog?.kind)) == [.newRoute], "without a first run, only New route asks")
    }

    @Test func aBlockedStepsFilesAreStillChecked() {
        #expect(throws: ScriptError.self) {
            try play(#"\#(Self.twoTaps), {"plan": {"journey": "journey.xml", "seconds": 5}}, {"plan": {"journey": "missing.xml"}}"#)
        }
        #expect(throws: ScriptError.self) {
            try play(#"\#(Self.twoTaps), {"plan": {"journey": "journey.xml", "seconds": 5}}, {"placefinder": {"file": "geocoder.xml", "result": 99}}"#)
        }
    }

    @Test func badDialogStepsNameTheField() {
        func error(_ steps: String) -> String? {
            do { _ = try play(steps); return nil } catch { return error.description }
        }
        #expect(error(#"{"confirm": "yes"}"#) == #"steps[0].confirm: "yes" is not allowed; expected true (OK) or false (Cancel)"#)
        #expect(error(#"{"plan": {"journey": "journey.xml", "unreachable": true}}"#)?.hasPrefix("steps[0].plan: ") == true)
        #expect(error(#"{"plan": {"unreachable": false}}"#) == "steps[0].plan.unreachable: false is not allowed; expected true")
        #expect(error(#"{"plan": {"journey": "journey.xml", "seconds": 61}}"#) == "steps[0].plan.seconds: 61 is outside the allowed range 0...60")
    }
}
