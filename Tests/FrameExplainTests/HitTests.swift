import Foundation
import FrameExplain
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Testing
import TileStore
import Wording

/// Hit-tests at exact pixels of frames whose layout the tests fix: a fixed camera, so that
/// each overlay's pixel follows from its coordinate, and the chrome's bars at their set heights.
@Suite struct HitTests {
    static let source = StyleCatalog.builtin["osm"]!
    static let camera = Camera(center: Coordinate(latitude: 52.2074, longitude: 0.1412), zoom: 16)
    /// 0.001 degrees of longitude at zoom 16 is 46.6 px; the frame's centre is (160, 240).
    static let centre = Coordinate(latitude: 52.2074, longitude: 0.1412)
    static let east = Coordinate(latitude: 52.2074, longitude: 0.1432)
    /// The answer where nothing is drawn.
    static let map = HitAnswer(category: .basemap, label: "Map")

    static func frame(_ overlays: Scene.Overlays, chrome: PhoneChrome? = nil) -> ExplainedFrame {
        var scene = Scene(camera: .fixed(camera), layers: overlays.layers, chrome: chrome)
        scene.theme = .cycleStreets
        return ExplainedFrame(scene: scene, tileSet: source.tileSet)
    }

    @Test func aRouteOverAMarkerAnswersTheRouteAndBesideItTheMarker() throws {
        // The route runs east from the start marker's tip, which is at the frame's centre.
        let frame = Self.frame(Scene.Overlays(start: Self.centre, route: RouteLine([Self.centre, Self.east]), attribution: .hidden))
        #expect(try frame.hit(x: 170, y: 240, slop: 0) == HitAnswer(category: .route, label: "Route"))
        // Above the line, on the marker's body.
        #expect(try frame.hit(x: 160, y: 225, slop: 0) == HitAnswer(category: .start, label: "Start marker"))
        // Well clear of both: the map.
        #expect(try frame.hit(x: 20, y: 400, slop: 0) == Self.map)
    }

    @Test func slopWidensTheLineButNeverHidesWhatIsTouched() throws {
        let frame = Self.frame(Scene.Overlays(start: Self.centre, route: RouteLine([Self.centre, Self.east]), attribution: .hidden))
        let width = Theme.cycleStreets[RouteStyle.self].drawnWidth
        let justOff = 240 + Int((width / 2).rounded(.up)) + 2
        // Clear of the marker's sprite, which reaches 40 px east of its tip with its shadow.
        #expect(try frame.hit(x: 230, y: justOff, slop: 0) == Self.map)
        #expect(try frame.hit(x: 230, y: justOff, slop: 4).category == .route)
        // On the marker exactly, a slop that reaches the line still answers the marker.
        #expect(try frame.hit(x: 160, y: 225, slop: 20).category == .start)
    }

    @Test func photosAndTheLocationRingSayTheirLabels() throws {
        let photo = Photo(id: 12, coordinate: Self.centre, caption: "Cycle parking")
        let west = Coordinate(latitude: 52.2074, longitude: 0.1402)
        let location = LocationFix(coordinate: west, accuracyMetres: 65)
        let frame = Self.frame(Scene.Overlays(photos: [photo], location: location, attribution: .hidden))
        // The pin stands above its tip.
        #expect(try frame.hit(x: 160, y: 220, slop: 0) == HitAnswer(category: .photo, label: "Photo 12: Cycle parking", id: "12"))
        // The ring is drawn from r to 2r around the fix: its middle, at 1.5r west, is on it; the
        // fix itself, inside r, is not.
        let geometry = frame.geometry
        let r = 65 / geometry.metresPerDevicePixel(latitude: west.latitude)
        let fix = geometry.pixel(for: west)
        #expect(try frame.hit(x: Int(fix.x - 1.5 * r), y: Int(fix.y), slop: 0)
            == HitAnswer(category: .location, label: "Your location, accurate to 65 metres"))
        #expect(try frame.hit(x: Int(fix.x), y: Int(fix.y), slop: 0) == Self.map)
    }

    @Test func theChromeIsElementsToo() throws {
        let chrome = PhoneChrome.journeyPlanner(
            commentary: PhoneChrome.Commentary(Phrase(.setStart), isButton: false), enabled: [.geolocate, .zoomIn]
        )
        let frame = Self.frame(Scene.Overlays(start: Self.centre, attribution: .hidden), chrome: chrome)
        // The tab bar is the bottom 49 px, five tabs of 64 px.
        #expect(try frame.hit(x: 30, y: 470, slop: 0) == HitAnswer(category: .tab, label: "Plan route tab, selected", id: "planRoute"))
        #expect(try frame.hit(x: 300, y: 440, slop: 0) == HitAnswer(category: .tab, label: "More tab", id: "more"))
        // The status bar is the top 20 px; its clock is text, not a control.
        #expect(try frame.hit(x: 160, y: 10, slop: 0) == HitAnswer(category: .commentary, label: "Status bar, 09:41"))
        // The commentary sits in the middle of the toolbar, the buttons at its ends.
        #expect(try frame.hit(x: 160, y: 42, slop: 0) == HitAnswer(category: .commentary, label: "Set start"))
        let buttons = ToolbarPainter(chrome: chrome).layout(frameWidth: 320)
        let first = buttons.leadingButtons[0].center, last = buttons.trailingButtons[1].center
        #expect(try frame.hit(x: Int(first.x), y: Int(first.y), slop: 0)
            == HitAnswer(category: .button, label: "Find my location", id: "geolocate"))
        #expect(try frame.hit(x: Int(last.x), y: Int(last.y), slop: 0)
            == HitAnswer(category: .button, label: "Zoom out, unavailable", id: "zoomOut"))
        // Between the toolbar's buttons, the toolbar itself.
        #expect(try frame.hit(x: 0, y: 42, slop: 0) == HitAnswer(category: .commentary, label: "Toolbar"))
        // The map panel starts 64 px down, so the marker at its centre is at 64 + 183.5.
        #expect(try frame.hit(x: 160, y: 64 + 183 - 12, slop: 0).category == .start)
    }

    @Test func theStageAndItsCounterNameTheStage() throws {
        let stage = EmphasisedStage(number: 3, count: 12, points: [Self.centre, Self.east])
        let frame = Self.frame(Scene.Overlays(emphasisedStage: stage))
        #expect(try frame.hit(x: 180, y: 240, slop: 0) == HitAnswer(category: .stage, label: "Stage 3 of 12", stage: 3))
        #expect(try frame.hit(x: 160, y: 12, slop: 0) == HitAnswer(category: .stage, label: "Stage 3 of 12", stage: 3))
    }

    @Test func aPixelOutsideTheFrameIsRefusedNamingTheField() {
        let frame = Self.frame(Scene.Overlays())
        #expect(throws: ExplainedFrame.PixelOutside.self) { try frame.hit(x: 320, y: 0, slop: 0) }
        do {
            _ = try frame.hit(x: 10, y: -1, slop: 0)
            Issue.record("a negative y was accepted")
        } catch {
            #expect(error.description == "y: -1 is outside the frame; allowed 0...479")
        }
    }

    /// The index must answer exactly what testing every shape answers, at every third pixel,
    /// for a dense route crossing markers, photos and a ring, with and without slop.
    @Test(arguments: [0.0, 6.0]) func theIndexAgreesWithAScanOfEveryShape(slop: Double) throws {
        var points: [Coordinate] = []
        for step in 0..<1000 {
            let t = Double(step) / 1000
            points.append(Coordinate(latitude: 52.2040 + 0.007 * t, longitude: 0.1380 + 0.006 * sin(t * 40)))
        }
        let photos = (0..<20).map { Photo(id: $0, coordinate: points[$0 * 50], caption: nil) }
        let frame = Self.frame(Scene.Overlays(
            start: points[0], finish: points[points.count - 1], route: RouteLine(points), photos: photos,
            location: LocationFix(coordinate: Self.centre, accuracyMetres: 30)
        ))
        let index = frame.hitIndex(slop: slop)
        var disagreements = 0, onElements = 0
        for y in stride(from: 0.5, to: 480, by: 3) {
            for x in stride(from: 0.5, to: 320, by: 3) {
                let point = PixelPoint(x: x, y: y)
                let indexed = index.topmost(at: point)
                if indexed != HitIndex.scan(frame.elements, at: point, slop: slop) { disagreements += 1 }
                if indexed != nil { onElements += 1 }
            }
        }
        #expect(disagreements == 0)
        #expect(onElements > 1_000)
    }
}
