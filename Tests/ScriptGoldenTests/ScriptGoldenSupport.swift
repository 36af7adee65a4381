import FixtureTiles
import Foundation
import FramePipeline
import GoldenCheck
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Screens
import TileStore

/// The golden scripts in `Scenes/scripts/`, their goldens in `Goldens/scripts/<script>/NN.png`,
/// and the fixture tile caches they are drawn over.
enum ScriptGoldens {
    static let scripts = packageRoot.appendingPathComponent("Scenes/scripts")
    static let goldens = packageRoot.appendingPathComponent("Goldens/scripts")
    /// Where a failing run leaves actual and diff images and an HTML report per script.
    static let failures = packageRoot.appendingPathComponent(".build/golden-failures/scripts")

    /// Set `MAPFRAME_RECORD_GOLDENS=1` to rewrite the goldens instead of checking them.
    static var recording: Bool { ProcessInfo.processInfo.environment["MAPFRAME_RECORD_GOLDENS"] == "1" }

    /// Every script's name (its file name without `.json`), sorted.
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scripts.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    /// The built-in styles' zoom ranges, as the script parser takes them.
    static let styles: [String: ZoomRange] = Dictionary(
        uniqueKeysWithValues: StyleCatalog.builtin.names.compactMap { name in StyleCatalog.builtin[name].map { (name, $0.tileSet.zoomRange) } }
    )

    /// A directory with the demo fixture tiles of every built-in style, built once per test run.
    static let cacheDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-script-goldens-\(getpid())")
        try! DemoFixtures.buildCacheDirectory(directory)
        return directory
    }()

    /// The pipeline that draws over the fixture caches, offline, shared by the tests.
    static let pipeline = FramePipeline(FramePipeline.Configuration(catalog: .builtin, cacheLocation: .directory(cacheDirectory.path)))

    /// A scene's pixels, drawn as `mapframe play` draws it.
    static func image(of scene: Scene) async throws -> RasterImage {
        try await pipeline.render(scene, as: .pixels).output
    }

    static func url(_ name: String) -> URL { scripts.appendingPathComponent(name + ".json") }

    static func load(_ name: String) throws -> Script {
        try ScriptParser.load(contentsOf: url(name), styles: styles)
    }

    static func play(_ name: String) throws -> (script: Script, run: ScriptRun) {
        let script = try load(name)
        return (script, try ScriptPlayer.run(script))
    }

    /// Every frame of a played script, drawn as `mapframe play` draws it.
    static func images(of run: ScriptRun, script: Script) async throws -> [RasterImage] {
        var images: [RasterImage] = []
        for scene in run.scenes(of: script) { images.append(try await image(of: scene)) }
        return images
    }

    /// `00`, `01`, ...
    static func frameName(_ index: Int) -> String { String(format: "%02d", index) }

    static func goldenURL(script: String, frame index: Int) -> URL {
        goldens.appendingPathComponent(script).appendingPathComponent(frameName(index) + ".png")
    }
}
