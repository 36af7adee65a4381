import Foundation
import FramePipeline
import FrameRequest
import GoldenCheck
import ImageCodec
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Testing
import TileStore

/// The golden comparison itself: it must tolerate anti-aliasing noise and catch an overlay
/// that moves by 2 px or changes colour.
@Suite struct GoldenHarnessTests {
    func render(_ scene: Scene) async throws -> Frame<RasterImage> {
        try await GoldenSupport.pipeline.render(scene, as: .pixels)
    }

    /// The same scene with one point moved by `dx` device pixels to the right.
    func moved(_ coordinate: Coordinate, byPixels dx: Double, in frame: FrameGeometry) -> Coordinate {
        let pixel = frame.pixel(for: coordinate)
        return frame.coordinate(at: PixelPoint(x: pixel.x + dx, y: pixel.y))
    }

    /// Pins the camera so that moving an overlay cannot move the map under it.
    func fixedCamera(_ scene: Scene) async throws -> (Scene, FrameGeometry) {
        let frame = try await render(scene)
        var pinned = scene
        pinned.camera = .fixed(frame.geometry.camera)
        return (pinned, try await render(pinned).geometry)
    }

    @Test func identicalFramesMatch() async throws {
        let scene = try GoldenSupport.scene(named: "route-planned")
        let comparison = ImageComparison(expected: try await render(scene).output, actual: try await render(scene).output)
        #expect(comparison.matches)
        #expect(comparison.differingPixels == 0)
    }

    @Test func antiAliasingNoiseIsTolerated() async throws {
        let image = try await render(GoldenSupport.scene(named: "route-planned")).output
        // Every channel of every pixel nudged by up to ±3 levels, as a different rasteriser might.
        var generator = SystemRandomNumberGenerator()
        var words = [UInt32](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let colour = image.pixel(x: x, y: y)
                func nudge(_ value: UInt8) -> UInt8 { UInt8(clamping: Int(value) + Int.random(in: -3...3, using: &generator)) }
                words[y * image.width + x] = RasterImage.premultipliedWord(Colour(redLevel: nudge(colour.redLevel), greenLevel: nudge(colour.greenLevel), blueLevel: nudge(colour.blueLevel)))
            }
        }
        let noisy = words.withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: image.width, height: image.height, stride: image.width * 4) }
        let comparison = ImageComparison(expected: image, actual: noisy)
        #expect(comparison.matches, "\(comparison.summary)")
    }

    @Test func startMarkerMovedTwoPixelsFails() async throws {
        let (scene, frame) = try await fixedCamera(GoldenSupport.scene(named: "start-and-finish"))
        var shifted = scene
        shifted.overlays.start = moved(scene.overlays.start!, byPixels: 2, in: frame)
        let comparison = ImageComparison(expected: try await render(scene).output, actual: try await render(shifted).output)
        #expect(!comparison.matches, "\(comparison.summary)")
    }

    @Test func routeMovedTwoPixelsFails() async throws {
        let (scene, frame) = try await fixedCamera(GoldenSupport.scene(named: "route-planned"))
        var shifted = scene
        let route = try #require(scene.overlays.route)
        shifted.overlays.route = RouteLine(parts: route.parts.map { $0.map { moved($0, byPixels: 2, in: frame) } })
        let comparison = ImageComparison(expected: try await render(scene).output, actual: try await render(shifted).output)
        #expect(!comparison.matches, "\(comparison.summary)")
    }

    /// The smallest overlay: this figure is what the default pixel-fraction tolerance is set below.
    @Test func photoPinMovedTwoPixelsFails() async throws {
        let base = try GoldenSupport.scene(named: "photomap-pins")
        let (scene, frame) = try await fixedCamera(base)
        var shifted = scene
        shifted.overlays.photos[0].coordinate = moved(scene.overlays.photos[0].coordinate, byPixels: 2, in: frame)
        let comparison = ImageComparison(expected: try await render(scene).output, actual: try await render(shifted).output)
        #expect(!comparison.matches, "\(comparison.summary)")
        #expect(comparison.differingFraction > 2 * GoldenTolerance.standard.pixelFraction, "\(comparison.summary)")
    }

    @Test func routeColourChangeFails() async throws {
        let (scene, frame) = try await fixedCamera(GoldenSupport.scene(named: "route-planned"))
        let expected = try await render(scene).output

        /// The scene without its line, with the line drawn on top in `style`.
        func redrawn(with style: RouteStyle) async throws -> RasterImage {
            var withoutRoute = scene
            withoutRoute.overlays.route = nil
            withoutRoute.overlays.attribution = .hidden
            let base = try await render(withoutRoute).output
            let canvas = Canvas(width: base.width, height: base.height)
            canvas.draw(base, in: PixelRect(minX: 0, minY: 0, maxX: Double(base.width), maxY: Double(base.height)))
            var theme = Theme.cycleStreets
            theme[RouteStyle.self] = style
            let context = DrawingContext(canvas: canvas, frame: frame, theme: theme)
            RoutePainter(route: try #require(scene.overlays.route)).draw(in: context)
            AttributionPainter(text: "© OpenStreetMap contributors").draw(in: context)
            return canvas.image()
        }

        // Redrawing with the spec's style reproduces the frame, so only the colour differs below.
        #expect(ImageComparison(expected: expected, actual: try await redrawn(with: .cycleStreets)).matches)
        var red = RouteStyle.cycleStreets
        red.colour = Colour(red: 1, green: 0.2, blue: 0.2)
        let comparison = ImageComparison(expected: expected, actual: try await redrawn(with: red))
        #expect(!comparison.matches, "\(comparison.summary)")
    }

    @Test func sizeChangeFails() async throws {
        let scene = try GoldenSupport.scene(named: "cleared-initial")
        var wider = scene
        wider.viewport.width += 2
        let comparison = ImageComparison(expected: try await render(scene).output, actual: try await render(wider).output)
        #expect(!comparison.matches)
        #expect(comparison.summary.contains("size differs"))
    }

    @Test func failuresLeaveActualDiffAndReport() async throws {
        let scene = try GoldenSupport.scene(named: "start-set")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("golden-harness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenes = directory.appendingPathComponent("scenes"), goldens = directory.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: GoldenSupport.scenes.appendingPathComponent("start-set.json"), to: scenes.appendingPathComponent("start-set.json"))
        var shiftedScene = scene
        let (_, frame) = try await fixedCamera(scene)
        shiftedScene.overlays.start = moved(scene.overlays.start!, byPixels: 2, in: frame)
        // The "golden" is the shifted frame, so the real scene no longer matches it.
        let shifted = try await render(shiftedScene).output
        let suite = GoldenSuite(scenesDirectory: scenes, goldensDirectory: goldens) { url in
            try await GoldenSupport.pipeline.render(SceneFile.load(url, catalog: .builtin), as: .pixels).output
        }
        try await suite.record()
        try shifted.pngData().write(to: suite.goldenURL(for: "start-set"))
        let results = try await suite.check()
        #expect(results.count == 1 && !results[0].passed)
        #expect(results[0].summary.contains("pixels differ"))
        let failures = directory.appendingPathComponent("failures")
        try GoldenSuite.writeFailures(results, to: failures)
        #expect(FileManager.default.fileExists(atPath: failures.appendingPathComponent("start-set.actual.png").path))
        #expect(FileManager.default.fileExists(atPath: failures.appendingPathComponent("start-set.diff.png").path))
        let html = GoldenReport.html(for: results)
        #expect(html.contains("Expected") && html.contains("Actual") && html.contains("Diff"))
        #expect(html.components(separatedBy: "data:image/png;base64,").count == 4)
    }
}
