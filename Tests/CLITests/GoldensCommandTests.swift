import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

@Suite("mapframe goldens")
struct GoldensCommandTests {
    /// A workspace with fixture tiles and one scene, `scenes/route.json`.
    static func withScenes(_ body: (Workspace, String) async throws -> Void) async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            try workspace.write(Scenes.withMarkers, to: "scenes/route.json")
            try await body(workspace, cache)
        }
    }

    @Test("check fails on a mismatch and writes actual and diff images and an HTML report")
    func mismatch() async throws {
        try await Self.withScenes { workspace, cache in
            let wrong = try RasterImage(width: 320, height: 480, filledWith: Colour(redLevel: 255, greenLevel: 0, blueLevel: 255)).pngData()
            try workspace.write(wrong, to: "goldens/route.png")
            let result = try await workspace.mapframe(
                "goldens", "check", workspace.path("scenes"), workspace.path("goldens"), "--cache", cache, "--offline",
                "--failures", workspace.path("failures"), "--report", workspace.path("report.html")
            )
            #expect(result.status != 0, "\(result)")
            #expect(result.standardOutput.contains("route: MISMATCH"), "\(result)")
            for name in ["failures/route.actual.png", "failures/route.diff.png"] {
                let image = try workspace.image(name)
                #expect(image.width == 320 && image.height == 480, "\(name)")
            }
            let report = String(decoding: try workspace.contents("report.html"), as: UTF8.self)
            #expect(report.contains("<html") && report.contains("route") && report.contains("MISMATCH"))
            #expect(report.contains("data:image/png;base64,"), "the report should embed its images")
            #expect(try workspace.contents("goldens/route.png") == wrong, "check must not touch the goldens")
        }
    }

    @Test("record, then check passes")
    func recordThenCheck() async throws {
        try await Self.withScenes { workspace, cache in
            let record = try await workspace.mapframe("goldens", "record", workspace.path("scenes"), workspace.path("goldens"), "--cache", cache, "--offline")
            #expect(record.status == 0, "\(record)")
            let golden = try workspace.image("goldens/route.png")
            #expect(golden.width == 320 && golden.height == 480)

            let check = try await workspace.mapframe(
                "goldens", "check", workspace.path("scenes"), workspace.path("goldens"), "--cache", cache, "--offline", "--failures", workspace.path("failures")
            )
            #expect(check.status == 0, "\(check)")
            #expect(check.standardOutput.contains("1 passed, 0 failed"), "\(check)")
            #expect(!workspace.exists("failures"), "nothing failed, so nothing should be written")
        }
    }
}
