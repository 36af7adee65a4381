import Foundation
import MapFrameTestSupport
import Testing

/// The throwaway PostgreSQL cluster the shared-cache tests run against: it starts, takes its
/// password and no other, and can be stopped and started again with its data.
@Suite(.enabled(if: PostgresCluster.unavailability == nil, "PostgreSQL cannot run here; scripts/install-deps.sh test installs it (Debian's postgresql)"))
struct PostgresClusterTests {
    @Test func startsAndTakesItsPasswordThroughItsURL() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.remove() }
        try await cluster.createDatabase("tiles")
        try await cluster.psql("CREATE TABLE tile (id integer); INSERT INTO tile VALUES (42)", database: "tiles")
        let stored = try await cluster.psql("SELECT id FROM tile", database: "tiles")
        // As a client would log in: the URL, and the password from the environment.
        let url = cluster.url(database: "tiles")
        let client = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"), ["psql", url, "--no-psqlrc", "--tuples-only", "--no-align", "--command", "SELECT current_user, count(*) FROM tile"],
            in: FileManager.default.temporaryDirectory, environment: cluster.environment.mapValues { $0 }
        )
        #expect(stored == "42")
        #expect(url == "postgres://mapframe@127.0.0.1:\(cluster.port)/tiles")
        #expect(client.status == 0 && client.standardOutput.trimmingCharacters(in: .newlines) == "mapframe|1", "\(client)")
    }

    @Test func refusesAWrongPasswordAndNone() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.remove() }
        for password in ["wrong-password", ""] {
            let refusal: String
            do {
                refusal = "accepted: \(try await cluster.psql("SELECT 1", password: password))"
            } catch {
                refusal = "\(error)"
            }
            #expect(
                refusal.contains("password authentication failed for user \"mapframe\"") || refusal.contains("no password supplied"), "\(refusal)"
            )
        }
        #expect(try await cluster.psql("SELECT 1") == "1")
    }

    @Test func stopsAndStartsAgainOnTheSamePortWithItsData() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.remove() }
        try await cluster.psql("CREATE TABLE kept (word text); INSERT INTO kept VALUES ('still here')")
        try await cluster.stop()
        let refused: String
        do {
            refused = "accepted: \(try await cluster.psql("SELECT 1"))"
        } catch {
            refused = "\(error)"
        }
        try await cluster.start()
        #expect(refused.contains("Connection refused"), "\(refused)")
        #expect(try await cluster.psql("SELECT word FROM kept") == "still here")
        #expect(try await cluster.psql("SHOW port") == String(cluster.port))
    }
}
