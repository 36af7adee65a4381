import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Several `mapframe serve` instances on one throwaway PostgreSQL cluster, with the test
/// upstream counting what they ask it for.
@Suite("A PostgreSQL cache shared by several instances", .enabled(if: PostgresCluster.unavailability == nil, "\(PostgresCluster.unavailability ?? "")"))
struct SharedCacheTests {
    /// A tile of the demo area.
    static let tile = TileID(z: 16, x: 32_791, y: 21_724)

    @Test("20 concurrent requests for one tile, spread over two instances, make one upstream request")
    func oneFetchAcrossInstances() async throws {
        try await SharedCacheRig.with(instances: 2, upstreamDelay: 0.4) { rig in
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask { try await TestHTTP.get(rig.instances[index % 2].url("tiles/local/\(Self.tile.z)/\(Self.tile.x)/\(Self.tile.y).png")).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers == Array(repeating: 200, count: 20), "\(answers)")
            #expect(rig.upstream.requestCount(for: upstreamPath(Self.tile)) == 1, "\(rig.upstream.requests.map(\.path))")
        }
    }

    @Test("a tile fetched through one instance is served by the other with no upstream request, byte for byte")
    func tileSharedBetweenInstances() async throws {
        try await SharedCacheRig.with(instances: 2) { rig in
            let path = "tiles/local/\(Self.tile.z)/\(Self.tile.x)/\(Self.tile.y).png"
            let first = try await TestHTTP.get(rig.instances[0].url(path))
            #expect(first.status == 200)
            #expect(rig.upstream.requests.count == 1)
            let second = try await TestHTTP.get(rig.instances[1].url(path))
            #expect(second.status == 200 && second.body == first.body)
            #expect(rig.upstream.requests.count == 1, "the second instance asked the upstream: \(rig.upstream.requests.map(\.path))")
        }
    }

    @Test("a route posted to one instance is listed by, and draws on, the other")
    func routeSharedBetweenInstances() async throws {
        try await SharedCacheRig.with(instances: 2) { rig in
            let id = try await rig.instances[0].postRoute()
            let listed = try await TestHTTP.get(rig.instances[1].url("routes"))
            #expect(String(decoding: listed.body, as: UTF8.self).contains(id), "\(String(decoding: listed.body, as: UTF8.self))")
            // The route runs through this tile: drawn on it, the tile differs from the base tile.
            let path = "\(Self.tile.z)/\(Self.tile.x)/\(Self.tile.y).png"
            let drawn = try await TestHTTP.get(rig.instances[1].url("routes/\(id)/tiles/local/" + path))
            let base = try await TestHTTP.get(rig.instances[1].url("tiles/local/" + path))
            #expect(drawn.status == 200 && base.status == 200)
            #expect(drawn.body != base.body, "the route is not drawn on the other instance's tile")
        }
    }

    @Test("with PostgreSQL stopped under load: no 5xx, /healthz says degraded (why only with --health-details, the log always), and service recovers after a restart")
    func databaseStopsUnderLoad() async throws {
        try await SharedCacheRig.with(instances: 1) { rig in
            let server = rig.instances[0]
            let detailed = try await ServeProcess.start(["--cache", rig.databaseURL, "--style-file", rig.style, "--health-details"], in: rig.workspace.directory, environment: rig.environment
            )
            defer { detailed.stop() }
            let held = "tiles/local/\(Self.tile.z)/\(Self.tile.x)/\(Self.tile.y).png"
            #expect(try await TestHTTP.get(server.url(held)).status == 200)
            try await rig.cluster.stop()
            // Held in memory, never cached, and neighbours: memory, then the upstream.
            var statuses: [Int] = []
            for offset in 0..<12 {
                let tile = TileID(z: 16, x: Self.tile.x + offset % 4, y: Self.tile.y + offset / 4)
                statuses.append(try await TestHTTP.get(server.url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png")).status)
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            // Anyone may ask /healthz: it says only that the cache is unavailable. The log, and
            // /healthz with --health-details, say where and why.
            let health = try await TestHTTP.get(server.url("healthz"))
            let healthText = String(decoding: health.body, as: UTF8.self)
            #expect(health.status == 200 && healthText == #"{"reason":"cache unavailable","status":"degraded"}"#, "\(healthText)")
            let fullReason = "cache postgres://mapframe@127.0.0.1:\(rig.cluster.port)/tiles is unavailable"
            // The log is written by a thread of its own, so the line may follow the answer.
            try await waitUntil("the log says \(fullReason)") { server.child.standardErrorSoFar.contains(fullReason) }
            let detailedText = String(decoding: try await TestHTTP.get(detailed.url("healthz")).body, as: UTF8.self)
            #expect(detailedText.contains("degraded") && detailedText.contains(fullReason), "\(detailedText)")
            #expect(![healthText, detailedText, server.child.standardErrorSoFar].contains { $0.contains(rig.cluster.password) })
            let metrics = String(decoding: try await TestHTTP.get(server.url("metrics")).body, as: UTF8.self)
            #expect(metrics.contains(#"mapframe_cache_available{backend="postgres"} 0"#), "\(metrics.split(separator: "\n").filter { $0.contains("available") })")
            #expect(!metrics.contains(rig.cluster.password))

            try await rig.cluster.start()
            var recovered = false
            for _ in 0..<40 where !recovered {
                try await Task.sleep(for: .milliseconds(250))
                recovered = String(decoding: try await TestHTTP.get(server.url("healthz")).body, as: UTF8.self).contains(#""ok""#)
            }
            #expect(recovered, "healthz did not return to ok after PostgreSQL came back")
            let availableAgain = "cache postgres://mapframe@127.0.0.1:\(rig.cluster.port)/tiles is available again"
            try await waitUntil("the log says \(availableAgain)") { server.child.standardErrorSoFar.contains(availableAgain) }
            // A tile fetched now is stored in the database again.
            let fresh = TileID(z: 16, x: Self.tile.x + 7, y: Self.tile.y)
            #expect(try await TestHTTP.get(server.url("tiles/local/\(fresh.z)/\(fresh.x)/\(fresh.y).png")).status == 200)
            let stored = try await rig.cluster.psql("SELECT count(*) FROM mapframe_tiles WHERE x = \(fresh.x) AND y = \(fresh.y)", database: "tiles")
            #expect(stored.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(stored)")
            #expect(!server.child.standardErrorSoFar.contains(rig.cluster.password))
        }
    }

    @Test("with the tiles table refused while serving: no 5xx, /healthz degraded, the log says why, and service recovers")
    func databaseRefusesStatements() async throws {
        try await SharedCacheRig.with(instances: 1) { rig in
            let server = rig.instances[0]
            #expect(try await TestHTTP.get(server.url("tiles/local/\(Self.tile.z)/\(Self.tile.x)/\(Self.tile.y).png")).status == 200)
            // Every statement on the tiles now fails with SQLSTATE 42P01, as it would with 42501
            // for rights taken away: the database answers, but refuses the cache's work.
            try await rig.cluster.psql("ALTER TABLE mapframe_tiles RENAME TO mapframe_tiles_aside", database: "tiles")
            var statuses: [Int] = []
            for offset in 0..<12 {
                let tile = TileID(z: 16, x: Self.tile.x + offset % 4, y: Self.tile.y + offset / 4)
                statuses.append(try await TestHTTP.get(server.url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png")).status)
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            // Past the second in which a failed statement is remembered: the health check itself
            // must find the table gone.
            try await Task.sleep(for: .seconds(2))
            let healthText = String(decoding: try await TestHTTP.get(server.url("healthz")).body, as: UTF8.self)
            #expect(healthText == #"{"reason":"cache unavailable","status":"degraded"}"#, "\(healthText)")
            // The log's lines are written in batches, so the health check's may follow its answer.
            try await waitUntil("the log says the cache is unavailable, with SQLSTATE 42P01") {
                let log = server.child.standardErrorSoFar
                return log.contains("is unavailable") && log.contains("42P01")
            }

            try await rig.cluster.psql("ALTER TABLE mapframe_tiles_aside RENAME TO mapframe_tiles", database: "tiles")
            var recovered = false
            for _ in 0..<60 where !recovered {
                try await Task.sleep(for: .milliseconds(250))
                recovered = String(decoding: try await TestHTTP.get(server.url("healthz")).body, as: UTF8.self).contains(#""ok""#)
            }
            #expect(recovered, "healthz did not return to ok once the table was back")
            // Tiles fetched now are stored again. On a loaded machine one store may still miss
            // the statement timeout, and its tile is then kept in memory only: the first of a few
            // new tiles to be stored shows the cache is back.
            var storedOne = false
            for offset in 7..<17 where !storedOne {
                let fresh = TileID(z: 16, x: Self.tile.x + offset, y: Self.tile.y)
                #expect(try await TestHTTP.get(server.url("tiles/local/\(fresh.z)/\(fresh.x)/\(fresh.y).png")).status == 200)
                storedOne = try await rig.cluster.psql("SELECT count(*) FROM mapframe_tiles WHERE x = \(fresh.x) AND y = \(fresh.y)", database: "tiles") == "1"
            }
            #expect(storedOne, "no tile fetched after the table came back was stored: \(server.child.standardErrorSoFar.suffix(800))")
        }
    }

    @Test("route writes and cold tiles while the database's backends are killed again and again: each answered within the statement timeout; writes 201 or a 503 that names no internals, every 201 stored; tiles 200")
    func routeWritesThroughBackendKills() async throws {
        try await SharedCacheRig.with(instances: 0) { rig in
            let server = try await ServeProcess.start(["--cache", rig.databaseURL, "--style-file", rig.style, "--write-rate-limit", "100000"], in: rig.workspace.directory, environment: rig.environment
            )
            defer { server.stop() }
            let bounds = Self.tile.bounds
            let body = Data("""
                {"type": "LineString", "coordinates": [[\(bounds.west - 0.001), \(bounds.south - 0.001)], [\(bounds.east + 0.001), \(bounds.north + 0.001)]]}
                """.utf8)
            let killer = Task {
                for _ in 0..<20 {
                    _ = try? await rig.cluster.psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'tiles' AND pid <> pg_backend_pid()")
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            // The statement timeout (5 s) and a margin for a loaded machine.
            let longestWait = 8.0
            // Cold tiles meanwhile: their turns to fetch are taken on the lock connection, which
            // the kills break too.
            let coldTiles = Task {
                var answers: [(status: Int, seconds: Double)] = []
                for offset in 0..<40 {
                    let tile = TileID(z: 16, x: Self.tile.x + offset % 8, y: Self.tile.y + offset / 8)
                    let started = Date()
                    let answer = try await TestHTTP.get(server.url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png"))
                    answers.append((answer.status, Date().timeIntervalSince(started)))
                }
                return answers
            }
            let answers = try await withThrowingTaskGroup(of: [(status: Int, seconds: Double, body: String, id: String?)].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var answers: [(status: Int, seconds: Double, body: String, id: String?)] = []
                        for _ in 0..<30 {
                            let started = Date()
                            let answer = try await TestHTTP.post(server.url("routes"), body: body, contentType: "application/geo+json")
                            let id = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["id"] as? String
                            answers.append((answer.status, Date().timeIntervalSince(started), String(decoding: answer.body, as: UTF8.self), id))
                        }
                        return answers
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            _ = await killer.result
            // Once the kills stop, writes are stored again: the writers above may all have been
            // answered while the database was still marked unavailable, when nothing is stored.
            let recovery = ContinuousClock.now + .seconds(20)
            var recoveredID: String?
            while recoveredID == nil, ContinuousClock.now < recovery {
                let answer = try await TestHTTP.post(server.url("routes"), body: body, contentType: "application/geo+json")
                let id = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["id"] as? String
                if answer.status == 201, let id { recoveredID = id } else { try await Task.sleep(for: .milliseconds(250)) }
            }
            #expect(recoveredID != nil, "no route was acknowledged in the 20 s after the kills stopped")
            let tileAnswers = try await coldTiles.value
            #expect(tileAnswers.allSatisfy { $0.status == 200 && $0.seconds <= longestWait }, "\(tileAnswers)")
            let slow = answers.filter { $0.seconds > longestWait }
            #expect(slow.isEmpty, "\(slow.count) writes took over \(longestWait) s: \(slow.map(\.seconds))")
            let unexpected = answers.filter { ![201, 503].contains($0.status) }
            #expect(unexpected.isEmpty, "\(unexpected.map { "\($0.status) \($0.body)" })")
            let leaky = answers.filter { $0.status == 503 && ($0.body.contains("postgres") || $0.body.contains(".swift") || $0.body.contains("127.0.0.1")) }
            #expect(leaky.isEmpty, "\(leaky.first?.body ?? "")")
            let acknowledged = Set(answers.compactMap(\.id) + [recoveredID].compactMap { $0 })
            let stored = Set(try await rig.cluster.psql("SELECT id FROM mapframe_routes", database: "tiles").split(separator: "\n").map(String.init))
            #expect(acknowledged.isSubset(of: stored), "\(acknowledged.subtracting(stored).count) acknowledged routes are not stored")
        }
    }

    @Test("each tile served from the database costs one statement, its lookup, counted by pg_stat_statements")
    func oneStatementPerLookup() async throws {
        try await SharedCacheRig.with(instances: 0, preloading: ["pg_stat_statements"]) { rig in
            let seeded = try await rig.workspace.mapframe(
                ["seed", "--style", "local", "--style-file", rig.style, "--cache", rig.databaseURL] + SeedCommandTests.area.arguments,
                environment: rig.environment
            )
            try #require(seeded.status == 0, "\(seeded)")
            let server = try await ServeProcess.start(["--cache", rig.databaseURL, "--style-file", rig.style], in: rig.workspace.directory, environment: rig.environment
            )
            defer { server.stop() }
            try await rig.cluster.psql("CREATE EXTENSION pg_stat_statements; SELECT pg_stat_statements_reset()", database: "tiles")

            let tiles = SeedCommandTests.area.tiles.sorted { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) }
            for tile in tiles {
                #expect(try await TestHTTP.get(server.url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png")).status == 200)
            }

            let rows = try await rig.cluster.psql("""
                SELECT calls || E'\\t' || regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'tiles') AND query NOT LIKE '%pg_stat_statements%'
                """, database: "tiles").split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
            let lookups = rows.filter { $0.last?.contains("WITH ORDINALITY") == true }.compactMap { Int($0[0]) }.reduce(0, +)
            #expect(lookups == tiles.count, "\(lookups) lookups for \(tiles.count) tiles: \(rows)")
            // Now and then, apart from requests, the server checks the database and writes down
            // which tiles were used; and PostgresNIO's pool keeps a connection idle for 30 s alive
            // with `SELECT 1;` (a test slowed by a loaded machine sees it).
            let others = rows.filter { row in
                let query = row.last ?? ""
                return !query.contains("WITH ORDINALITY") && !query.contains("has_table_privilege") && !query.contains("SET last_used")
                    && query != "SELECT $1"
            }
            #expect(others.isEmpty, "statements besides the lookups: \(others)")
        }
    }

    @Test("/healthz asked 20 times in a row costs the database one check a second, however many stores share it")
    func healthChecksShareOneLook() async throws {
        try await SharedCacheRig.with(instances: 0, preloading: ["pg_stat_statements"]) { rig in
            let server = try await ServeProcess.start(["--cache", rig.databaseURL, "--style-file", rig.style], in: rig.workspace.directory, environment: rig.environment
            )
            defer { server.stop() }
            try await rig.cluster.psql("CREATE EXTENSION pg_stat_statements; SELECT pg_stat_statements_reset()", database: "tiles")
            let started = Date()
            for _ in 0..<20 {
                #expect(try await TestHTTP.get(server.url("healthz")).status == 200)
            }
            let seconds = Date().timeIntervalSince(started)
            let checks = try await rig.cluster.psql("""
                SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'tiles') AND query LIKE '%has_table_privilege%'
                """, database: "tiles")
            // One look a second at most: one, or two when the asking spans a second's end.
            let allowed = Int(seconds.rounded(.up)) + 1
            #expect((Int(checks) ?? .max) <= allowed, "\(checks) checks in \(seconds) s")
        }
    }

    @Test("an MBTiles cache copied to PostgreSQL and back keeps every tile's bytes and freshness, and its routes")
    func copyRoundTrip() async throws {
        try await SharedCacheRig.with(instances: 0) { rig in
            let workspace = rig.workspace
            // A cache as a seed leaves it: every tile with its ETag and expiry.
            rig.upstream.serveFixtureTiles { tile in [("ETag", "\"\(tile.x)-\(tile.y)\""), ("Cache-Control", "max-age=86400")] }
            let seeded = try await workspace.mapframe(
                ["seed", "--style", "local", "--style-file", rig.style, "--cache-dir", workspace.path("from")] + SeedCommandTests.area.arguments
            )
            try #require(seeded.status == 0, "\(seeded)")
            try await workspace.addRoutes(["aaaa000000000001", "aaaa000000000002"], to: workspace.path("from/routes.sqlite"))

            let there = try await workspace.mapframe(["cache", "copy", workspace.path("from"), rig.databaseURL], environment: rig.environment)
            #expect(there.status == 0, "\(there)")
            #expect(there.standardOutput.contains("local: copied 64 tiles") && there.standardOutput.contains("routes: copied 2"), "\(there)")
            let back = try await workspace.mapframe(["cache", "copy", rig.databaseURL, workspace.path("back")], environment: rig.environment)
            #expect(back.status == 0, "\(back)")

            let query = """
                SELECT t.zoom_level, t.tile_column, t.tile_row, hex(t.tile_data), s.etag, s.last_modified, s.expires_at, s.fetched_at
                FROM tiles t JOIN mapframe_tile_state s USING (zoom_level, tile_column, tile_row) ORDER BY 1, 2, 3
                """
            let original = try await IndependentSQLite.query(workspace.path("from/local.mbtiles"), query)
            #expect(original.count == 64)
            #expect(try await IndependentSQLite.query(workspace.path("back/local.mbtiles"), query) == original)
            let routes = "SELECT id, created_at, hex(coordinates), hex(part_lengths) FROM routes ORDER BY id"
            #expect(try await IndependentSQLite.query(workspace.path("back/routes.sqlite"), routes) == IndependentSQLite.query(workspace.path("from/routes.sqlite"), routes))

            // Run again: nothing doubles, routes already there are kept.
            let again = try await workspace.mapframe(["cache", "copy", workspace.path("from"), rig.databaseURL], environment: rig.environment)
            #expect(again.standardOutput.contains("routes: copied 0; 2 already there"), "\(again)")
            let count = try await rig.cluster.psql("SELECT count(*) FROM mapframe_tiles", database: "tiles")
            #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "64")
        }
    }

    @Test("--cache-limit purges the least recently used tiles of a shared database, as it does a file")
    func capacityPurgesTheDatabase() async throws {
        try await SharedCacheRig.with(instances: 0) { rig in
            let seeded = try await rig.workspace.mapframe(
                ["seed", "--style", "local", "--style-file", rig.style, "--cache", rig.databaseURL, "--cache-limit", "20"] + SeedCommandTests.area.arguments,
                environment: rig.environment
            )
            #expect(seeded.status == 0, "\(seeded)")
            #expect(rig.upstream.requests.count == 64, "every tile of the area is fetched once")
            let count = try await rig.cluster.psql("SELECT count(*) FROM mapframe_tiles", database: "tiles").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(Int(count).map { (1...20).contains($0) } == true, "\(count) tiles kept; the limit is 20")
            let stats = try await rig.workspace.mapframe(["cache", "stats", "--cache", rig.databaseURL], environment: rig.environment)
            #expect(stats.standardOutput.contains("tiles: \(count) ("), "\(stats)")
        }
    }

    @Test("the password is refused on the command line, and a wrong one is reported without showing any password")
    func passwordStaysSecret() async throws {
        try await SharedCacheRig.with(instances: 0) { rig in
            let workspace = rig.workspace
            let inURL = rig.databaseURL.replacingOccurrences(of: "mapframe@", with: "mapframe:hunter2secret@")
            let refused = try await workspace.mapframe(["cache", "stats", "--cache", inURL])
            #expect(refused.status != 0 && refused.standardError.contains("holds a password") && !refused.standardError.contains("hunter2secret"), "\(refused)")

            let wrong = try await workspace.mapframe(["cache", "stats", "--cache", rig.databaseURL], environment: ["PGPASSWORD": "wrong-password-123"])
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.standardError.contains("password authentication failed"), "\(wrong)")
            #expect(!wrong.standardError.contains("wrong-password-123") && !wrong.standardError.contains(rig.cluster.password), "\(wrong)")

            // A pgpass file serves as well as PGPASSWORD.
            let pgpass = try workspace.write("127.0.0.1:\(rig.cluster.port):tiles:mapframe:\(rig.cluster.password)\n", to: "pgpass")
            chmod(pgpass, 0o600)
            let fromFile = try await workspace.mapframe(["cache", "stats", "--cache", rig.databaseURL], environment: ["PGPASSWORD": nil, "PGPASSFILE": pgpass])
            #expect(fromFile.status == 0, "\(fromFile)")
        }
    }
}

/// A PostgreSQL cluster with a `tiles` database, a test upstream of fixture tiles, a style file
/// pointing at it, and `instances` servers sharing the database.
struct SharedCacheRig {
    let workspace: Workspace
    let cluster: PostgresCluster
    let upstream: UpstreamSimulator
    let style: String
    var instances: [ServeProcess] = []

    var databaseURL: String { cluster.url(database: "tiles") }
    var environment: [String: String?] { cluster.environment.mapValues { $0 } }

    /// - Parameter libraries: server libraries the cluster loads, such as `pg_stat_statements`.
    static func with(
        instances count: Int, upstreamDelay: TimeInterval = 0, preloading libraries: [String] = [], _ body: (SharedCacheRig) async throws -> Void
    ) async throws {
        let cluster = try await PostgresCluster(preloading: libraries)
        defer { cluster.remove() }
        try await cluster.createDatabase("tiles")
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        upstream.serveFixtureTiles(delay: upstreamDelay, headers: { _ in [("Cache-Control", "max-age=86400")] })
        try await Workspace.with { workspace in
            var rig = SharedCacheRig(workspace: workspace, cluster: cluster, upstream: upstream, style: try workspace.writeStyle(upstream: upstream))
            defer { rig.instances.forEach { $0.stop() } }
            for _ in 0..<count {
                rig.instances.append(try await ServeProcess.start(["--cache", rig.databaseURL, "--style-file", rig.style], in: workspace.directory, environment: rig.environment
                ))
            }
            try await body(rig)
        }
    }
}

extension ServeProcess {
    /// Posts a two-point route across `SharedCacheTests.tile` and returns its id.
    func postRoute() async throws -> String {
        let bounds = SharedCacheTests.tile.bounds
        let body = """
            {"type": "LineString", "coordinates": [[\(bounds.west - 0.001), \(bounds.south - 0.001)], [\(bounds.east + 0.001), \(bounds.north + 0.001)]]}
            """
        return try await postRoute(geoJSON: body)
    }
}

extension Workspace {
    /// Adds routes of three points each to a `routes.sqlite` the server would make.
    func addRoutes(_ ids: [String], to path: String) async throws {
        try await IndependentSQLite.execute(path, "CREATE TABLE IF NOT EXISTS routes (id TEXT PRIMARY KEY, created_at REAL NOT NULL, coordinates BLOB NOT NULL, part_lengths BLOB)")
        for (index, id) in ids.enumerated() {
            let points = [0.12, 52.20, 0.13 + Double(index) / 100, 52.205, 0.14, 52.21].reduce(into: Data()) { bytes, value in
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
            try await IndependentSQLite.change(
                path, "INSERT INTO routes VALUES (?, 1700000000.25 + ?, ?, NULL)", [.text(id), .integer(index), .blob(points)]
            )
        }
    }
}

/// The two instances behind nginx as a round-robin load balancer, with the configuration the
/// README gives, driven by wrk.
@Suite(
    "Instances behind a load balancer",
    .enabled(if: PostgresCluster.unavailability == nil, "\(PostgresCluster.unavailability ?? "")"),
    .enabled(if: LoadBalancer.unavailability == nil, "\(LoadBalancer.unavailability ?? "")")
)
struct LoadBalancerTests {
    @Test("killing one instance under load: the load balancer's clients see no 5xx, and the other instance serves on")
    func instanceKilledUnderLoad() async throws {
        try await SharedCacheRig.with(instances: 2) { rig in
            // Sixteen tiles, fetched once into the shared cache.
            let tiles = (0..<16).map { TileID(z: 16, x: SharedCacheTests.tile.x + $0 % 4, y: SharedCacheTests.tile.y + $0 / 4) }
            for tile in tiles { #expect(try await TestHTTP.get(rig.instances[0].url("tiles/local/\(tile.z)/\(tile.x)/\(tile.y).png")).status == 200) }
            let balancer = try await LoadBalancer(ports: rig.instances.map(\.port), in: rig.workspace)
            defer { balancer.stop() }
            let paths = tiles.map { "/tiles/local/\($0.z)/\($0.x)/\($0.y).png" }
            let load = try balancer.startLoad(paths: paths, seconds: 6, in: rig.workspace)
            try await Task.sleep(for: .seconds(2))
            kill(rig.instances[0].child.processIdentifier, SIGKILL)
            let report = try await load.finish()
            #expect(report.requests > 1_000, "\(report)")
            #expect(report.serverErrors == 0, "clients saw 5xx: \(report)")
            #expect(report.otherFailures == 0, "\(report)")
            #expect(rig.upstream.requests.count == tiles.count, "the upstream was asked again: \(rig.upstream.requests.count) requests")
        }
    }
}

/// nginx in front of MapFrame instances: round robin, keep-alive to the instances, and a retry
/// on the next instance when one fails to answer (`proxy_next_upstream`).
struct LoadBalancer {
    let process: ChildProcess
    let port: Int

    static let nginx = "/usr/sbin/nginx"
    static let wrk = "/usr/bin/wrk"

    static var unavailability: String? {
        for program in [nginx, wrk] where !FileManager.default.isExecutableFile(atPath: program) {
            return "\(program) is not installed (Debian's nginx and wrk; `scripts/install-deps.sh test` installs them)"
        }
        return nil
    }

    /// The `http` block's contents the README shows, for instances on `ports`, listening on `port`.
    static func configuration(instancePorts ports: [Int], port: Int) -> String {
        """
        upstream mapframe {
            \(ports.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=10s;" }.joined(separator: "\n    "))
            keepalive 32;
        }
        server {
            listen 127.0.0.1:\(port);
            location / {
                proxy_pass http://mapframe;
                proxy_http_version 1.1;
                proxy_set_header Connection "";
                proxy_set_header Host $host;
                proxy_connect_timeout 2s;
                proxy_next_upstream error timeout http_502 http_503 http_504;
                proxy_next_upstream_tries 2;
            }
        }
        """
    }

    /// Starts nginx on a free port (`FreePort.retrying`).
    init(ports: [Int], in workspace: Workspace) async throws {
        (process, port) = try await FreePort.retrying({ port in (try await Self.start(instancePorts: ports, port: port, in: workspace), port) }, whenTaken: { error in
            (error as? TestSetupError)?.description.contains("Address already in use") == true
        })
    }

    private static func start(instancePorts ports: [Int], port: Int, in workspace: Workspace) async throws -> ChildProcess {
        let prefix = workspace.path("nginx")
        try FileManager.default.createDirectory(atPath: prefix + "/temp", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: prefix + "/error.log")
        let conf = try workspace.write("""
            worker_processes 1;
            daemon off;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/temp/body;
                proxy_temp_path \(prefix)/temp/proxy;
                fastcgi_temp_path \(prefix)/temp/fastcgi;
                uwsgi_temp_path \(prefix)/temp/uwsgi;
                scgi_temp_path \(prefix)/temp/scgi;
            \(configuration(instancePorts: ports, port: port))
            }
            """, to: "nginx/nginx.conf")
        let process = try ChildProcess.start(URL(fileURLWithPath: nginx), ["-p", prefix, "-c", conf, "-e", prefix + "/error.log"], in: workspace.directory)
        let deadline = Date().addingTimeInterval(10)
        while !FreePort.isListening(port) || !process.isRunning {
            guard Date() < deadline, process.isRunning else {
                process.stop()
                throw TestSetupError(description: "nginx did not start: \((try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? "")")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process
    }

    /// Starts wrk on `paths` in turn for `seconds`, counting answers by status.
    func startLoad(paths: [String], seconds: Int, in workspace: Workspace) throws -> Load {
        let script = try workspace.write("""
            local paths = {\(paths.map { "\"\($0)\"" }.joined(separator: ", "))}
            local counter = 0
            request = function()
                counter = counter + 1
                return wrk.format("GET", paths[(counter % #paths) + 1])
            end
            """, to: "load.lua")
        let child = try ChildProcess.start(
            URL(fileURLWithPath: Self.wrk), ["-t", "2", "-c", "8", "-d", "\(seconds)s", "-s", script, "http://127.0.0.1:\(port)"], in: workspace.directory
        )
        return Load(child: child)
    }

    func stop() { process.stop() }

    struct Load {
        let child: ChildProcess

        func finish() async throws -> Report {
            while child.isRunning { try await Task.sleep(for: .milliseconds(100)) }
            let output = child.standardOutputSoFar
            guard let total = output.firstMatch(of: #/(\d+) requests in/#) else {
                throw TestSetupError(description: "wrk said nothing of its requests: \(output)\(child.standardErrorSoFar)")
            }
            let non2xx = output.firstMatch(of: #/Non-2xx or 3xx responses: (\d+)/#).map { Int($0.1)! } ?? 0
            let socketErrors = output.firstMatch(of: #/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/#)
                .map { Int($0.1)! + Int($0.2)! + Int($0.3)! + Int($0.4)! } ?? 0
            return Report(requests: Int(total.1)!, serverErrors: non2xx, otherFailures: socketErrors, output: output)
        }
    }

    /// What wrk counted. Every path is a tile that exists, so any answer but 200 is a failure.
    struct Report: CustomStringConvertible {
        var requests: Int
        var serverErrors: Int
        var otherFailures: Int
        var output: String
        var description: String { output }
    }
}
