import Foundation
import MapFrameTestSupport
import Testing

/// The throwaway PostgreSQL cluster the shared-cache tests run against: it starts, takes its
/// password and no other, and can be stopped and started again with its data.
@Suite(.enabled(if: PostgresCluster.unavailability == nil, "PostgreSQL cannot run here; scripts/install-deps.sh test installs it (Debian's postgresql)"))
struct PostgresClusterTests {
    // The cluster's programs are waited for on a thread of their own (`onThread`), never on
    // Swift's cooperative threads, which the timing tests in this process need.

    @Test func startsAndTakesItsPasswordThroughItsURL() async throws {
        let (stored, url, port, client) = try await onThread { () throws -> (String, String, Int, CommandResult) in
            let cluster = try PostgresCluster()
            defer { cluster.remove() }
            try cluster.createDatabase("tiles")
            try cluster.psql("CREATE TABLE tile (id integer); INSERT INTO tile VALUES (42)", database: "tiles")
            let stored = try cluster.psql("SELECT id FROM tile", database: "tiles")
            // As a client would log in: the URL, and the password from the environment.
            let url = cluster.url(database: "tiles")
            let client = try runProgram(
                URL(fileURLWithPath: "/usr/bin/env"), ["psql", url, "--no-psqlrc", "--tuples-only", "--no-align", "--command", "SELECT current_user, count(*) FROM tile"],
                in: FileManager.default.temporaryDirectory, environment: cluster.environment.mapValues { $0 }
            )
            return (stored, url, cluster.port, client)
        }
        #expect(stored == "42")
        #expect(url == "postgres://mapframe@127.0.0.1:\(port)/tiles")
        #expect(client.status == 0 && client.standardOutput.trimmingCharacters(in: .newlines) == "mapframe|1", "\(client)")
    }

    @Test func refusesAWrongPasswordAndNone() async throws {
        let (refusals, rightOne) = try await onThread { () throws -> ([String], String) in
            let cluster = try PostgresCluster()
            defer { cluster.remove() }
            let refusals = ["wrong-password", ""].map { password in
                do {
                    return "accepted: \(try cluster.psql("SELECT 1", password: password))"
                } catch {
                    return "\(error)"
                }
            }
            return (refusals, try cluster.psql("SELECT 1"))
        }
        for refusal in refusals {
            #expect(
                refusal.contains("password authentication failed for user \"mapframe\"") || refusal.contains("no password supplied"), "\(refusal)"
            )
        }
        #expect(rightOne == "1")
    }

    @Test func stopsAndStartsAgainOnTheSamePortWithItsData() async throws {
        let (refused, kept, port, portShown) = try await onThread { () throws -> (String, String, Int, String) in
            let cluster = try PostgresCluster()
            defer { cluster.remove() }
            try cluster.psql("CREATE TABLE kept (word text); INSERT INTO kept VALUES ('still here')")
            try cluster.stop()
            let refused: String
            do {
                refused = "accepted: \(try cluster.psql("SELECT 1"))"
            } catch {
                refused = "\(error)"
            }
            try cluster.start()
            return (refused, try cluster.psql("SELECT word FROM kept"), cluster.port, try cluster.psql("SHOW port"))
        }
        #expect(refused.contains("Connection refused"), "\(refused)")
        #expect(kept == "still here")
        #expect(portShown == String(port))
    }
}
