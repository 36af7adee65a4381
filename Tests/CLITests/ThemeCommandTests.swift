import Foundation
import ImageCodec
import MapFrameTestSupport
import MapRender
import PhoneScreen
import Testing

@Suite("Themes and legends on the command line")
struct ThemeCommandTests {
    static let route = Scenes.scene(#""start": {"lat": 52.2050, "lon": 0.1400}, "finish": {"lat": 52.2070, "lon": 0.1430}, "route": {"coordinates": [[0.1400, 52.2050], [0.1415, 52.2062], [0.1430, 52.2070]]}"#)

    @Test("--theme draws the scene in another theme; the scene's own theme does the same")
    func themeOption() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let plain = try workspace.write(Self.route, to: "plain.json")
            let named = try workspace.write(String(Self.route.dropLast()) + #", "theme": "high-contrast"}"#, to: "named.json")
            for (scene, output, extra) in [(plain, "app.png", []), (plain, "option.png", ["--theme", "high-contrast"]), (named, "named.png", [])] {
                let result = try await workspace.mapframe(["snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path(output)] + extra)
                #expect(result.status == 0, "\(result)")
            }
            #expect(try workspace.image("option.png").allPixels == workspace.image("named.png").allPixels)
            #expect(try workspace.image("option.png").allPixels != workspace.image("app.png").allPixels)
        }
    }

    @Test("an unknown --theme exits 2 naming it and what is allowed, and writes nothing")
    func unknownTheme() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Self.route, to: "scene.json")
            for command in [["snapshot", scene, "--output", workspace.path("out.png")], ["audit", scene]] {
                let result = try await workspace.mapframe(command + ["--cache", cache, "--offline", "--theme", "dark"])
                #expect(result.status == 2, "\(result)")
                for word in ["--theme", "dark", "cyclestreets, high-contrast, categories"] {
                    #expect(result.standardError.contains(word), "\(result)")
                }
            }
            #expect(!workspace.exists("out.png"))
        }
    }

    @Test("--legend writes the frame's categories beside a categories frame")
    func legend() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Self.route, to: "scene.json")
            let result = try await workspace.mapframe(
                "snapshot", scene, "--cache", cache, "--offline", "--theme", "categories", "--output", workspace.path("frame.png"),
                "--legend", workspace.path("legend.png")
            )
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError.contains("legend of Map background, Roads, Start marker, Finish marker, Route, Attribution"), "\(result)")
            let legend = try workspace.image("legend.png")
            // Six rows of 24 px swatches, 8 px apart, inside 12 px of padding.
            #expect(legend.height == 2 * 12 + 6 * 24 + 5 * 8)
            #expect(legend.pixel(x: 12 + 12, y: 12 + 12 + 4 * 32) == ElementKind.route.paletteColour.quantised)
            #expect(try PNGCodec.decode(workspace.contents("legend.png")).allPixels == legend.allPixels)
        }
    }

    @Test("--legend needs the categories theme and one scene: exit 2, and nothing written")
    func legendRefused() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Self.route, to: "scene.json")
            let other = try workspace.write(Scenes.withMarkers, to: "other.json")
            let appTheme = try await workspace.mapframe(
                "snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("frame.png"), "--legend", workspace.path("legend.png")
            )
            #expect(appTheme.status == 2, "\(appTheme)")
            #expect(appTheme.standardError.contains("--legend") && appTheme.standardError.contains("categories"), "\(appTheme)")
            let twoScenes = try await workspace.mapframe(
                "snapshot", scene, other, "--cache", cache, "--offline", "--theme", "categories", "--out-dir", workspace.path("frames"),
                "--legend", workspace.path("legend.png")
            )
            #expect(twoScenes.status == 2, "\(twoScenes)")
            #expect(twoScenes.standardError.contains("--legend takes one scene"), "\(twoScenes)")
            #expect(!workspace.exists("frame.png") && !workspace.exists("legend.png") && !workspace.exists("frames"))
        }
    }

    @Test("play --theme draws every frame in the theme")
    func playInATheme() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let script = try workspace.write(
                #"{"camera": {"center": {"lat": 52.2055, "lon": 0.1414}, "zoom": 16}, "steps": [{"tap": {"x": 160, "y": 240}}]}"#, to: "script.json"
            )
            let result = try await workspace.mapframe("play", script, "--cache", cache, "--offline", "--theme", "categories", "--out-dir", workspace.path("frames"))
            #expect(result.status == 0, "\(result)")
            let palette = Set(ElementKind.legendOrder(screen: ElementKind.phoneScreenLegendOrder).map(\.paletteColour.quantised) + [CategoryPalette.ink.quantised, CategoryPalette.inkOnDark.quantised])
            for frame in ["00.png", "01.png"] {
                #expect(Set(try workspace.image("frames/" + frame).allPixels).isSubset(of: palette), "\(frame) is not flat")
            }
        }
    }
}
