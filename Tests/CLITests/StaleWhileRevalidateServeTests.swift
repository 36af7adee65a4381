import Foundation
import MapFrameTestSupport
import MapGeometry
import Synchronization
import Testing
import UpstreamSimulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mapframe serve --stale-while-revalidate`: the option, and expired tiles answered at once from
/// the shared PostgreSQL cache while one revalidation runs.
@Suite("mapframe serve --stale-while-revalidate")
struct StaleWhileRevalidateServeTests {
    static let tile = TileID(z: 16, x: 32_791, y: 21_724)

    @Test("a duration the command line does not take is refused, naming the option, the value and what is allowed", arguments: ["3w", "1.5h", "d", "1 d"])
    func badDurationRefused(_ value: String) async throws {
        try await Workspace.with { workspace in
            let result = try await workspace.mapframe("serve", "--port", "0", "--cache-dir", workspace.path("cache"), "--stale-while-revalidate", value)
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains("--stale-while-revalidate"), "\(result)")
            #expect(result.standardError.contains("'\(value)' is not a duration; allowed a whole number and a unit, d, h, m or s, such as 14d, 12h, 30m or 90s, or 0"), "\(result)")
            #expect(!workspace.exists("cache"), "a refused server made its cache")
        }
    }

    @Test(
        "on the shared PostgreSQL cache, an expired tile is answered at once while one revalidation reaches a slow upstream, and the database records it",
        .enabled(if: PostgresCluster.unavailability == nil, "\(PostgresCluster.unavailability ?? "")")
    )
    func sharedCacheAnswersStale() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.remove() }
        try await cluster.createDatabase("tiles")
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        let delay = UpstreamDelay()
        upstream.setDefaultHandler { path in
            guard let tile = tileID(atUpstreamPath: path) else { return nil }
            Thread.sleep(forTimeInterval: delay.seconds.withLock { $0 })
            return .png(FixturePNG.data(for: tile), headers: [("Cache-Control", "max-age=1"), ("ETag", "\"v1\"")])
        }
        try await Workspace.with { workspace in
            let style = try workspace.writeStyle(upstream: upstream)
            let server = try await ServeProcess.start(
                ["--cache", cluster.url(database: "tiles"), "--style-file", style, "--stale-while-revalidate", "2h"],
                in: workspace.directory, environment: cluster.environment.mapValues { $0 }
            )
            defer { server.stop() }
            let url = server.url("tiles/local/\(Self.tile.z)/\(Self.tile.x)/\(Self.tile.y).png")
            let fetched = try await TestHTTP.get(url)
            #expect(fetched.status == 200)
            #expect(fetched.header("Cache-Control")?.hasSuffix("stale-while-revalidate=7200") == true, "\(fetched.headers)")
            let firstExpiry = try await cluster.psql("SELECT expires_at FROM mapframe_tiles WHERE x = \(Self.tile.x) AND y = \(Self.tile.y)", database: "tiles")

            try await Task.sleep(for: .milliseconds(1_500))
            // Slow enough that an answer that waited for it cannot pass for one that did not, whatever
            // else the machine is doing.
            delay.seconds.withLock { $0 = 6 }
            let answers = try await withThrowingTaskGroup(of: (answer: HTTPReply, took: Duration).self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        let started = ContinuousClock.now
                        let answer = try await TestHTTP.get(url)
                        return (answer, ContinuousClock.now - started)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (answer, took) in answers {
                #expect(answer.status == 200 && answer.body == fetched.body, "\(answer.status)")
                #expect(answer.header("Cache-Control")?.hasPrefix("public, max-age=0, stale-while-revalidate=") == true, "\(answer.headers)")
                #expect(took < .seconds(4), "waited \(took) for a 6 s upstream")
            }
            try await waitUntil("the revalidation reaches the upstream") { upstream.requestCount(for: upstreamPath(Self.tile)) == 2 }
            #expect(upstream.requests.last?.headers["if-none-match"] == "\"v1\"")
            try await waitUntil("the database records the revalidation") {
                try await cluster.psql("SELECT expires_at FROM mapframe_tiles WHERE x = \(Self.tile.x) AND y = \(Self.tile.y)", database: "tiles") != firstExpiry
            }
            #expect(upstream.requestCount(for: upstreamPath(Self.tile)) == 2, "one revalidation for five requests")
        }
    }
}

/// How long the test's upstream waits before each answer, changed as the test goes.
final class UpstreamDelay: Sendable {
    let seconds = Mutex(0.0)
}
