import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing
import UpstreamSimulator

@Suite("mapframe snapshot against an upstream")
struct OnlineSnapshotTests {
    /// The test scene (Cambridge at zoom 16) drawn with the simulator's `local` style.
    static let scene = Scenes.scene(#""style": "local""#)

    /// Snapshots `scene.json` into `out.png` with the local style and `cache/local.mbtiles`.
    static func snapshot(_ workspace: Workspace, style: String, offline: Bool = false) async throws -> CommandResult {
        let scene = try workspace.write(Self.scene, to: "scene.json")
        return try await workspace.mapframe(
            ["snapshot", scene, "--style-file", style, "--cache-dir", workspace.path("cache"), "--output", workspace.path("out.png")]
                + (offline ? ["--offline"] : [])
        )
    }

    /// The fill counts of a snapshot's single report line.
    static func counts(_ result: CommandResult) throws -> FillCounts {
        try #require(result.errorLines.count == 1, "\(result)")
        return try #require(FillCounts(line: result.errorLines[0]), "\(result)")
    }

    @Test("a snapshot fetches its tiles; a second one finds them cached and asks for nothing")
    func fetchThenCached() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)

            let first = try await Self.snapshot(workspace, style: style)
            #expect(first.status == 0, "\(first)")
            let fetched = try Self.counts(first)
            #expect(fetched.tiles > 0 && fetched == FillCounts(tiles: fetched.tiles, fetched: fetched.tiles), "\(first)")
            #expect(isTileReport(first.errorLines[0], scene: "scene.json", output: "out.png", grey: 0), "\(first)")
            #expect(upstream.requests.count == fetched.tiles)
            let frame = try workspace.image("out.png")
            #expect(frame.width == 320 && frame.height == 480)
            #expect(frame.pixel(x: 160, y: 240) != missingGrey)
            let firstFrame = try workspace.contents("out.png")

            upstream.resetLog()
            let second = try await Self.snapshot(workspace, style: style)
            #expect(second.status == 0, "\(second)")
            #expect(try Self.counts(second) == FillCounts(tiles: fetched.tiles, cached: fetched.tiles), "\(second)")
            #expect(upstream.requests.isEmpty)
            #expect(try workspace.contents("out.png") == firstFrame, "the frame from cached tiles should be the same")
        }
    }

    @Test("with every upstream request failing and no cache, the frame still renders grey and names the failures")
    func upstreamDown() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.answerEveryRequest(status: 500)
            let style = try workspace.writeStyle(upstream: upstream)

            let result = try await Self.snapshot(workspace, style: style)
            #expect(result.status == 0, "\(result)")
            let counts = try Self.counts(result)
            #expect(counts.tiles > 0 && counts == FillCounts(tiles: counts.tiles, failed: counts.tiles), "\(result)")
            let line = result.errorLines[0]
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: counts.tiles), "\(line)")
            #expect(line.contains("fetch failed") && line.contains("HTTP 500"), "\(line)")
            let frame = try workspace.image("out.png")
            #expect(frame.pixel(x: 160, y: 240) == missingGrey)
            #expect(upstream.requests.count == 3 * counts.tiles, "each tile is tried 3 times")
        }
    }

    @Test("--offline never asks the upstream: expired tiles are drawn stale; online, they are revalidated")
    func offline() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles { _ in [("Cache-Control", "max-age=0"), ("ETag", "\"v1\"")] }
            let style = try workspace.writeStyle(upstream: upstream)
            let first = try await Self.snapshot(workspace, style: style)
            let tiles = try Self.counts(first).tiles
            try #require(first.status == 0 && tiles > 0, "\(first)")

            upstream.resetLog()
            let offline = try await Self.snapshot(workspace, style: style, offline: true)
            #expect(offline.status == 0, "\(offline)")
            #expect(try Self.counts(offline) == FillCounts(tiles: tiles, stale: tiles), "\(offline)")
            #expect(upstream.requests.isEmpty)
            #expect(try workspace.image("out.png").pixel(x: 160, y: 240) != missingGrey, "stale tiles should be drawn")

            let online = try await Self.snapshot(workspace, style: style)
            #expect(online.status == 0, "\(online)")
            #expect(try Self.counts(online) == FillCounts(tiles: tiles, revalidated: tiles), "\(online)")
            #expect(upstream.requests.count == tiles && upstream.requests.allSatisfy { $0.headers["if-none-match"] == "\"v1\"" })
        }
    }
}
