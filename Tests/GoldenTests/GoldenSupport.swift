import FixtureTiles
import Foundation
import FramePipeline
import FrameRequest
import GoldenCheck
import ImageCodec
import MapFrameTestSupport
import MapRender
import TileStore

/// Paths and shared fixtures for the golden tests.
enum GoldenSupport {
    static let scenes = packageRoot.appendingPathComponent("Scenes")
    static let goldens = packageRoot.appendingPathComponent("Goldens")
    /// Where a failing run leaves actual and diff images and the HTML report.
    static let failures = packageRoot.appendingPathComponent(".build/golden-failures")

    /// Set `MAPFRAME_RECORD_GOLDENS=1` to rewrite the goldens instead of checking them.
    static var recording: Bool { ProcessInfo.processInfo.environment["MAPFRAME_RECORD_GOLDENS"] == "1" }

    /// A cache directory with the demo fixture tiles of every built-in style, built once per test run.
    static let fixtureCacheDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-goldens-\(getpid())")
        try! DemoFixtures.buildCacheDirectory(directory)
        return directory
    }()

    /// The pipeline that draws scenes over the fixture caches, offline, shared by the tests.
    static let pipeline = FramePipeline(FramePipeline.Configuration(catalog: .builtin, cacheLocation: .directory(fixtureCacheDirectory.path)))

    static func scene(named name: String) throws -> Scene {
        try SceneFile.load(scenes.appendingPathComponent(name + ".json"), catalog: .builtin)
    }
}
