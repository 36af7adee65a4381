import Foundation
import MapGeometry
import MapRender
import Testing
@testable import Payloads
import PhoneScreen
@testable import Screens

@Suite struct PhotomapTests {
    /// The view behind the spec's example call: 320 x 367 at zoom 13 over central Cambridge.
    let specView = MapPanel(
        viewport: Viewport(width: 320, height: 367), zoomRange: ZoomRange(min: 0, max: 19),
        camera: Camera(center: Coordinate(latitude: 52.205174, longitude: 0.141997), zoom: 13)
    )

    @Test func queryMatchesTheSpecExampleInOrderWithoutAKey() throws {
        let query = Photomap(map: specView).photosQuery
        #expect(query.map(\.name) == [
            "longitude", "latitude", "n", "e", "w", "s", "zoom", "useDom", "thumbnailsize", "limit", "suppressplaceholders", "minimaldata",
        ])
        #expect(!query.contains { $0.name == "key" })
        let expected: [String: Double] = [
            "longitude": 0.141997, "latitude": 52.205174, "n": 52.224478, "e": 0.169463, "w": 0.114531, "s": 52.185870,
        ]
        for parameter in query {
            if let value = expected[parameter.name] {
                // Within half a pixel: the frame's top-left snaps to a whole pixel.
                let actual = try #require(Double(parameter.value))
                #expect(abs(actual - value) < 0.0001, "\(parameter.name)=\(parameter.value)")
                #expect(parameter.value.split(separator: ".").last?.count == 6)
            }
        }
        let fixed = query.filter { expected[$0.name] == nil }.map { "\($0.name)=\($0.value)" }
        #expect(fixed == ["zoom=13", "useDom=1", "thumbnailsize=300", "limit=25", "suppressplaceholders=1", "minimaldata=1"])
    }

    @Test func showsOnlyVisiblePhotosAtMost25() throws {
        var photomap = Photomap(map: specView)
        let url = try #require(URL(string: "https://www.cyclestreets.net/p.jpg"))
        let inside = (0..<30).map { index in
            Photo(id: index, coordinate: Coordinate(latitude: 52.20 + Double(index) * 0.0005, longitude: 0.14), caption: "", thumbnailURL: url)
        }
        let london = Photo(id: 99, coordinate: Coordinate(latitude: 51.5074, longitude: -0.1278), caption: "", thumbnailURL: url)
        photomap.show([london] + inside)
        #expect(photomap.visiblePhotos.map(\.id) == Array(0..<25))
        photomap.map.pan(dx: 0, dy: -300)
        #expect(photomap.visiblePhotos.count < 25, "panning south leaves the northern photos behind")
    }

    @Test func fixturePhotosAroundMillRoadAreVisible() throws {
        var photomap = Photomap(map: cambridgePanel(zoom: 15))
        photomap.show(try PhotosXMLParser.parse(Fixture.data("photos.xml")))
        #expect(photomap.visiblePhotos.map(\.id) == [41523, 41877], "the station photo lies south of the view")
        #expect(ScreenState(photomap).photos == photomap.visiblePhotos)
        #expect(ScreenState(photomap).commentary == nil)
    }
}

@Suite struct ItineraryStageViewTests {
    /// A journey of 12 stages heading north-east from Thoday Street.
    static let twelveStages: Journey = {
        let points = (0...12).map { Coordinate(latitude: 52.2056 + Double($0) * 0.001, longitude: 0.1414 + Double($0) * 0.0008) }
        let segments = (0..<12).map { index in
            JourneySegment(
                name: "Stage \(index + 1)", distanceMetres: 125, timeSeconds: 30, turn: index == 0 ? "" : "straight on",
                startBearing: 30, provisionName: "Minor road", points: [points[index], points[index + 1]]
            )
        }
        return Journey(
            startName: "Thoday Street", finishName: "Stage 12", routeLine: RouteLine(points)!, lengthMetres: 1500,
            timeSeconds: 360, plan: "balanced", speedKmh: 20, segments: segments
        )
    }()

    @Test func countsStagesAndClampsNextAndPrevious() {
        var view = ItineraryStageView(journey: Self.twelveStages, stage: 11, map: cambridgePanel())
        #expect(view.counter == "11/12")
        #expect(view.segment.name == "Stage 11")
        view.showNextStage()
        #expect(view.counter == "12/12")
        #expect(view.enabledButtons == [.previousStage, .zoomIn, .zoomOut])
        view.showNextStage()
        #expect(view.stage == 12)
        var first = ItineraryStageView(journey: Self.twelveStages, stage: 1, map: cambridgePanel())
        first.showPreviousStage()
        #expect(first.counter == "1/12")
        #expect(first.enabledButtons == [.nextStage, .zoomIn, .zoomOut])
        #expect(ItineraryStageView(journey: Self.twelveStages, stage: 40, map: cambridgePanel()).stage == 12)
    }

    @Test func cameraFitsTheStage() {
        var view = ItineraryStageView(journey: Self.twelveStages, stage: 3, map: cambridgePanel())
        for stage in [3, 4] {
            let frame = view.map.frame
            for point in Self.twelveStages.segments[stage - 1].points {
                let pixel = frame.pixel(for: point)
                #expect(pixel.x >= 23 && pixel.x <= 297 && pixel.y >= 23 && pixel.y <= 344)
            }
            view.showNextStage()
        }
        let state = ScreenState(view)
        #expect(state.screen == .itinerary)
        #expect(state.emphasisedStage?.counter == "5/12")
        #expect(state.emphasisedStage?.points == Self.twelveStages.segments[4].points)
        #expect(state.routeLine == Self.twelveStages.routeLine)
    }
}
