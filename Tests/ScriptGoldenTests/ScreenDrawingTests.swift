import Foundation
import FrameRequest
import GoldenCheck
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import Screens
import Testing
import TileStore
import Wording

/// How screen states become frames: the map panel inside the chrome, the chrome's states, the
/// emphasised stage, and scene files with `"chrome": true`.
@Suite struct ScreenDrawingTests {
    let style = PhoneChromeStyle.cycleStreets

    /// Whether two colours are within `levels` in every channel, `expected` taken as opaque.
    func close(_ colour: Colour, _ expected: Colour, within levels: Int = 3) -> Bool {
        colour.maxChannelDifference(to: Colour(red: expected.red, green: expected.green, blue: expected.blue)) <= levels
    }

    @Test func chromeFramesAreTheWholeScreenWithTheMapPanelBetweenTheBars() async throws {
        let (script, run) = try ScriptGoldens.play("chrome-planner")
        #expect(run.layout.frameViewport == Viewport(width: 320, height: 480))
        #expect(run.layout.mapPanelViewport == Viewport(width: 320, height: 367))
        let state = run.frames[3].state
        let scene = state.scene(layout: run.layout, style: script.style, theme: script.theme)
        #expect(scene.viewport == run.layout.frameViewport && scene.mapPanelViewport == run.layout.mapPanelViewport)
        #expect(scene.mapPanelTop == run.layout.mapPanelTop && scene.mapPanelTop == 64)

        let framed = try await ScriptGoldens.image(of: scene)
        #expect(framed.width == 320 && framed.height == 480)
        // The same state in a bare 320 x 367 frame is exactly the chrome frame's map panel.
        let bare = try await ScriptGoldens.image(of: state.scene(layout: ScreenLayout(width: 320, height: 367), style: script.style, theme: script.theme))
        let panel = RasterImage(copying: framed.pixels + 64 * framed.stride, width: 320, height: 367, stride: framed.stride)
        let comparison = ImageComparison(expected: bare, actual: panel, tolerance: GoldenTolerance(channel: 0, pixelFraction: 0))
        #expect(comparison.matches, "\(comparison.summary)")
    }

    @Test func withoutChromeTheFrameIsTheMapPanel() throws {
        let (script, run) = try ScriptGoldens.play("three-taps")
        let scene = run.frames[0].state.scene(layout: run.layout, style: script.style, theme: script.theme)
        #expect(scene.chrome == nil && scene.mapPanelViewport == Viewport(width: 320, height: 480) && scene.mapPanelTop == 0)
    }

    @Test func disabledButtonsAreFadedAndTheActiveTabIsBlue() async throws {
        let (script, run) = try ScriptGoldens.play("chrome-planner")
        let images = try await ScriptGoldens.images(of: run, script: script)
        let cleared = run.frames[0].state, startSet = run.frames[1].state
        #expect(!cleared.enabledButtons.contains(.stepBack) && startSet.enabledButtons.contains(.stepBack))

        // A point inside the step-back button, clear of its glyph.
        let toolbar = ToolbarPainter(chrome: cleared.chrome).layout(frameWidth: 320)
        let stepBack = toolbar.leadingButtons[2]
        let x = Int(stepBack.minX) + 3, y = Int(stepBack.center.y)
        #expect(close(images[1].pixel(x: x, y: y), style.buttonFill), "enabled: \(images[1].pixel(x: x, y: y))")
        #expect(!close(images[0].pixel(x: x, y: y), style.buttonFill, within: 12), "disabled: \(images[0].pixel(x: x, y: y))")
        #expect(!close(images[0].pixel(x: x, y: y), style.toolbarBackground, within: 3), "a disabled button still shows")

        let slots = TabBarPainter(activeTab: .planRoute).slots(frameWidth: 320, frameHeight: 480)
        func tabPixel(_ image: RasterImage, _ tab: PhoneChrome.Tab) -> Colour {
            let slot = slots.first { $0.tab == tab }!.rect
            return image.pixel(x: Int(slot.minX) + 5, y: Int(slot.minY) + 6)
        }
        #expect(close(tabPixel(images[0], .planRoute), style.activeTabBackground))
        #expect(close(tabPixel(images[0], .photomap), style.tabBarBackground))

        let (photoScript, photoRun) = try ScriptGoldens.play("photomap")
        let photoFrame = try await ScriptGoldens.images(of: photoRun, script: photoScript)[1]
        #expect(close(tabPixel(photoFrame, .photomap), style.activeTabBackground))
        #expect(close(tabPixel(photoFrame, .planRoute), style.tabBarBackground))
    }

    @Test func theCommentaryBecomesAButtonOnceBothMarkersAreSet() throws {
        let (_, run) = try ScriptGoldens.play("chrome-planner")
        let commentaries = run.frames.map { $0.state.chrome.commentary }
        #expect(commentaries == [
            PhoneChrome.Commentary(Phrase(.setStart), isButton: false), PhoneChrome.Commentary(Phrase(.setFinish), isButton: false),
            PhoneChrome.Commentary(Phrase(.planRoute), isButton: true), PhoneChrome.Commentary(Phrase(.newRoute), isButton: true),
        ])
        #expect(run.frames.allSatisfy { $0.state.chrome.activeTab == .planRoute })
    }

    @Test func theEmphasisedStageIsDrawnOpaqueOverTheRoute() async throws {
        let (script, run) = try ScriptGoldens.play("itinerary-stage")
        let frame = run.frames[4]
        let stage = try #require(frame.state.emphasisedStage)
        let image = try await ScriptGoldens.image(of: frame.state.scene(layout: run.layout, style: script.style, theme: script.theme))
        let geometry = FrameGeometry(camera: frame.state.camera, viewport: run.layout.mapPanelViewport)
        // Midway along the stage's first leg: the stage colour, opaque, whatever the map beneath.
        let a = geometry.pixel(for: stage.points[0]), b = geometry.pixel(for: stage.points[1])
        let colour = image.pixel(x: Int((a.x + b.x) / 2), y: Int((a.y + b.y) / 2) + run.layout.mapPanelTop)
        #expect(close(colour, StageEmphasisStyle.cycleStreets.colour), "\(colour)")
        #expect(StageEmphasisStyle.cycleStreets.colour == RouteStyle.cycleStreets.colour)
    }

    @Test func retinaScriptsDoubleEveryPixel() async throws {
        let (script, run) = try ScriptGoldens.play("chrome-retina")
        #expect(run.layout.scale == 2)
        let image = try await ScriptGoldens.image(of: run.frames[0].state.scene(layout: run.layout, style: script.style, theme: script.theme))
        #expect(image.width == 640 && image.height == 960)
    }

    /// A scene file with `"chrome": true` shows the same chrome the journey planner's state does,
    /// in every phase: the two sets of rules agree.
    @Test func sceneFileChromeAgreesWithTheJourneyPlanner() throws {
        let (_, run) = try ScriptGoldens.play("chrome-planner")
        for frame in run.frames {
            let state = frame.state
            func point(_ coordinate: Coordinate?) -> String {
                coordinate.map { #", "\#($0 == state.start ? "start" : "finish")": {"lat": \#($0.latitude), "lon": \#($0.longitude)}"# } ?? ""
            }
            let route = state.routeLine.map { line in
                #", "route": {"coordinates": [\#(line.points.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", "))]}"#
            } ?? ""
            let json = """
                {"chrome": true, "camera": {"center": {"lat": \(state.camera.center.latitude), "lon": \(state.camera.center.longitude)}, \
                "zoom": \(state.camera.zoom)}\(point(state.start))\(point(state.finish))\(route)}
                """
            let scene = try SceneFile.parse(Data(json.utf8), name: "chrome.json", catalog: .builtin)
            #expect(scene.chrome as? PhoneChrome == state.chrome, "step \(frame.log.step): \(json)")
            #expect(scene.mapPanelViewport == run.layout.mapPanelViewport)
        }
    }

    @Test func sceneFilesCheckTheChromeField() throws {
        let camera = #""camera": {"center": {"lat": 52.2043, "lon": 0.1393}, "zoom": 15}"#
        let photos = try SceneFile.parse(
            Data(#"{\#(camera), "chrome": true, "photos": [{"lat": 52.2043, "lon": 0.1393}]}"#.utf8), name: "p.json", catalog: .builtin
        )
        #expect((photos.chrome as? PhoneChrome)?.activeTab == .photomap)
        #expect(try SceneFile.parse(Data(#"{\#(camera), "chrome": false}"#.utf8), name: "n.json", catalog: .builtin).chrome == nil)
        for (json, mention) in [
            (#"{\#(camera), "chrome": "yes"}"#, "chrome"),
            (#"{\#(camera), "chrome": true, "size": {"width": 320, "height": 113}}"#, "size.height"),
        ] {
            do {
                _ = try SceneFile.parse(Data(json.utf8), name: "bad.json", catalog: .builtin)
                Issue.record("accepted \(json)")
            } catch {
                #expect("\(error)".contains(mention), "\(error)")
            }
        }
        // At the style's deepest zoom, zooming in is disabled.
        let deepest = try SceneFile.parse(
            Data(#"{"camera": {"center": {"lat": 52.2043, "lon": 0.1393}, "zoom": 19}, "chrome": true}"#.utf8), name: "z.json", catalog: .builtin
        )
        let buttons = try #require(deepest.chrome as? PhoneChrome).trailingButtons
        #expect(buttons == [PhoneChrome.ToolButton(.zoomIn, enabled: false), PhoneChrome.ToolButton(.zoomOut, enabled: true)])
    }
}
