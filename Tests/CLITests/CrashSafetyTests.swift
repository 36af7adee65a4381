import Foundation
import MapFrameTestSupport
import Testing
import UpstreamSimulator

@Suite("cache safety across processes")
struct CrashSafetyTests {
    @Test("a seed killed with SIGKILL leaves a sound cache holding every tile it reported, each with its freshness; a re-run finishes")
    func killedMidSeed() async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            // 50 ms a tile, 4 at a time: 271 tiles take over 3 s, long enough to kill the seed midway.
            upstream.serveFixtureTiles(delay: 0.05)
            let style = try workspace.writeStyle(upstream: upstream)
            let area = SeedArea(bbox: "0.12,52.195,0.16,52.215", zooms: 16...17)
            let tiles = area.tiles
            try #require(tiles.count == 271)
            let arguments = SeedCommandTests.seedArguments(workspace, style: style, area: area, extra: ["--concurrency", "4"])

            // Progress lines come once a second; kill at the first that reports 20 or more fetched.
            let child = try workspace.startMapframe(arguments)
            var killed = false
            while child.isRunning {
                let latest = child.standardErrorSoFar.split(separator: "\n").compactMap(FillCounts.init).last
                if let latest, latest.fetched >= 20 {
                    child.send(SIGKILL)
                    killed = true
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            let result = try await child.waitForExit()
            try #require(killed, "the seed finished before it reported 20 tiles fetched: \(result)")
            #expect(result.status == SIGKILL, "\(result)")
            let lastReport = try #require(result.errorLines.compactMap(FillCounts.init).last)
            try #require(lastReport.fetched < tiles.count, "the seed was killed after it had finished: \(result)")

            let contents = try await CacheContents.read(workspace.path("cache/local.mbtiles"))
            #expect(contents.integrity == "ok")
            #expect(contents.tiles.count >= lastReport.fetched, "\(contents.tiles.count) tiles stored, \(lastReport.fetched) reported fetched")
            #expect(contents.tiles.isSubset(of: tiles))
            #expect(contents.undecodable.isEmpty, "tiles stored half-written: \(contents.undecodable)")
            #expect(contents.tilesWithoutState.isEmpty, "tiles stored without their freshness: \(contents.tilesWithoutState)")

            // No delay now: the re-run fetches what is missing and keeps what was stored.
            upstream.serveFixtureTiles()
            upstream.resetLog()
            let rerun = try await workspace.mapframe(arguments)
            #expect(rerun.status == 0, "\(rerun)")
            let stored = contents.tiles.count
            #expect(rerun.errorLines.last.flatMap(FillCounts.init) == FillCounts(tiles: tiles.count, cached: stored, fetched: tiles.count - stored), "\(rerun)")
            #expect(Set(upstream.requests.map(\.path)) == Set(tiles.subtracting(contents.tiles).map(upstreamPath)))
            let final = try await CacheContents.read(workspace.path("cache/local.mbtiles"))
            #expect(final.integrity == "ok")
            #expect(final.tiles == tiles)
            #expect(final.undecodable.isEmpty && final.tilesWithoutState.isEmpty)
        }
    }

    /// Two seeds of overlapping areas into one cache file at once, the file either made
    /// beforehand (by seeding the west area's zoom 14) or created by whichever seed gets there first.
    @Test("two seeds fill one cache at once: both succeed, no lock errors, and it holds the union of their tiles",
          arguments: ["existing cache", "new cache"])
    func twoSeedsAtOnce(cache: String) async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            // A little delay spreads each seed's writes out, so the two interleave.
            upstream.serveFixtureTiles(delay: 0.01)
            let style = try workspace.writeStyle(upstream: upstream)
            let west = SeedArea(bbox: "0.12,52.20,0.15,52.215", zooms: 14...16)
            let east = SeedArea(bbox: "0.13,52.195,0.16,52.21", zooms: 14...16)
            let union = west.tiles.union(east.tiles)
            try #require(!west.tiles.isDisjoint(with: east.tiles) && union.count > west.tiles.count)
            if cache == "existing cache" {
                let zoom14 = SeedArea(bbox: west.bbox, zooms: 14...14)
                let first = try await workspace.mapframe(SeedCommandTests.seedArguments(workspace, style: style, area: zoom14))
                try #require(first.status == 0 && workspace.exists("cache/local.mbtiles"), "\(first)")
            }

            let children = try [west, east].map { area in
                try workspace.startMapframe(SeedCommandTests.seedArguments(workspace, style: style, area: area, extra: ["--concurrency", "4"]))
            }
            var results: [CommandResult] = []
            for child in children { results.append(try await child.waitForExit()) }
            for (result, area) in zip(results, [west, east]) {
                #expect(result.status == 0, "\(result)")
                let report = result.errorLines.last.flatMap(FillCounts.init)
                #expect(report?.tiles == area.tiles.count && report?.failed == 0, "\(result)")
                for word in ["locked", "busy"] {
                    #expect(!result.standardError.lowercased().contains(word), "\(result)")
                }
            }
            let contents = try await CacheContents.read(workspace.path("cache/local.mbtiles"))
            #expect(contents.integrity == "ok")
            let missing = union.subtracting(contents.tiles), extra = contents.tiles.subtracting(union)
            #expect(missing.isEmpty && extra.isEmpty, "\(missing.count) of \(union.count) tiles missing, \(extra.count) unexpected")
            #expect(contents.undecodable.isEmpty && contents.tilesWithoutState.isEmpty)
        }
    }
}
