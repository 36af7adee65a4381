import Foundation
import MapFrameTestSupport
import Testing

/// The throwaway PostgreSQL cluster the shared-cache tests run against: it starts, takes its
/// password and no other, and can be stopped and started again with its data.
@Suite(.enabled(if: PostgresCluster.unavailability == nil, "PostgreSQL cannot run here; scripts/install-deps.sh test installs it (Debian's postgresql)"))
struct PostgresClusterTests {
    @Test func startsAndTakesItsPasswordThroughItsURL() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        try cluster.createDatabase("tiles")
        try cluster.psql("CREATE TABLE tile (id integer); INSERT INTO tile VALUES (42)", database: "tiles")
        #expect(try cluster.psql("SELECT id FROM tile", database: "tiles") == "42")

        // As a client would log in: the URL, and the password from the environment.
        let url = cluster.url(database: "tiles")
        #expect(url == "postgres://mapframe@127.0.0.1:\(cluster.port)/tiles")
        let client = try runProgram(
            URL(fileURLWithPath: "/usr/bin/env"), ["psql", url, "--no-psqlrc", "--tuples-only", "--no-align", "--command", "SELECT current_user, count(*) FROM tile"],
            in: FileManager.default.temporaryDirectory, environment: cluster.environment.mapValues { $0 }
        )
        #expect(client.status == 0 && client.standardOutput.trimmingCharacters(in: .newlines) == "mapframe|1", "\(client)")
    }

    @Test func refusesAWrongPasswordAndNone() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        for password in ["wrong-password", ""] {
            let error = try #require(throws: TestSetupError.self) { try cluster.psql("SELECT 1", password: password) }
            #expect(
                error.description.contains("password authentication failed for user \"mapframe\"") || error.description.contains("no password supplied"),
                "\(error)"
            )
        }
        #expect(try cluster.psql("SELECT 1") == "1")
    }

    @Test func stopsAndStartsAgainOnTheSamePortWithItsData() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        try cluster.psql("CREATE TABLE kept (word text); INSERT INTO kept VALUES ('still here')")

        try cluster.stop()
        let refused = try #require(throws: TestSetupError.self) { try cluster.psql("SELECT 1") }
        #expect(refused.description.contains("Connection refused"), "\(refused)")

        try cluster.start()
        #expect(try cluster.psql("SELECT word FROM kept") == "still here")
        #expect(try cluster.psql("SHOW port") == String(cluster.port))
    }
}
