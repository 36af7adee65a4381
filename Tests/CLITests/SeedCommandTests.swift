import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

@Suite("mapframe seed")
struct SeedCommandTests {
    /// Central Cambridge at zoom 14-16: 64 tiles.
    static let area = SeedArea(bbox: "0.12,52.20,0.15,52.215", zooms: 14...16)

    /// `mapframe seed` of the local style into `<workspace>/cache/local.mbtiles`.
    static func seedArguments(_ workspace: Workspace, style: String, area: SeedArea, extra: [String] = []) -> [String] {
        ["seed", "--style", "local", "--style-file", style, "--cache-dir", workspace.path("cache")] + area.arguments + extra
    }

    @Test("seed fetches every tile of the area once; a second run finds them all cached and asks for nothing")
    func seedThenResume() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)
            let tiles = Self.area.tiles
            try #require(tiles.count == 64)

            let first = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: Self.area, extra: ["--concurrency", "4"]))
            #expect(first.status == 0, "\(first)")
            // Standard error is a file here, not a terminal: plain progress lines, no bar.
            #expect(!first.errorLines.isEmpty)
            for line in first.errorLines {
                #expect(line.hasPrefix("seed: ") && FillCounts(line: line) != nil, "not a plain progress line: \(line.debugDescription)")
                #expect(!line.contains("\r") && !line.contains("\u{1B}"), "terminal control characters: \(line.debugDescription)")
            }
            #expect(first.errorLines.last.flatMap(FillCounts.init) == FillCounts(tiles: 64, fetched: 64), "\(first)")
            #expect(upstream.requests.count == 64, "each tile should be asked for once")
            #expect(Set(upstream.requests.map(\.path)) == Set(tiles.map(upstreamPath)))

            let contents = try await CacheContents.read(workspace.path("cache/local.mbtiles"))
            #expect(contents.integrity == "ok")
            #expect(contents.tiles == tiles)
            #expect(contents.undecodable.isEmpty, "\(contents.undecodable)")
            #expect(contents.tilesWithoutState.isEmpty, "\(contents.tilesWithoutState)")

            upstream.resetLog()
            let second = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: Self.area))
            #expect(second.status == 0, "\(second)")
            #expect(second.errorLines.last.flatMap(FillCounts.init) == FillCounts(tiles: 64, cached: 64), "\(second)")
            #expect(upstream.requests.isEmpty, "a resumed seed asked for \(upstream.requests.count) cached tiles")
        }
    }

    @Test("--dry-run prints the counts and fetches nothing")
    func dryRun() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)

            let before = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: Self.area, extra: ["--dry-run"]))
            #expect(before.status == 0, "\(before)")
            #expect(before.standardOutput.contains("local: 64 tiles at zoom 14-16; 0 cached and fresh, 64 to fetch"), "\(before)")
            #expect(upstream.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: workspace.path("cache")), "a dry run writes nothing, not even the cache directory")
            let namedFile = workspace.path("named.mbtiles")
            let named = try await workspace.mapframe(
                ["seed", "--style", "local", "--style-file", style, "--cache", namedFile, "--dry-run"] + Self.area.arguments
            )
            #expect(named.status == 0 && named.standardOutput.contains("0 cached and fresh"), "\(named)")
            #expect(!FileManager.default.fileExists(atPath: namedFile), "a dry run does not create the --cache file")

            // Seed zoom 14-15 only (22 tiles); a dry run of 14-16 then counts them as cached.
            let part = SeedArea(bbox: Self.area.bbox, zooms: 14...15)
            let seeded = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: part))
            try #require(seeded.status == 0, "\(seeded)")
            upstream.resetLog()
            let after = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: Self.area, extra: ["--dry-run"]))
            #expect(after.status == 0, "\(after)")
            #expect(after.standardOutput.contains("local: 64 tiles at zoom 14-16; \(part.tiles.count) cached and fresh, \(64 - part.tiles.count) to fetch"), "\(after)")
            #expect(upstream.requests.isEmpty)
        }
    }

    /// Style files (JSON text) whose tiles come from tile.openstreetmap.org; nil means the
    /// built-in `osm` style.
    static let openStreetMapStyles: [String?] = [
        nil,
        #"{"name": "mine", "url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "OSM"}"#,
        #"{"name": "mine", "url": "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", "subdomains": ["a", "b", "c"], "minZoom": 0, "maxZoom": 19, "attribution": "OSM"}"#,
        #"{"name": "mine", "url": "http://TILE.OpenStreetMap.org:80/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "OSM"}"#,
        #"{"name": "mine", "url": "https://tile.openstreetmap.org./{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "OSM"}"#,
    ]

    @Test("seed refuses tile.openstreetmap.org with exit 2, says why, and makes no request", arguments: openStreetMapStyles)
    func refusesOpenStreetMap(styleFile: String?) async throws {
        try await Workspace.with { workspace in
            // Every proxy variable points at the simulator, so any attempt to reach a tile
            // server, by HTTP or HTTPS, would show up as a connection to it.
            let upstream = try UpstreamSimulator()
            var environment: [String: String?] = ["NO_PROXY": nil, "no_proxy": nil]
            for variable in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
                environment[variable] = upstream.baseURL
            }
            var arguments = ["seed", "--bbox", "0.14,52.20,0.15,52.21", "--zoom", "16", "--cache-dir", workspace.path("cache")]
            if let styleFile {
                arguments += ["--style", "mine", "--style-file", try workspace.write(styleFile, to: "mine.json")]
            } else {
                arguments += ["--style", "osm"]
            }
            let result = try await workspace.mapframe(arguments, environment: environment)
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains("usage policy forbids bulk download"), "\(result)")
            #expect(upstream.connectionCount == 0, "seed tried to fetch")
            #expect(!workspace.exists("cache"), "a refused seed should not create the cache")
        }
    }

    struct BadOption: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let mustMention: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badOptions = [
        BadOption(arguments: ["--zoom", "18-20"], mustMention: ["--zoom", "20", "0...19"]),
        BadOption(arguments: ["--zoom", "16", "--concurrency", "0"], mustMention: ["--concurrency", "0", "1...16"]),
        BadOption(arguments: ["--zoom", "16", "--concurrency", "17"], mustMention: ["--concurrency", "17", "1...16"]),
    ]

    @Test("a zoom outside the style's range or a bad concurrency exits 2 naming the field", arguments: badOptions)
    func badOption(bad: BadOption) async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)
            let result = try await workspace.mapframe(
                ["seed", "--style", "local", "--style-file", style, "--cache-dir", workspace.path("cache"), "--bbox", "0.14,52.20,0.15,52.21"] + bad.arguments
            )
            #expect(result.status == 2, "\(result)")
            for word in bad.mustMention {
                #expect(result.standardError.contains(word), "stderr does not mention \(word): \(result.standardError)")
            }
            #expect(upstream.requests.isEmpty)
        }
    }

    @Test("tiles the upstream fails are named, the rest are stored, the exit status is 1, and a re-run fetches only those")
    func someTilesFail() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)
            let area = SeedArea(bbox: "0.13,52.20,0.15,52.21", zooms: 15...16)
            let tiles = area.tiles
            let failing = Array(tiles.filter { $0.z == 16 }.sorted().prefix(2))
            for tile in failing {
                upstream.setResponse(SimulatedResponse(status: 500, headers: [("Content-Type", "text/plain")], body: Data("oops\n".utf8)), for: upstreamPath(tile))
            }

            let result = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: area, extra: ["--concurrency", "4"]))
            #expect(result.status == 1, "\(result)")
            #expect(result.errorLines.compactMap(FillCounts.init).last == FillCounts(tiles: tiles.count, fetched: tiles.count - 2, failed: 2), "\(result)")
            for tile in failing {
                let report = result.errorLines.first { $0.hasPrefix("failed: \(tile) ") }
                #expect(report?.contains("HTTP 500") == true, "tile \(tile) is not reported as failed: \(result)")
                #expect(upstream.requestCount(for: upstreamPath(tile)) == 3, "a 5xx answer is tried 3 times")
            }
            let contents = try await CacheContents.read(workspace.path("cache/local.mbtiles"))
            #expect(contents.tiles == tiles.subtracting(failing))
            #expect(contents.integrity == "ok")

            // The upstream recovers; a re-run fetches just the two.
            for tile in failing { upstream.setResponse(.png(FixturePNG.data(for: tile)), for: upstreamPath(tile)) }
            upstream.resetLog()
            let rerun = try await workspace.mapframe(Self.seedArguments(workspace, style: style, area: area))
            #expect(rerun.status == 0, "\(rerun)")
            #expect(rerun.errorLines.last.flatMap(FillCounts.init) == FillCounts(tiles: tiles.count, cached: tiles.count - 2, fetched: 2), "\(rerun)")
            #expect(Set(upstream.requests.map(\.path)) == Set(failing.map(upstreamPath)))
        }
    }
}
