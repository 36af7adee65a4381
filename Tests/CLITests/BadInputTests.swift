import Foundation
import MapFrameTestSupport
import Testing

@Suite("mapframe snapshot with bad input")
struct BadInputTests {
    enum Cache: Sendable {
        case fixtures, missing, textFile
    }

    /// A bad scene or cache and what the message must mention: the field, the value and the allowed range.
    struct BadInput: CustomTestStringConvertible, Sendable {
        let name: String
        var scene = Scenes.withMarkers
        var cache = Cache.fixtures
        let mustMention: [String]
        var testDescription: String { name }
    }

    static let cases = [
        BadInput(name: "malformed JSON", scene: #"{"camera": {"center": "#, mustMention: ["scene.json", "malformed JSON"]),
        BadInput(name: "unknown field", scene: Scenes.scene(#""colour": "red""#), mustMention: ["colour", "unknown field"]),
        BadInput(
            name: "latitude out of range", scene: Scenes.scene(#""start": {"lat": 86, "lon": 0.14}"#),
            mustMention: ["start.lat", "86", "-85.0511...85.0511"]
        ),
        BadInput(
            name: "zoom out of range", scene: #"{"camera": {"center": {"lat": 52.2, "lon": 0.14}, "zoom": 20}}"#,
            mustMention: ["camera.zoom", "20", "0...19"]
        ),
        BadInput(name: "size too big", scene: Scenes.scene(#""size": {"width": 5000, "height": 480}"#), mustMention: ["size.width", "5000", "4096"]),
        BadInput(
            name: "too many route points", scene: Scenes.scene(#""route": {"coordinates": [\#(Scenes.routePositions(100_001))]}"#),
            mustMention: ["route.coordinates", "100001", "100000"]
        ),
        BadInput(name: "unknown style", scene: Scenes.scene(#""style": "satellite""#), mustMention: ["style", "satellite", "osm"]),
        BadInput(name: "unknown theme", scene: Scenes.scene(#""theme": "dark""#), mustMention: ["theme", "dark", "cyclestreets, high-contrast, categories"]),
        BadInput(name: "missing cache file", cache: .missing, mustMention: ["absent.mbtiles", "does not exist"]),
        BadInput(name: "cache that is not MBTiles", cache: .textFile, mustMention: ["notes.mbtiles", "not an MBTiles file"]),
    ]

    @Test("bad input exits 2 with a clear message and writes nothing", arguments: cases)
    func refused(bad: BadInput) async throws {
        try await Workspace.with { workspace in
            let fixtures = try await workspace.buildFixtures()
            // An earlier, good run leaves a frame behind.
            let good = try workspace.write(Scenes.withMarkers, to: "good.json")
            let earlier = try await workspace.mapframe("snapshot", good, "--cache", fixtures, "--offline", "--output", workspace.path("out.png"))
            try #require(earlier.status == 0, "the good run failed: \(earlier)")
            let before = try workspace.contents("out.png")

            let cache: String = switch bad.cache {
            case .fixtures: fixtures
            case .missing: workspace.path("absent.mbtiles")
            case .textFile: try workspace.write("not a database\n", to: "notes.mbtiles")
            }
            let scene = try workspace.write(bad.scene, to: "scene.json")
            for output in ["out.png", "fresh.png"] {
                let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path(output))
                #expect(result.status == 2, "\(result)")
                #expect(result.standardError.hasPrefix("mapframe: "), "\(result)")
                for word in bad.mustMention {
                    #expect(result.standardError.contains(word), "stderr does not mention \(word): \(result.standardError)")
                }
            }
            #expect(try workspace.contents("out.png") == before, "the earlier frame was changed")
            #expect(!workspace.exists("fresh.png"), "a frame was written for bad input")
            #expect(!workspace.exists("absent.mbtiles"), "a missing cache must not be created")
        }
    }

    /// The PNG files in a workspace folder; none when it does not exist.
    static func frames(in workspace: Workspace, folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: workspace.path(folder))) ?? []).filter { $0.hasSuffix(".png") }
    }

    @Test("one bad scene among several: exit 2 and no frames at all")
    func badSceneAmongGood() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scenes = [
                try workspace.write(Scenes.withMarkers, to: "a.json"),
                try workspace.write(Scenes.scene(#""start": {"lat": 86, "lon": 0.14}"#), to: "b.json"),
                try workspace.write(Scenes.scene(), to: "c.json"),
            ]
            let result = try await runProgram(
                MapframeExecutable.url(), ["snapshot"] + scenes + ["--cache", cache, "--offline", "--out-dir", workspace.path("frames")],
                in: workspace.directory
            )
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains("b.json") && result.standardError.contains("start.lat"), "\(result)")
            #expect(Self.frames(in: workspace, folder: "frames") == [])
        }
    }

    @Test("a cache directory without the second scene's style: exit 2 and no frames at all")
    func missingStyleCacheAmongGood() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            try FileManager.default.createDirectory(atPath: workspace.path("caches"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: cache, toPath: workspace.path("caches/osm.mbtiles"))
            let scenes = [
                try workspace.write(Scenes.withMarkers, to: "a.json"),
                try workspace.write(Scenes.scene(#""style": "opencyclemap""#), to: "b.json"),
            ]
            let result = try await runProgram(
                MapframeExecutable.url(), ["snapshot"] + scenes + ["--cache-dir", workspace.path("caches"), "--offline", "--out-dir", workspace.path("frames")],
                in: workspace.directory
            )
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains("opencyclemap.mbtiles") && result.standardError.contains("does not exist"), "\(result)")
            #expect(Self.frames(in: workspace, folder: "frames") == [], "frames were written before the missing cache was noticed")
        }
    }
}
