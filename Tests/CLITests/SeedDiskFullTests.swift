import Foundation
import MapFrameTestSupport
import Testing
import UpstreamSimulator

extension TinyFilesystem {
    /// Copies a cache file and its write-ahead log off the tiny disk, to read it where there is room.
    func copyCache(named name: String, to directory: String) throws -> String {
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + "/" + name + suffix) {
            try FileManager.default.copyItem(atPath: path + "/" + name + suffix, toPath: directory + "/" + name + suffix)
        }
        return directory + "/" + name
    }
}

@Suite("mapframe seed on a full disk")
struct SeedDiskFullTests {
    /// Cambridge and around at zoom 14-16: over 2,000 tiles, far more than 200 KB holds.
    static let area = SeedArea(bbox: "0.0,52.1,0.3,52.3", zooms: 14...16)
    static let concurrency = 2

    @Test("seed stops at the first tile it cannot store, says the disk is full, and keeps what it stored")
    func stopsWhenTheDiskIsFull() async throws {
        try await Workspace.with { workspace in
            let disk = try await TinyFilesystem(at: workspace.path("tiny"), size: "200k")
            defer { disk.unmount() }
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)
            try #require(Self.area.tiles.count > 2000)

            let result = try await workspace.mapframe(
                ["seed", "--style", "local", "--style-file", style, "--cache-dir", disk.path, "--concurrency", String(Self.concurrency)]
                    + Self.area.arguments
            )
            let cachePath = disk.path + "/local.mbtiles"
            #expect(result.status == 1, "\(result)")
            let message = try #require(result.errorLines.last, "no message: \(result)")
            #expect(message.contains("the disk holding") && message.contains("is full"), "\(message)")
            #expect(message.contains(cachePath) && message.contains("kept"), "\(message)")
            #expect(!result.standardError.contains("unreadable"), "a write failure is not a read failure: \(result)")
            let stored = try #require(message.firstMatch(of: /(\d+) tiles/).flatMap { Int($0.1) }, "the message should say how many tiles were stored: \(message)")

            let copy = try disk.copyCache(named: "local.mbtiles", to: workspace.directory.path)
            let contents = try await CacheContents.read(copy)
            #expect(contents.integrity == "ok")
            #expect(contents.tiles.count == stored, "the message says \(stored) tiles were stored; the cache holds \(contents.tiles.count)")
            #expect(stored > 0, "some tiles fit before the disk filled up")
            #expect(contents.undecodable.isEmpty && contents.tilesWithoutState.isEmpty)
            // Each request either stored its tile or failed; only those in flight when the
            // first write failed may fail.
            let failed = upstream.requests.count - stored
            #expect((1...Self.concurrency).contains(failed), "\(upstream.requests.count) upstream requests for \(stored) tiles stored; at most \(Self.concurrency) may be lost to the full disk")
        }
    }
}
