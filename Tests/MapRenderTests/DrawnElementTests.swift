import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Testing
import TileStore
import Wording

/// The elements painters report, checked against SPEC.md's numbers (`Spec`), not the styles.
@Suite("The shapes and labels of drawn elements")
struct DrawnElementTests {
    func elements(_ scene: Scene) throws -> [DrawnElement] {
        let source = try style(scene.style)
        return FrameRenderer.elements(for: scene, geometry: FrameRenderer.geometry(for: scene, tileSet: source.tileSet), tileSet: source.tileSet)
    }

    @Test("the route is a polyline 4 px wide at scale 1 and 8 px at scale 2 through its points", arguments: [1, 2])
    func routeWidth(scale: Int) throws {
        let route = [Places.cambridge, Coordinate(latitude: 52.2075, longitude: 0.1434), Coordinate(latitude: 52.2080, longitude: 0.1380)]
        let scene = fixedScene(scale: scale, route: route)
        let found = try elements(scene)
        let line = try #require(found.first { $0.category == .route })
        #expect(line.label.britishEnglish == "Route")
        let frame = geometry(of: scene)
        #expect(line.shape == .polylines([route.map(frame.pixel(for:))], width: Spec.routeWidth * Double(scale)))
    }

    @Test("a wisp's box reaches 15 px left, 51 right, 56 up and 6 down from its tip, times the scale", arguments: [1, 2])
    func wispBox(scale: Int) throws {
        let finish = Coordinate(latitude: 52.2070, longitude: 0.1450)
        let scene = fixedScene(scale: scale, start: Places.cambridge, finish: finish)
        let frame = geometry(of: scene)
        let found = try elements(scene)
        #expect(found.map(\.label.britishEnglish) == ["Start marker", "Finish marker"])
        for (element, point) in zip(found, [Places.cambridge, finish]) {
            let tip = anchorPixel(of: point, in: frame), s = Double(scale), e = Spec.wispExtent
            #expect(element.shape == .box(PixelRect(
                minX: Double(tip.x) - Double(e.left) * s, minY: Double(tip.y) - Double(e.above) * s,
                maxX: Double(tip.x) + Double(e.right) * s, maxY: Double(tip.y) + Double(e.below) * s
            )))
        }
    }

    @Test("the location ring runs from r to 2r, r = accuracy / metres per device pixel", arguments: [(16.0, 1), (15, 2)])
    func locationRing(zoom: Double, scale: Int) throws {
        let fix = LocationFix(coordinate: Places.cambridge, accuracyMetres: 65)
        let scene = fixedScene(zoom: zoom, scale: scale, location: fix)
        let ring = try #require(try elements(scene).first)
        #expect(ring.category == .location && ring.label.britishEnglish == "Your location, accurate to 65 metres")
        let r = 65 / (Spec.metresPerPixel(latitude: Places.cambridge.latitude, zoom: zoom) / Double(scale))
        guard case .ring(let center, let inner, let outer) = ring.shape else {
            Issue.record("not a ring: \(ring.shape)")
            return
        }
        #expect(abs(inner - r) < 1e-6 && abs(outer - 2 * r) < 1e-6)
        #expect(center == geometry(of: scene).pixel(for: Places.cambridge))
    }

    @Test("a photo pin is a 32 x 37 px box with its tip inside, labelled with its number and caption")
    func photoPin() throws {
        let photo = Photo(id: 12, coordinate: Places.cambridge, caption: "Cycle parking")
        let scene = Scene(
            viewport: Viewport(width: 320, height: 480), camera: .fixed(Camera(center: Places.cambridge, zoom: 16)),
            photos: [photo, Photo(id: 13, coordinate: Places.cambridge)], attribution: .hidden
        )
        let found = try elements(scene)
        #expect(found.map(\.label.britishEnglish) == ["Photo 12: Cycle parking", "Photo 13"])
        #expect(found.map(\.id) == ["12", "13"])
        let box = found[0].shape.bounds
        #expect(box.width == Double(Spec.photoPinSize.width) && box.height == Double(Spec.photoPinSize.height))
        #expect(found[0].shape.contains(geometry(of: scene).pixel(for: Places.cambridge)))
    }

    @Test("elements come bottom to top in the spec's z-order, the attribution's box as drawn")
    func zOrder() throws {
        let scene = Scene(
            viewport: Viewport(width: 320, height: 480), camera: .fixed(Camera(center: Places.cambridge, zoom: 16)),
            start: Places.cambridge, finish: Coordinate(latitude: 52.2070, longitude: 0.1450),
            route: RouteLine([Places.cambridge, Coordinate(latitude: 52.2070, longitude: 0.1450)]),
            photos: [Photo(id: 1, coordinate: Places.cambridge)], location: LocationFix(coordinate: Places.cambridge, accuracyMetres: 30),
            attribution: .current,
            emphasisedStage: EmphasisedStage(number: 2, count: 5, points: [Places.cambridge, Coordinate(latitude: 52.2070, longitude: 0.1450)])
        )
        let found = try elements(scene)
        #expect(found.map(\.category) == [.location, .photo, .start, .finish, .route, .stage, .attribution, .counter])
        #expect(found[5].label.britishEnglish == "Stage 2 of 5" && found[7].label.britishEnglish == "Stage 2 of 5")
        let attribution = AttributionPainter(text: try style("osm").tileSet.attribution)
            .layout(on: Canvas(width: 320, height: 480), frame: geometry(of: scene)).box
        #expect(found[6].shape == .box(attribution))
        #expect(found[6].label.britishEnglish == "Map attribution: © OpenStreetMap contributors")
        // A hit-test takes the topmost element under the point: the start marker's tip is under
        // the route, and the emphasised stage over both; the location ring leaves its centre open.
        let tip = geometry(of: scene).pixel(for: Places.cambridge)
        #expect(found.filter { $0.shape.contains(tip) }.map(\.category) == [.photo, .start, .route, .stage])
        #expect(found.last { $0.shape.contains(tip) }?.category == .stage)
    }

    @Test("with chrome, the map's elements move down by the bars and the chrome reports its buttons and tabs", arguments: [1, 2])
    func chrome(scale: Int) throws {
        let chrome = PhoneChrome.journeyPlanner(commentary: PhoneChrome.Commentary(Phrase(.setFinish), isButton: false), enabled: [.geolocate, .zoomIn])
        var scene = fixedScene(scale: scale, start: Places.cambridge)
        scene.chrome = chrome
        let found = try elements(scene)
        let panel = FrameRenderer.geometry(for: scene, tileSet: try style("osm").tileSet)
        let s = Double(scale)
        let start = try #require(found.first { $0.category == .start })
        let tip = panel.pixel(for: Places.cambridge)
        #expect(start.shape.contains(PixelPoint(x: tip.x.rounded(), y: tip.y.rounded() + 64 * s)))

        let buttons = found.filter { $0.category == .button }
        #expect(buttons.map(\.id) == ["geolocate", "placefinder", "stepBack", "zoomIn", "zoomOut"])
        #expect(buttons.map(\.label.britishEnglish) == ["Find my location", "Placefinder, unavailable", "Step back, unavailable", "Zoom in", "Zoom out, unavailable"])
        for button in buttons {
            // The toolbar lies between the 20 px status bar and the map panel at 64 px.
            #expect(button.shape.bounds.minY >= 20 * s && button.shape.bounds.maxY <= 64 * s)
        }
        #expect(found.first { $0.category == .commentary }?.label.britishEnglish == "Set finish")
        let tabs = found.filter { $0.category == .tab }
        #expect(tabs.count == 5 && tabs.filter { $0.label.britishEnglish.hasSuffix(", selected") }.map(\.id) == ["planRoute"])
        #expect(tabs.allSatisfy { $0.shape.bounds.maxY == 480 * s && $0.shape.bounds.height == 49 * s })
    }

    @Test("painters take their style from the theme they draw in")
    func theme() throws {
        var wide = Theme.cycleStreets
        wide[RouteStyle.self].width = 10
        wide[RouteStyle.self].colour = Colour(red: 1, green: 0, blue: 0)
        let y = 240.0
        var scene = fixedScene()
        let frame = geometry(of: scene)
        scene.overlays.route = RouteLine([frame.coordinate(at: PixelPoint(x: 0, y: y)), frame.coordinate(at: PixelPoint(x: 320, y: y))])
        var themed = scene
        themed.theme = wide
        guard case .polylines(_, let width)? = try elements(themed).first?.shape else {
            Issue.record("no route")
            return
        }
        #expect(width == 10)
        let image = try render(themed, over: SolidTiles(Background.white)).canvas.image()
        // 4 px below the line's centre: outside the spec's 4 px line, inside the theme's 10 px one.
        #expect(isNear(image.pixel(x: 160, y: Int(y) + 4), blend(Colour(redLevel: 255, greenLevel: 0, blueLevel: 0), alpha: 0.6, over: Background.white)))
        let plain = try render(scene, over: SolidTiles(Background.white)).canvas.image()
        #expect(plain.pixel(x: 160, y: Int(y) + 4) == Background.white)
    }

    /// A kind of overlay the renderer has never heard of: a box in the frame's top-left corner.
    struct Marker: OverlayPainter, SceneLayer {
        var size: Double

        func draw(in context: DrawingContext) {
            context.canvas.fill(PixelRect(minX: 0, minY: 0, maxX: size, maxY: size), with: Colour(red: 1, green: 0, blue: 0))
        }

        func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
            [DrawnElement(.commentary, label: .text("Test box"), shape: .box(PixelRect(minX: 0, minY: 0, maxX: size, maxY: size)))]
        }
    }

    @Test("a new kind of layer is drawn and described without changing the renderer")
    func openLayers() throws {
        var scene = fixedScene(start: Places.cambridge)
        scene.layers.append(Marker(size: 10))
        let image = try render(scene, over: SolidTiles(Background.white)).canvas.image()
        #expect(image.pixel(x: 5, y: 5) == Colour(redLevel: 255, greenLevel: 0, blueLevel: 0))
        #expect(try elements(scene).map(\.label.britishEnglish) == ["Start marker", "Test box"])
        // Setting the app's overlays lays them out again under the new layer, which is kept.
        scene.overlays.finish = Coordinate(latitude: 52.2070, longitude: 0.1450)
        #expect(try elements(scene).map(\.label.britishEnglish) == ["Start marker", "Finish marker", "Test box"])
        #expect(scene == scene && scene != fixedScene(start: Places.cambridge))
    }
}

@Suite("Hit shapes")
struct HitShapeTests {
    @Test func shapesContainWhatTheyCover() {
        let line = HitShape.polylines([[PixelPoint(x: 0, y: 10), PixelPoint(x: 100, y: 10), PixelPoint(x: 100, y: 50)]], width: 4)
        #expect(line.contains(PixelPoint(x: 50, y: 11.9)) && !line.contains(PixelPoint(x: 50, y: 12.1)))
        #expect(line.contains(PixelPoint(x: 101.5, y: 30)) && !line.contains(PixelPoint(x: 50, y: 30)))
        #expect(line.bounds == PixelRect(minX: -2, minY: 8, maxX: 102, maxY: 52))
        let ring = HitShape.ring(center: PixelPoint(x: 0, y: 0), innerRadius: 10, outerRadius: 20)
        #expect(!ring.contains(PixelPoint(x: 5, y: 0)) && ring.contains(PixelPoint(x: 0, y: 15)) && !ring.contains(PixelPoint(x: 21, y: 0)))
        #expect(HitShape.circle(center: PixelPoint(x: 0, y: 0), radius: 3).contains(PixelPoint(x: 2, y: 2)))
        let box = HitShape.box(PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 5))
        #expect(box.contains(PixelPoint(x: 10, y: 5)) && !box.contains(PixelPoint(x: 10, y: 5.5)))
        #expect(box.offsetBy(dx: 1, dy: 2) == .box(PixelRect(minX: 1, minY: 2, maxX: 11, maxY: 7)))
    }
}
