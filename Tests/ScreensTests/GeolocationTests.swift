import Foundation
import MapGeometry
import MapRender
import Testing
@testable import Payloads
import PhoneScreen
@testable import Screens

@Suite struct GeolocationTests {
    /// A planner looking at London, far from the fixes in Cambridge.
    let london = MapPanel(
        viewport: Viewport(width: 320, height: 367), zoomRange: ZoomRange(min: 0, max: 19),
        camera: Camera(center: Coordinate(latitude: 51.5074, longitude: -0.1278), zoom: 12)
    )
    let first = Coordinate(latitude: 52.2050, longitude: 0.1410)
    let second = Coordinate(latitude: 52.2052, longitude: 0.1413)
    let third = Coordinate(latitude: 52.2053, longitude: 0.1414)

    @Test func pulsesAt150Then60Then15Metres() throws {
        var planner = JourneyPlanner(map: london)
        #expect(planner.startGeolocation(at: 0) == .accepted)

        #expect(planner.receiveLocation(LocationFix(coordinate: first, accuracyMetres: 150), at: 0.5) == .accepted)
        #expect(planner.start == first, "the first pulse sets the start")
        #expect(planner.geolocation?.fix == LocationFix(coordinate: first, accuracyMetres: 150))
        #expect(planner.map.camera == Camera(center: first, zoom: 16), "off-screen fix: centred, zoom 16 at <= 200 m")
        #expect(planner.geolocation?.succeeded == false)
        #expect(planner.geolocation?.switchOffTime == 30.5)

        #expect(planner.receiveLocation(LocationFix(coordinate: second, accuracyMetres: 60), at: 1.5) == .accepted)
        #expect(planner.start == second, "the start follows the pulses")
        #expect(planner.geolocation?.fix?.accuracyMetres == 60)
        #expect(planner.map.camera == Camera(center: first, zoom: 16), "an on-screen fix leaves the map alone")
        #expect(planner.geolocation?.succeeded == true)
        #expect(planner.geolocation?.fix?.quality == .ok)
        #expect(planner.geolocation?.switchOffTime == 4.5)

        #expect(planner.receiveLocation(LocationFix(coordinate: third, accuracyMetres: 15), at: 2.0) == .accepted)
        #expect(planner.start == third)
        #expect(planner.geolocation?.fix?.quality == .best)
        #expect(planner.geolocation?.switchOffTime == 3.0)
        #expect(planner.finish == nil)

        planner.advance(to: 2.9)
        #expect(planner.geolocation != nil)
        planner.advance(to: 3.0)
        #expect(planner.geolocation == nil, "listening stops 1 s after the best fix; the ring goes")
        #expect(planner.start == third, "the marker stays")
        #expect(planner.receiveLocation(LocationFix(coordinate: first, accuracyMetres: 10), at: 3.5) == .refused("Geolocation is not running"))
    }

    @Test func badFixesKeepListeningFor30Seconds() {
        var planner = JourneyPlanner(map: london)
        _ = planner.startGeolocation(at: 0)
        _ = planner.receiveLocation(LocationFix(coordinate: first, accuracyMetres: 500), at: 1)
        #expect(planner.map.camera.zoom == 14)
        planner.advance(to: 30.9)
        #expect(planner.geolocation != nil)
        planner.advance(to: 31)
        #expect(planner.geolocation == nil)
    }

    @Test func panCancelsGeolocationButKeepsTheMarker() {
        var planner = JourneyPlanner(map: london)
        _ = planner.startGeolocation(at: 0)
        _ = planner.receiveLocation(LocationFix(coordinate: first, accuracyMetres: 150), at: 0.5)
        #expect(planner.pan(dx: 5, dy: 5, at: 1) == .accepted)
        #expect(planner.geolocation == nil)
        #expect(planner.start == first)
        #expect(planner.enabledButtons.contains(.geolocate))
    }

    @Test func zoomCancelsGeolocationToo() {
        var planner = JourneyPlanner(map: london)
        _ = planner.startGeolocation(at: 0)
        _ = planner.zoomOut(at: 1)
        #expect(planner.geolocation == nil)
    }

    @Test func setsTheFinishWhenTheStartIsSetAndRefusesOneTooClose() throws {
        var planner = JourneyPlanner(map: london)
        _ = planner.tap(atX: 160, y: 183, at: 0)
        let start = try #require(planner.start)
        _ = planner.startGeolocation(at: 1)
        let near = Coordinate(latitude: start.latitude + 0.0005, longitude: start.longitude)
        #expect(planner.receiveLocation(LocationFix(coordinate: near, accuracyMetres: 30), at: 2) == .refused(JourneyPlanner.finishTooCloseMessage))
        #expect(planner.finish == nil)
        #expect(planner.geolocation?.fix?.coordinate == near, "the ring still follows the fix")
        let away = Coordinate(latitude: start.latitude + 0.002, longitude: start.longitude)
        #expect(planner.receiveLocation(LocationFix(coordinate: away, accuracyMetres: 30), at: 3) == .accepted)
        #expect(planner.finish == away)
        #expect(planner.geolocation?.followedMarker == .finish)
    }

    @Test func afterPlanningItOnlyShowsWhereYouAre() throws {
        var planner = JourneyPlanner(map: cambridgePanel())
        _ = planner.tap(atX: 160, y: 300, at: 0)
        _ = planner.tap(atX: 160, y: 40, at: 1)
        let journey = try Fixture.journey()
        _ = planner.plan(journey, at: 2)
        let camera = planner.map.camera
        _ = planner.startGeolocation(at: 3)
        let fix = LocationFix(coordinate: journey.routeLine.parts[0][2], accuracyMetres: 40)
        #expect(planner.receiveLocation(fix, at: 4) == .accepted)
        #expect(planner.start == journey.startCoordinate && planner.finish == journey.finishCoordinate)
        #expect(planner.geolocation?.fix == fix)
        #expect(planner.map.camera == camera)
    }

    @Test func stepBackLetsTheNextPulseSetTheMarkerAgain() {
        var planner = JourneyPlanner(map: london)
        _ = planner.startGeolocation(at: 0)
        _ = planner.receiveLocation(LocationFix(coordinate: first, accuracyMetres: 150), at: 0.5)
        _ = planner.stepBack(at: 1)
        #expect(planner.start == nil)
        #expect(planner.geolocation?.followedMarker == nil)
        _ = planner.receiveLocation(LocationFix(coordinate: third, accuracyMetres: 150), at: 2)
        #expect(planner.start == third)
    }

    @Test(arguments: [(10.0, 16.0), (200, 16), (201, 15), (400, 15), (401, 14), (800, 14), (1600, 13), (.infinity, 0)])
    func zoomFallsOneLevelPerDoublingBeyond200Metres(accuracy: Double, zoom: Double) {
        #expect(LocationFix(coordinate: first, accuracyMetres: accuracy).cameraZoom == zoom)
    }

    @Test(arguments: [(150.0, LocationFix.Quality.bad, 30.0), (100, .ok, 3), (21, .ok, 3), (20, .best, 1)])
    func qualityAndSwitchOffDelay(accuracy: Double, quality: LocationFix.Quality, delay: TimeInterval) {
        let fix = LocationFix(coordinate: first, accuracyMetres: accuracy)
        #expect(fix.quality == quality)
        #expect(fix.quality.switchOffDelay == delay)
        #expect(fix.quality.isSuccess == (quality != .bad))
    }
}
