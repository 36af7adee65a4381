import Foundation
import FrameRequest
import MapGeometry
import Screens
import Testing
import TileStore

/// A scene, script or payload file of many gigabytes is refused by its size, read no further
/// than its limit: memory stays bounded whatever the file holds.
@Suite struct OversizedFileTests {
    /// A sparse file: 10 GB long, taking no disk space.
    static func hugeFile(named name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oversized-\(UUID().uuidString)-\(name)")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("{\"style\": \"osm\", ".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 10_000_000_000)
        try handle.close()
        return url
    }

    @Test func aHugeSceneIsRefusedBySize() throws {
        let url = try Self.hugeFile(named: "scene.json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            _ = try SceneFile.load(url, catalog: .builtin)
        } throws: { error in
            "\(error)".contains("file: larger than 16000000 bytes")
        }
    }

    @Test func aHugeScriptIsRefusedBySize() throws {
        let url = try Self.hugeFile(named: "script.json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            _ = try ScriptParser.load(contentsOf: url, styles: ["osm": ZoomRange(min: 0, max: 19)])
        } throws: { error in
            "\(error)".contains("cannot be read: larger than 1000000 bytes")
        }
    }
}
