import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import PhoneScreen
import Testing
import TileStore

/// A route of two parts: a line across the top of the frame and another across the bottom,
/// with a gap between where a joining line would run if the parts were drawn as one.
@Suite("A route of several parts")
struct MultiPartRouteTests {
    /// Part one from (40, 100) to (140, 100); part two from (180, 380) to (280, 380), in device
    /// pixels of `fixedScene()`. The pixel centres lie on the half pixel, so each line covers
    /// rows 98...101 and 378...381 wholly.
    static func twoParts(in frame: FrameGeometry) -> RouteLine {
        let point = { (x: Double, y: Double) in frame.coordinate(at: PixelPoint(x: x, y: y)) }
        return RouteLine(parts: [[point(40, 100), point(140, 100)], [point(180, 380), point(280, 380)]])!
    }

    @Test("each part is drawn, and nothing joins the end of one to the start of the next")
    func drawsEachPartAndNoJoin() throws {
        var scene = fixedScene()
        let frame = geometry(of: scene)
        scene.overlays.route = Self.twoParts(in: frame)
        let image = try render(scene, over: SolidTiles(Background.white)).canvas.image()
        let line = blend(Spec.routeColour, alpha: Spec.routeAlpha, over: Background.white)

        for x in stride(from: 45, through: 135, by: 10) {
            #expect(isNear(image.pixel(x: x, y: 99), line), "part one at (\(x), 99) is \(image.pixel(x: x, y: 99))")
        }
        for x in stride(from: 185, through: 275, by: 10) {
            #expect(isNear(image.pixel(x: x, y: 379), line), "part two at (\(x), 379) is \(image.pixel(x: x, y: 379))")
        }
        // Where a line from (140, 100) to (180, 380) would run, clear of both ends' pixels.
        let join: [(x: Int, y: Int)] = stride(from: 0.05, through: 0.95, by: 0.01).map { (t: Double) in
            (x: Int(140.0 + 40.0 * t), y: Int(100.0 + 280.0 * t))
        }
        let coloured = join.filter { image.pixel(x: $0.x, y: $0.y) != Background.white }
        #expect(coloured.isEmpty, "the parts are joined at \(coloured)")
        // Only the two parts are coloured: each is 100 x 4 px, give or take its anti-aliased edges.
        let routePixels = image.pixels { $0 != Background.white }
        #expect((800...840).contains(routePixels.count), "\(routePixels.count) pixels are coloured")
    }

    @Test("the parts are one route element, whose shape holds both lines and not the gap")
    func oneElement() throws {
        var scene = fixedScene()
        let frame = geometry(of: scene)
        scene.overlays.route = Self.twoParts(in: frame)
        let source = try style(scene.style)
        let elements = FrameRenderer.elements(for: scene, geometry: frame, tileSet: source.tileSet)
        #expect(elements.map(\.category) == [.route])
        let shape = try #require(elements.first?.shape)
        #expect(shape.contains(PixelPoint(x: 90, y: 100)) && shape.contains(PixelPoint(x: 230, y: 380)))
        #expect(!shape.contains(PixelPoint(x: 160, y: 240)))
        #expect(shape.bounds == PixelRect(minX: 38, minY: 98, maxX: 282, maxY: 382))
    }

    @Test("fitting shows every part")
    func fittingShowsEveryPart() throws {
        let far = RouteLine(parts: [
            [Coordinate(latitude: 52.20, longitude: 0.10), Coordinate(latitude: 52.21, longitude: 0.11)],
            [Coordinate(latitude: 52.25, longitude: 0.20), Coordinate(latitude: 52.26, longitude: 0.21)],
        ])!
        let scene = Scene(viewport: Viewport(width: 320, height: 480), camera: .fitAll(padding: 24), route: far, attribution: .hidden)
        let frame = FrameRenderer.geometry(for: scene, tileSet: try style("osm").tileSet)
        for point in far.points {
            let pixel = frame.pixel(for: point)
            #expect((24...296).contains(pixel.x) && (24...456).contains(pixel.y), "\(point) is at \(pixel)")
        }
        let onlyTheFirst = Scene(viewport: scene.viewport, camera: .fitAll(padding: 24), route: RouteLine(far.parts[0]), attribution: .hidden)
        #expect(FrameRenderer.geometry(for: onlyTheFirst, tileSet: try style("osm").tileSet).camera.zoom > frame.camera.zoom)
    }

    @Test("a tile that only the gap crosses is not touched by the route")
    func gapTouchesNoTile() throws {
        let big = geometry(of: fixedScene())
        let painter = RoutePainter(route: Self.twoParts(in: big))
        func tile(atX x: Double, y: Double) -> FrameGeometry {
            FrameGeometry(origin: PixelPoint(x: big.origin.x + x, y: big.origin.y + y), zoom: 16, viewport: Viewport(width: 32, height: 32, scale: 1))
        }
        #expect(!painter.touches(tile(atX: 144, y: 224), theme: .cycleStreets), "the middle of the gap")
        #expect(painter.touches(tile(atX: 60, y: 84), theme: .cycleStreets), "part one")
        #expect(painter.touches(tile(atX: 200, y: 364), theme: .cycleStreets), "part two")
    }
}
