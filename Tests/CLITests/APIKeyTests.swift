import Foundation
import MapFrameTestSupport
import Testing
import UpstreamSimulator

/// A style's API key comes from the environment and goes only to the upstream: never to
/// standard output or error, nor into the cache (README, "Styles").
@Suite("API keys through the command line")
struct APIKeyTests {
    static let key = "sekret-456"
    static let variable = "MAPFRAME_TEST_KEY"

    /// The style `keyed`, whose URL carries `?key={apikey}`.
    static func writeKeyedStyle(_ workspace: Workspace, upstream: UpstreamSimulator) throws -> String {
        try workspace.writeStyle(named: "keyed", upstream: upstream, query: "?key={apikey}", apiKeyEnv: variable)
    }

    static func snapshot(_ workspace: Workspace, style: String, cacheDirectory: String, environment: [String: String?]) async throws -> CommandResult {
        let scene = try workspace.write(Scenes.scene(#""style": "keyed""#), to: "scene.json")
        return try await workspace.mapframe(
            ["snapshot", scene, "--style-file", style, "--cache-dir", workspace.path(cacheDirectory), "--output", workspace.path("out.png")],
            environment: environment
        )
    }

    static func seed(_ workspace: Workspace, style: String, cacheDirectory: String, environment: [String: String?]) async throws -> CommandResult {
        try await workspace.mapframe(
            ["seed", "--style", "keyed", "--style-file", style, "--cache-dir", workspace.path(cacheDirectory), "--bbox", "0.14,52.20,0.145,52.205", "--zoom", "16"],
            environment: environment
        )
    }

    @Test("the key reaches the upstream, but no output or cache file, even when the upstream fails")
    func keyStaysSecret() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try Self.writeKeyedStyle(workspace, upstream: upstream)
            let environment = [Self.variable: Self.key]
            var results: [CommandResult] = []

            let served = try await Self.snapshot(workspace, style: style, cacheDirectory: "good", environment: environment)
            #expect(served.status == 0, "\(served)")
            #expect(try #require(FillCounts(line: served.standardError)).fetched > 0, "\(served)")
            #expect(!upstream.requests.isEmpty && upstream.requests.allSatisfy { $0.query == "key=\(Self.key)" })
            let seeded = try await Self.seed(workspace, style: style, cacheDirectory: "good", environment: environment)
            #expect(seeded.status == 0, "\(seeded)")
            results += [served, seeded]

            // Failures make MapFrame talk about the URLs: 403 (not retried) and 500 (retried).
            upstream.answerEveryRequest(status: 403)
            let forbidden = try await Self.snapshot(workspace, style: style, cacheDirectory: "failed", environment: environment)
            #expect(forbidden.status == 0, "\(forbidden)")
            #expect(forbidden.standardError.contains("HTTP 403") && forbidden.standardError.contains("{apikey}"), "\(forbidden)")
            upstream.answerEveryRequest(status: 500)
            let failedSeed = try await Self.seed(workspace, style: style, cacheDirectory: "failed", environment: environment)
            #expect(failedSeed.status == 1, "\(failedSeed)")
            #expect(failedSeed.standardError.contains("HTTP 500") && failedSeed.standardError.contains("{apikey}"), "\(failedSeed)")
            results += [forbidden, failedSeed]

            for result in results {
                #expect(!result.standardOutput.contains(Self.key) && !result.standardError.contains(Self.key), "the key leaked: \(result)")
            }
            for directory in ["good", "failed"] {
                let files = try FileManager.default.contentsOfDirectory(atPath: workspace.path(directory))
                #expect(files.contains("keyed.mbtiles"), "\(directory): \(files)")
                for file in files {
                    let bytes = try workspace.contents("\(directory)/\(file)")
                    #expect(bytes.range(of: Data(Self.key.utf8)) == nil, "the key is in \(directory)/\(file)")
                }
            }
        }
    }

    @Test("with the key's variable unset, snapshot and seed name the variable and ask for nothing")
    func keyMissing() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try Self.writeKeyedStyle(workspace, upstream: upstream)
            let unset: [String: String?] = [Self.variable: nil]

            let snapshot = try await Self.snapshot(workspace, style: style, cacheDirectory: "cache", environment: unset)
            #expect(snapshot.status == 0, "a frame with missing tiles still renders: \(snapshot)")
            #expect(snapshot.standardError.contains(Self.variable), "\(snapshot)")
            let seed = try await Self.seed(workspace, style: style, cacheDirectory: "cache", environment: unset)
            #expect(seed.status != 0, "\(seed)")
            #expect(seed.standardError.contains(Self.variable), "\(seed)")
            #expect(upstream.requests.isEmpty)
        }
    }
}
