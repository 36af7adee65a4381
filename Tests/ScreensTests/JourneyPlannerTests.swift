import Foundation
import MapGeometry
import MapRender
import Testing
@testable import Payloads
import PhoneScreen
import Wording
@testable import Screens

@Suite struct JourneyPlannerTests {
    let panel = cambridgePanel()

    @Test func tapsGoFromClearedToStartToFinish() {
        var planner = JourneyPlanner(map: panel)
        #expect(planner.phase == .settingStart)
        #expect(planner.commentary.britishEnglish == "Set start")
        #expect(planner.tap(atX: 160, y: 300, at: 0) == .accepted)
        #expect(planner.commentary.britishEnglish == "Set finish")
        #expect(planner.tap(atX: 160, y: 40, at: 1) == .accepted)
        #expect(planner.phase == .readyToPlan)
        #expect(planner.commentary.britishEnglish == "Plan route")
        #expect(planner.tap(atX: 60, y: 60, at: 2) == .refused("Tap ignored: the start and finish are already set"))
        #expect(planner.map.camera == panel.camera, "the map never moves after a tap")
    }

    @Test(arguments: [1, 2])
    func tapBecomesTheCoordinateUnderIt(scale: Int) {
        var planner = JourneyPlanner(map: cambridgePanel(scale: scale))
        _ = planner.tap(atX: 160, y: 183.5, at: 0)
        #expect(planner.start?.isNear(panel.camera.center, metres: 1) == true)
        let frame = FrameGeometry(camera: panel.camera, viewport: Viewport(width: 320, height: 367, scale: scale))
        let expected = frame.coordinate(at: PixelPoint(x: 100 * Double(scale), y: 50 * Double(scale)))
        _ = planner.tap(atX: 100, y: 50, at: 1)
        #expect(planner.finish == expected)
    }

    @Test func tapWithinTwoTenthsOfASecondOfAPanIsIgnored() {
        var planner = JourneyPlanner(map: panel)
        _ = planner.pan(dx: 10, dy: 0, at: 1.0)
        #expect(planner.tap(atX: 160, y: 300, at: 1.1) == .refused("Tap ignored: less than 0.2 s after the map moved"))
        #expect(planner.tap(atX: 160, y: 300, at: 1.19).accepted == false)
        #expect(planner.start == nil)
        #expect(planner.tap(atX: 160, y: 300, at: 1.2) == .accepted)
        #expect(planner.start != nil)
    }

    @Test func tapAfterAZoomFollowsTheSameRuleWithDecimalTimes() {
        var planner = JourneyPlanner(map: panel)
        _ = planner.zoomIn(at: 0.5)
        #expect(planner.tap(atX: 160, y: 300, at: 0.6).accepted == false)
        #expect(planner.tap(atX: 160, y: 300, at: 0.7) == .accepted, "0.7 - 0.5 is 0.2 even though the doubles differ")
    }

    @Test func finishWithin100MetresOfTheStartIsRefused() throws {
        var planner = JourneyPlanner(map: panel)
        _ = planner.tap(atX: 160, y: 183, at: 0)
        // 10 px at zoom 16 in Cambridge is about 15 m.
        let refused = planner.tap(atX: 170, y: 183, at: 1)
        #expect(refused == .refused("Move the map to set a finish point further away."))
        #expect(refused.message == JourneyPlanner.finishTooCloseMessage)
        #expect(planner.finish == nil)
        #expect(planner.commentary.britishEnglish == "Set finish")
        #expect(planner.tap(atX: 160, y: 40, at: 2) == .accepted)
        let start = try #require(planner.start), finish = try #require(planner.finish)
        #expect(start.distance(to: finish) >= JourneyPlanner.minimumStartFinishMetres)
    }

    @Test func stepBackRemovesTheFinishThenTheStartWithoutMovingTheMap() {
        var planner = JourneyPlanner(map: panel)
        #expect(planner.stepBack(at: 0) == .refused("Step-back is disabled"))
        _ = planner.tap(atX: 160, y: 300, at: 0)
        _ = planner.tap(atX: 160, y: 40, at: 1)
        let start = planner.start
        #expect(planner.stepBack(at: 2) == .accepted)
        #expect(planner.finish == nil)
        #expect(planner.start == start)
        #expect(planner.commentary.britishEnglish == "Set finish")
        #expect(planner.stepBack(at: 3) == .accepted)
        #expect(planner.start == nil)
        #expect(planner.commentary.britishEnglish == "Set start")
        #expect(planner.map.camera == panel.camera)
    }

    @Test func planFitsBothMarkersOnScreenWithTheirMargins() throws {
        var planner = readyToPlan()
        let journey = try Fixture.journey()
        #expect(planner.plan(journey, at: 5) == .accepted)
        #expect(planner.commentary.britishEnglish == "New route")
        #expect(planner.start == journey.startCoordinate)
        #expect(planner.finish == journey.finishCoordinate)
        #expect(planner.journey == journey)
        let frame = planner.map.frame
        let margins = Theme.cycleStreets.markerExtent, padding = MapDefaults.fitPadding, slack = 1.0
        for marker in [journey.startCoordinate, journey.finishCoordinate] {
            let point = frame.pixel(for: marker)
            #expect(point.x - margins.left >= padding - slack)
            #expect(point.x + margins.right <= 320 - padding + slack)
            #expect(point.y - margins.top >= padding - slack)
            #expect(point.y + margins.bottom <= 367 - padding + slack)
        }
        // The route is 410 m north to south: 280 px at zoom 16, plus 62 px of marker, is more
        // than the 319 px between the paddings, so zoom 15 is the deepest that fits.
        #expect(planner.map.camera.zoom == 15)
    }

    @Test func planTakesMarkerMarginsAndPaddingAsParameters() throws {
        var tight = readyToPlan(), roomy = readyToPlan()
        let journey = try Fixture.journey()
        _ = tight.plan(journey, markerMargins: .zero, padding: 0, at: 5)
        _ = roomy.plan(journey, markerMargins: .uniform(100), padding: 24, at: 5)
        #expect(tight.map.camera.zoom > roomy.map.camera.zoom)
    }

    @Test func planNeedsBothMarkers() throws {
        var planner = JourneyPlanner(map: panel)
        _ = planner.tap(atX: 160, y: 300, at: 0)
        #expect(try planner.plan(Fixture.journey(), at: 1) == .refused("Set a start and a finish before planning a route"))
        #expect(planner.journey == nil)
    }

    @Test func newRouteClearsEverythingButKeepsTheCamera() throws {
        var planner = readyToPlan()
        #expect(planner.newRoute(at: 4) == .refused("There is no route to clear"))
        _ = try planner.plan(Fixture.journey(), at: 5)
        let camera = planner.map.camera
        #expect(planner.stepBack(at: 6) == .refused("Step-back is disabled"))
        #expect(planner.tap(atX: 10, y: 10, at: 7).accepted == false)
        #expect(planner.newRoute(at: 8) == .accepted)
        #expect(planner.start == nil && planner.finish == nil && planner.journey == nil)
        #expect(planner.commentary.britishEnglish == "Set start")
        #expect(planner.map.camera == camera)
    }

    @Test func panMovesTheCameraAgainstTheFinger() {
        var planner = JourneyPlanner(map: panel)
        _ = planner.pan(dx: 100, dy: 50, at: 0)
        let moved = planner.map.camera.center
        #expect(moved.longitude < panel.camera.center.longitude, "content dragged right shows what lies west")
        #expect(moved.latitude > panel.camera.center.latitude, "content dragged down shows what lies north")
        let frame = FrameGeometry(camera: panel.camera, viewport: panel.viewport)
        let expected = frame.coordinate(at: PixelPoint(x: 160 - 100, y: 183.5 - 50))
        #expect(moved.isNear(expected, metres: 2))
        _ = planner.pan(dx: -100, dy: -50, at: 1)
        #expect(planner.map.camera.center.isNear(panel.camera.center, metres: 0.01))
        #expect(planner.map.camera.zoom == 16)
    }

    @Test func zoomStepsOneLevelWithinTheRange() {
        var planner = JourneyPlanner(map: cambridgePanel(zoom: 18))
        #expect(planner.zoomIn(at: 0) == .accepted)
        #expect(planner.map.camera.zoom == 19)
        #expect(!planner.enabledButtons.contains(.zoomIn))
        #expect(planner.zoomIn(at: 1) == .refused("Already at the closest zoom"))
        #expect(planner.map.camera.zoom == 19)
        #expect(planner.zoomOut(at: 2) == .accepted)
        #expect(planner.map.camera.zoom == 18)
        var wide = JourneyPlanner(map: cambridgePanel(zoom: 0))
        #expect(wide.zoomOut(at: 0) == .refused("Already at the widest zoom"))
        #expect(!wide.enabledButtons.contains(.zoomOut))
    }

    @Test func buttonsFollowThePhase() throws {
        var planner = JourneyPlanner(map: panel)
        #expect(planner.enabledButtons == [.geolocate, .placefinder, .zoomIn, .zoomOut])
        _ = planner.tap(atX: 160, y: 300, at: 0)
        #expect(planner.enabledButtons == [.geolocate, .placefinder, .stepBack, .zoomIn, .zoomOut])
        _ = planner.tap(atX: 160, y: 40, at: 1)
        #expect(planner.enabledButtons == [.stepBack, .zoomIn, .zoomOut])
        #expect(planner.startGeolocation(at: 2) == .refused("Geolocation is disabled"))
        let place = GeocoderResult(name: "Mill Road", near: "Cambridge", coordinate: Coordinate(latitude: 52.2, longitude: 0.14))
        #expect(planner.choosePlace(place, at: 3) == .refused("The placefinder is disabled"))
        _ = try planner.plan(Fixture.journey(), at: 4)
        #expect(planner.enabledButtons == [.geolocate, .zoomIn, .zoomOut])
    }

    @Test func placefinderSetsTheNextMarkerAndCentresOnIt() {
        var planner = JourneyPlanner(map: panel)
        let millRoad = GeocoderResult(name: "Mill Road", near: "Cambridge", coordinate: Coordinate(latitude: 52.20005, longitude: 0.13952))
        #expect(planner.choosePlace(millRoad, at: 0) == .accepted)
        #expect(planner.start == millRoad.coordinate)
        #expect(planner.map.camera == Camera(center: millRoad.coordinate, zoom: 16))
        let nearby = GeocoderResult(name: "Mill Road Cemetery", near: "", coordinate: Coordinate(latitude: 52.20040, longitude: 0.13952))
        #expect(planner.choosePlace(nearby, at: 1) == .refused(JourneyPlanner.finishTooCloseMessage))
        #expect(planner.finish == nil)
        let cemetery = GeocoderResult(name: "Mill Road Cemetery", near: "", coordinate: Coordinate(latitude: 52.20188, longitude: 0.13672))
        #expect(planner.choosePlace(cemetery, at: 2) == .accepted)
        #expect(planner.finish == cemetery.coordinate)
        #expect(planner.map.camera.center == cemetery.coordinate)
    }

    @Test func fallbackCameraIsSouthEastEngland() {
        #expect(MapDefaults.fallbackCamera == Camera(center: Coordinate(latitude: 51.40, longitude: 0.0), zoom: 6))
    }

    @Test func wholeStateSurvivesAJSONRoundTrip() throws {
        var planner = readyToPlan()
        _ = try planner.plan(Fixture.journey(), at: 5)
        _ = planner.pan(dx: 3.5, dy: -7.25, at: 6)
        _ = planner.startGeolocation(at: 7)
        _ = planner.receiveLocation(LocationFix(coordinate: Coordinate(latitude: 52.2061, longitude: 0.1415), accuracyMetres: 65), at: 7.5)
        try expectRoundTrip(planner)

        var midway = JourneyPlanner(map: cambridgePanel(scale: 2))
        _ = midway.tap(atX: 160, y: 300, at: 0.3)
        try expectRoundTrip(midway)
    }

    private func expectRoundTrip(_ planner: JourneyPlanner) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(planner)
        let restored = try JSONDecoder().decode(JourneyPlanner.self, from: json)
        #expect(restored == planner)
        #expect(restored.map.viewport == planner.map.viewport)
        #expect(try encoder.encode(restored) == json)
    }

    /// A planner with a start and a finish set by taps, ready for "Plan route".
    private func readyToPlan() -> JourneyPlanner {
        var planner = JourneyPlanner(map: panel)
        _ = planner.tap(atX: 160, y: 300, at: 0)
        _ = planner.tap(atX: 160, y: 40, at: 1)
        return planner
    }
}
