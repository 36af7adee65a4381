import Foundation
import FrameRequest
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Screens
import Testing

/// What the golden scripts' logs and states must show, flow by flow (app spec 6.4-6.9, 8.1).
@Suite struct ScriptLogTests {
    @Test func aDepartureChosenOnTheBoardOpensItsVehicleOnTheMap() throws {
        let (_, run) = try ScriptGoldens.play("departures-vehicle")
        let log = run.log
        #expect(log.map(\.event) == ["start", "departure", "departures", "departure", "departure", "wait", "wait"])
        #expect(log[1].accepted == false && log[1].message == "Show a departure board before choosing a departure")
        #expect(log[2].screen == .departures && run.frames[2].state.departureBoard?.rows.count == 6)
        #expect(log[3].accepted == false && log[3].message == "The board has 6 departures, not 7" && log[3].screen == .departures)
        // Row 1, tram 7, three minutes late by its trip update: its vehicle on the departures view.
        #expect(log[4].accepted && log[4].screen == .planner)
        #expect(log[4].transit == "Tram 7 is 3 minutes late, between Newmarket Road and Elizabeth Way, 2 stops before yours. It arrives at 08:41.")
        #expect(log[6].transit == "Tram 7 is 3 minutes late, at Elizabeth Way, 1 stop before yours. It arrives at 08:41.")
        #expect(run.frames[4].state.transit?.stops.contains { $0.role == .end } == false, "the departures view has no end node")
    }

    @Test func threeTapsPlanARouteAndRefitTheMap() throws {
        let (_, run) = try ScriptGoldens.play("three-taps")
        let log = run.log
        #expect(log.map(\.commentary) == ["Set start", "Set finish", "Plan route", "New route"])
        #expect(log.allSatisfy { $0.accepted })
        #expect(log[1].camera == log[0].camera && log[2].camera == log[0].camera, "taps never move the map")
        #expect(log[3].camera != log[2].camera, "planning fits the camera to the route")
        let planned = run.frames[3].state
        let journey = try #require(planned.routeLine)
        #expect(planned.start == journey.first && planned.finish == journey.last)
        let panel = MapPanel(viewport: run.layout.mapPanelViewport, zoomRange: ZoomRange(min: 0, max: 19), camera: planned.camera)
        #expect(panel.shows(journey.first) && panel.shows(journey.last))
    }

    @Test func aFinishTooCloseToTheStartIsRefusedWithTheAppsMessage() throws {
        let (_, run) = try ScriptGoldens.play("refused-finish")
        let log = run.log
        #expect(log[1].accepted && log[1].start != nil)
        #expect(log[2].event == "tap")
        #expect(log[2].accepted == false)
        #expect(log[2].message == "Move the map to set a finish point further away.")
        #expect(log[2].message == JourneyPlanner.finishTooCloseMessage)
        #expect(log[2].finish == nil && log[2].commentary == "Set finish")
        let start = try #require(log[1].start)
        let panel = MapPanel(viewport: run.layout.mapPanelViewport, zoomRange: ZoomRange(min: 0, max: 19), camera: log[2].camera)
        #expect(start.distance(to: panel.coordinate(atX: 175, y: 245)) < JourneyPlanner.minimumStartFinishMetres)
        #expect(log[3].accepted && log[3].finish != nil && log[3].commentary == "Plan route")
    }

    @Test func aTapWithinPointTwoSecondsOfAPanIsIgnored() throws {
        let (_, run) = try ScriptGoldens.play("tap-after-pan")
        let log = run.log
        #expect(log[1].event == "pan" && log[1].camera != log[0].camera)
        #expect(log[2].accepted == false && log[2].time == 0.1)
        #expect(log[2].message == "Tap ignored: less than 0.2 s after the map moved")
        #expect(log[3].accepted && log[3].time == 0.2 && log[3].start != nil)
    }

    @Test func stepBackRemovesTheFinishThenTheStartAndNeverMovesTheMap() throws {
        let (_, run) = try ScriptGoldens.play("step-back")
        let log = run.log
        #expect(log.map(\.event) == ["start", "tap", "tap", "stepBack", "stepBack", "stepBack"])
        #expect(log[2].start != nil && log[2].finish != nil)
        #expect(log[3].accepted && log[3].finish == nil && log[3].start == log[2].start && log[3].commentary == "Set finish")
        #expect(log[4].accepted && log[4].start == nil && log[4].commentary == "Set start")
        #expect(log[5].accepted == false && log[5].message == "Step-back is disabled")
        #expect(Set(log.map(\.camera)).count == 1, "the map stays where the user left it")
    }

    @Test func geolocationSetsTheMarkerAtTheFirstPulseAndSucceedsByTheBestOne() throws {
        let (script, run) = try ScriptGoldens.play("geolocation")
        let fixes = script.steps.compactMap { step -> LocationFix? in
            if case .geolocate(let fix) = step { return fix }
            return nil
        }
        #expect(fixes.map(\.accuracyMetres) == [150, 60, 15])
        let log = run.log
        // The first pulse, outside the view, sets the start and centres the map on it at zoom 16.
        #expect(log[0].start == nil)
        #expect(log[1].accepted && log[1].start == fixes[0].coordinate)
        #expect(log[1].camera == Camera(center: fixes[0].coordinate, zoom: 16))
        #expect(run.frames[1].state.locationRing == fixes[0])
        #expect(run.frames[1].state.locationRing?.quality.isSuccess == false, "150 m is not yet good enough")
        // Later pulses are on screen: the marker follows them and the map stays.
        #expect(log[2].start == fixes[1].coordinate && log[3].start == fixes[2].coordinate)
        #expect(log[2].camera == log[1].camera && log[3].camera == log[1].camera)
        let best = try #require(run.frames[3].state.locationRing)
        #expect(best.accuracyMetres == 15 && best.quality == .best && best.quality.isSuccess)
        // After success, listening stops within LOC_OFF_DELAY_BEST; the marker stays.
        #expect(log[4].event == "wait" && run.frames[4].state.locationRing == nil)
        #expect(log[4].start == fixes[2].coordinate && log[4].commentary == "Set finish")
    }

    @Test func newRouteClearsEverythingButLeavesTheMap() throws {
        let (_, run) = try ScriptGoldens.play("new-route")
        let log = run.log
        #expect(log[3].commentary == "New route" && log[4].event == "pan")
        #expect(log[5].event == "newRoute" && log[5].accepted)
        #expect(log[5].dialog?.title == "New route" && log[5].dialog?.buttons == ["Cancel", "OK"] && run.frames[5].state.routeLine != nil)
        #expect(log[6].event == "confirm" && log[6].dialogsClosed?.first?.endedBy == "OK" && log[6].dialog == nil)
        #expect(log[6].start == nil && log[6].finish == nil && log[6].commentary == "Set start")
        #expect(run.frames[6].state.routeLine == nil)
        #expect(log[6].camera == log[4].camera)
    }

    @Test func placefinderSetsMarkersAndCentresOnEachPlace() throws {
        let (_, run) = try ScriptGoldens.play("placefinder")
        let log = run.log
        let gwydir = Coordinate(latitude: 52.20260, longitude: 0.14095)
        let parksidePools = Coordinate(latitude: 52.20330, longitude: 0.13160)
        #expect(log[1].accepted && log[1].start == gwydir && log[1].camera.center == gwydir)
        #expect(log[2].accepted == false && log[2].message == JourneyPlanner.finishTooCloseMessage && log[2].finish == nil)
        #expect(log[2].dialog?.kind == .finishTooNear, "a place too near the start is said in a dialog")
        #expect(log[3].event == "wait" && log[3].dialog == nil && log[3].dialogsClosed?.first?.endedBy == "closed by itself")
        #expect(log[4].accepted && log[4].finish == parksidePools && log[4].camera.center == parksidePools)
        #expect(log[5].camera.zoom == log[4].camera.zoom - 1)
        // Zoomed out, both markers show.
        let panel = MapPanel(viewport: run.layout.mapPanelViewport, zoomRange: ZoomRange(min: 0, max: 19), camera: log[5].camera)
        #expect(panel.shows(gwydir) && panel.shows(parksidePools))
    }

    @Test func photomapPinsTheVisiblePhotos() throws {
        let (_, run) = try ScriptGoldens.play("photomap")
        let states = run.frames.map(\.state)
        #expect(states[0].screen == .planner && states[1].screen == .photomap)
        #expect(states[1].photos.count == 14)
        #expect(!states[1].photos.contains { $0.id == 35127 }, "Parker's Piece is west of the view")
        #expect(states[2].photos.contains { $0.id == 35127 }, "panning brings it in")
        #expect(states[3].photos.count == 17, "zoomed out, all but the station photo, south of the view")
        #expect(!states[3].photos.contains { $0.id == 38210 })
        #expect(states.allSatisfy { $0.photos.count <= Photomap.photoLimit })
    }

    @Test func itineraryShowsOneStageWithItsCounter() throws {
        let (_, run) = try ScriptGoldens.play("itinerary-stage")
        let third = run.frames[4].state, last = run.frames[5].state
        #expect(third.screen == .itinerary && third.emphasisedStage?.counter == "3/6")
        #expect(third.enabledButtons.contains(.previousStage) && third.enabledButtons.contains(.nextStage))
        #expect(last.emphasisedStage?.counter == "6/6")
        #expect(last.enabledButtons.contains(.previousStage) && !last.enabledButtons.contains(.nextStage))
        // The stage is fitted at a zoom the fixture tiles have.
        #expect(third.camera.zoom <= 18 && last.camera.zoom <= 18)
    }
}
