import Foundation
import FramePipeline
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import Screens
import Testing
import TileStore

/// What the high-contrast and categories themes promise, checked on frames over the fixture tiles.
@Suite struct ThemeTests {
    /// Every colour the categories theme may put in a frame: the palette's and the two inks.
    static let categoryColours = Set(ElementKind.legendOrder(screen: ElementKind.phoneScreenLegendOrder).map(\.paletteColour.quantised) + [CategoryPalette.ink.quantised, CategoryPalette.inkOnDark.quantised])

    static func colours(of image: RasterImage) -> [Colour: Int] {
        var counts: [Colour: Int] = [:]
        image.withRows { _, words in
            for word in words { counts[RasterImage.colour(ofPremultipliedWord: word), default: 0] += 1 }
        }
        return counts
    }

    @Test(arguments: ["categories-route-planned", "categories-geolocating", "categories-photomap", "categories-chrome", "categories-markers", "categories-paths", "categories-geojson"])
    func categoriesFramesHoldOnlyThePalette(scene name: String) async throws {
        var scene = try GoldenSupport.scene(named: name)
        for scale in [1, 2] {
            scene.viewport.scale = scale
            let image = try await GoldenSupport.pipeline.render(scene, as: .pixels).output
            let strays = Self.colours(of: image).filter { !Self.categoryColours.contains($0.key) }
            #expect(strays.isEmpty, "\(name) at scale \(scale): colours outside the palette: \(strays.sorted { $0.value > $1.value }.prefix(5))")
        }
    }

    @Test func categoriesScriptFramesHoldOnlyThePalette() async throws {
        let script = try ScriptParser.load(contentsOf: GoldenSupport.scenes.appendingPathComponent("scripts/categories-itinerary.json"), styles: [
            "osm": try #require(StyleCatalog.builtin["osm"]).tileSet.zoomRange,
        ])
        for scene in try ScriptPlayer.run(script).scenes(of: script) {
            let image = try await GoldenSupport.pipeline.render(scene, as: .pixels).output
            #expect(Self.colours(of: image).keys.allSatisfy(Self.categoryColours.contains))
        }
    }

    /// The basemap keeps its roads: each fixture street and main road that is white or
    /// yellow in the tiles is grey in the categories frame, and nothing else is.
    @Test func roadsAreWhereTheTilesDrawThem() async throws {
        var scene = try GoldenSupport.scene(named: "cleared-initial")
        scene.overlays.attribution = .hidden
        let tiles = try await GoldenSupport.pipeline.render(scene, as: .pixels).output
        scene.theme = .categories
        let flat = try await GoldenSupport.pipeline.render(scene, as: .pixels).output
        let roads = ElementKind.roads.paletteColour.quantised, background = ElementKind.basemap.paletteColour.quantised
        var roadPixels = 0
        for y in 0..<tiles.height {
            for x in 0..<tiles.width {
                let expected = RoadPixels.isRoad(tiles.pixel(x: x, y: y)) ? roads : background
                #expect(flat.pixel(x: x, y: y) == expected, "(\(x), \(y)): \(tiles.pixel(x: x, y: y))")
                if expected == roads { roadPixels += 1 }
            }
        }
        // The fixture town's streets cover a good part of the map, and are not all of it.
        let share = Double(roadPixels) / Double(tiles.width * tiles.height)
        #expect(share > 0.1 && share < 0.5, "roads are \(share) of the frame")
    }

    @Test func highContrastMarkersAreOneAndAHalfTimesTheApps() throws {
        let scene = try GoldenSupport.scene(named: "high-contrast-route-planned")
        let source = try #require(StyleCatalog.builtin["osm"])
        let elements = FrameRenderer.elements(for: scene, geometry: FrameRenderer.geometry(for: scene, tileSet: source.tileSet), tileSet: source.tileSet)
        for marker in elements where marker.category == .start || marker.category == .finish {
            #expect(marker.shape.bounds.width == 1.5 * 66 && marker.shape.bounds.height == 1.5 * 62, "\(marker)")
        }
        let route = try #require(elements.first { $0.category == .route })
        guard case .polylines(_, let width) = route.shape else {
            Issue.record("the route's shape is not a line: \(route.shape)")
            return
        }
        #expect(width == 10, "6 px of line and 2 px of casing each side")
    }

    /// Start and finish differ by shape and letter, not only by colour: drawn in one colour,
    /// their outlines still differ, the finish's square head filling the round head's corners.
    @Test func highContrastStartAndFinishDifferInShape() {
        func silhouette(_ role: WispMarkerPainter.Role) -> RasterImage {
            var theme = Theme.highContrast
            theme[WispMarkerStyles.self].start.fill = .black
            theme[WispMarkerStyles.self].finish.fill = .black
            let frame = FrameGeometry(camera: Camera(center: Coordinate(latitude: 52.2, longitude: 0.14), zoom: 16), viewport: Viewport(width: 120, height: 120))
            let canvas = Canvas(width: 120, height: 120)
            WispMarkerPainter(coordinate: frame.coordinate(at: PixelPoint(x: 30, y: 110)), role: role).draw(in: DrawingContext(canvas: canvas, frame: frame, theme: theme))
            return canvas.image()
        }
        let start = silhouette(.start), finish = silhouette(.finish)
        var differing = 0
        for y in 0..<120 {
            for x in 0..<120 where (start.pixel(x: x, y: y).alphaLevel > 127) != (finish.pixel(x: x, y: y).alphaLevel > 127) { differing += 1 }
        }
        #expect(differing > 150, "only \(differing) pixels tell the silhouettes apart")
        #expect(Theme.highContrast[WispMarkerStyles.self].start.letter == "S" && Theme.highContrast[WispMarkerStyles.self].finish.letter == "F")
    }

    @Test func themesByName() {
        #expect(Theme.Name.allowed == "cyclestreets, high-contrast, categories")
        #expect(Theme.Name(rawValue: "cyclestreets")?.theme == .cycleStreets)
        #expect(Theme.highContrast != .cycleStreets && Theme.categories != .cycleStreets)
    }
}
