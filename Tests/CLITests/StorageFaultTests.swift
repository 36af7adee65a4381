import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

/// `mapframe serve` when its storage goes wrong under it: a cache file damaged, cut short,
/// removed or replaced, a `-shm` file made unwritable. The server never crashes and never
/// answers 500 for it; it serves tiles from memory and the upstream, refuses route writes it
/// cannot keep, and says so in `/healthz` and the log within seconds.
@Suite("Storage faults")
struct StorageFaultTests {
    /// A 4 x 4 block of the demo area at zoom 16, fetched into the cache before each fault.
    static let block = (0..<16).map { TileID(z: 16, x: 32_790 + $0 % 4, y: 21_724 + $0 / 4) }

    @Test("a cache file cut short while serving: its tiles come from the upstream, no 5xx, /healthz degraded, the log says why")
    func cutShortWhileServing() async throws {
        try await Self.withFilledCache { rig in
            let file = rig.workspace.path("cache/local.mbtiles")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            #expect(truncate(file, off_t(size / 2)) == 0)
            try await rig.expectServedDegraded(because: "cache \(file) is unavailable: it is damaged")
        }
    }

    @Test("pages inside a cache file overwritten while serving: no 5xx, /healthz degraded, the log says why")
    func damagedPagesWhileServing() async throws {
        try await Self.withFilledCache { rig in
            let file = rig.workspace.path("cache/local.mbtiles")
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            var generator = SystemRandomNumberGenerator()
            // Pages 2 onwards: the tiles' table and index, past the schema on page 1.
            try handle.seek(toOffset: 4096)
            try handle.write(contentsOf: Data((0..<(64 * 4096)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            try handle.close()
            try await rig.expectServedDegraded(because: "cache \(file) is unavailable: it is damaged")
        }
    }

    @Test("a cache file cut short before the server starts: it refuses to start, naming the file and what is wrong")
    func cutShortAtStart() async throws {
        try await Self.withFilledCache { rig in
            rig.server.stop()
            let file = rig.workspace.path("cache/local.mbtiles")
            // Every page in the file itself, none left in its write-ahead log: the start-up check
            // reads the page count from the file's header, which a checkpoint brings up to date.
            _ = try await IndependentSQLite.query(file, "PRAGMA wal_checkpoint(TRUNCATE)")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            #expect(truncate(file, off_t(size / 2)) == 0)
            let serving = try rig.workspace.startMapframe(["serve", "--port", "0", "--cache-dir", rig.workspace.path("cache"), "--style-file", rig.style])
            let result = try #require(await serving.waitForExit(timeout: .seconds(30)), "the server started on a file cut short: \(serving.standardErrorSoFar)")
            #expect(result.status == 1)
            #expect(result.standardError.contains("cache: \(file) is damaged (open failed: it is cut short: its header counts"), "\(result.standardError)")
        }
    }

    @Test("the cache directory removed while serving: route posts get 503, never 201; tiles come from the upstream; the log says so within seconds")
    func directoryRemovedWhileServing() async throws {
        try await Self.withFilledCache { rig in
            try FileManager.default.removeItem(atPath: rig.workspace.path("cache"))
            // Nobody asks anything: the server's own look every 5 s finds it.
            try await waitUntil("the log says the route store was removed") {
                rig.server.child.standardErrorSoFar.contains("route store \(rig.workspace.path("cache/routes.sqlite")) is unavailable: the file was removed while in use")
            }
            let post = try await TestHTTP.post(rig.server.url("routes"), body: Data(Self.route.utf8), contentType: "application/geo+json")
            #expect(post.status == 503, "a route that cannot be kept is not acknowledged: \(post.status)")
            try await rig.expectServedDegraded(because: "cache \(rig.workspace.path("cache/local.mbtiles")) is unavailable: the file was removed while in use")
        }
    }

    @Test("a cache file replaced with mv while serving: the old one is no longer used, and the log says so")
    func fileReplacedWhileServing() async throws {
        try await Self.withFilledCache { rig in
            let file = rig.workspace.path("cache/local.mbtiles")
            try FileManager.default.copyItem(atPath: file, toPath: file + ".new")
            #expect(rename(file + ".new", file) == 0)
            try await rig.expectServedDegraded(because: "cache \(file) is unavailable: the file was replaced while in use")
        }
    }

    @Test(
        "an immutable -shm beside routes.sqlite and the cache: no SIGBUS; route posts get 503, cold tiles 200, and SIGTERM exits 0",
        .enabled(if: Immutability.unavailability == nil, "\(Immutability.unavailability ?? "")")
    )
    func immutableSharedMemory() async throws {
        try await Self.withFilledCache { rig in
            let files = ["cache/routes.sqlite-shm", "cache/local.mbtiles-shm"].map(rig.workspace.path)
            for file in files { try Immutability.set(true, on: file) }
            defer { for file in files { try? Immutability.set(false, on: file) } }
            let post = try await TestHTTP.post(rig.server.url("routes"), body: Data(Self.route.utf8), contentType: "application/geo+json")
            #expect(post.status == 503, "\(post.status): \(String(decoding: post.body, as: UTF8.self))")
            // Never asked for: looked up in the cache, fetched, and stored (a write to the -shm's memory).
            let cold = try await TestHTTP.get(rig.server.url("tiles/local/16/32800/21730.png"))
            #expect(cold.status == 200)
            try await rig.expectServedDegraded(because: "its -shm file can no longer be written")
            rig.server.child.send(SIGTERM)
            let exit = await rig.server.child.waitForExit(timeout: .seconds(20))
            #expect(exit?.status == 0, "\(exit?.standardError.suffix(2_000) ?? "still running")")
        }
    }

    static let route = #"{"type": "LineString", "coordinates": [[0.1403, 52.2043], [0.1452, 52.2081]]}"#

    /// A server whose cache holds `block`, fetched by an earlier server from the upstream,
    /// and none of it in memory yet.
    struct Rig {
        let workspace: Workspace
        let style: String
        let server: ServeProcess

        /// Every tile of `block` answered 200, whatever the cache holds; `/healthz` degraded with
        /// only the public reason; the log saying `because`.
        func expectServedDegraded(because: String) async throws {
            for tile in StorageFaultTests.block {
                let answer = try await TestHTTP.get(server.url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png"))
                #expect(answer.status == 200, "\(tile): \(answer.status)")
            }
            let health = try await TestHTTP.get(server.url("healthz"))
            #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == #"{"reason":"cache unavailable","status":"degraded"}"#)
            try await waitUntil("the log says: \(because)") { server.child.standardErrorSoFar.contains(because) }
            #expect(!server.child.standardErrorSoFar.contains("status=500"))
        }
    }

    static func withFilledCache(_ body: (Rig) async throws -> Void) async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        upstream.serveFixtureTiles(headers: { _ in [("Cache-Control", "max-age=86400")] })
        try await Workspace.with { workspace in
            let style = try workspace.writeStyle(upstream: upstream)
            let arguments = ["--cache-dir", workspace.path("cache"), "--style-file", style]
            let filling = try await ServeProcess.start(arguments, in: workspace.directory)
            for tile in block { #expect(try await TestHTTP.get(filling.url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png")).status == 200) }
            #expect(try await TestHTTP.post(filling.url("routes"), body: Data(route.utf8), contentType: "application/geo+json").status == 201)
            filling.stop()
            let server = try await ServeProcess.start(arguments, in: workspace.directory)
            defer { server.stop() }
            // One tile outside the block, so that the cache's connection has read the file.
            #expect(try await TestHTTP.get(server.url("tiles/local/16/32790/21730.png")).status == 200)
            try await body(Rig(workspace: workspace, style: style, server: server))
        }
    }
}

/// `chattr +i`: a file nobody may write, root included, on file systems that keep the flag.
enum Immutability {
    static func set(_ immutable: Bool, on path: String) throws {
        let result = try runProgramBlocking(URL(fileURLWithPath: "/usr/bin/chattr"), [immutable ? "+i" : "-i", path], in: URL(fileURLWithPath: "/"))
        guard result.status == 0 else { throw TestSetupError(description: "chattr on \(path): \(result)") }
    }

    /// Why files cannot be made immutable here (not root, chattr missing, a file system without
    /// the flag), or nil when they can.
    static let unavailability: String? = {
        guard let directory = try? TemporaryDirectory("immutability") else { return "no temporary directory" }
        defer { directory.remove() }
        let file = directory.path("probe")
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        do {
            try set(true, on: file)
            try set(false, on: file)
            return nil
        } catch {
            return "files cannot be made immutable here: \(error)"
        }
    }()
}
