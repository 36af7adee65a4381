import Foundation
import MapFrameTestSupport
import ServerTestSupport
import Testing
import UpstreamSimulator
#if canImport(Glibc)
import Glibc
#endif

/// A test run killed outright (SIGKILL, so that it cleans up nothing itself) leaves none of its
/// servers or PostgreSQL clusters running: `OrphanReaper` ends them. The run is a second test
/// process, this test bundle running only `KilledRunProbe`.
@Suite("A test run killed with SIGKILL")
struct KilledRunTests {
    /// Set in the second process's environment, where it enables `KilledRunProbe`.
    static let probeVariable = "MAPFRAME_KILLED_RUN_PROBE"

    /// What the probe writes to standard output once its children run.
    static let ready = "the probe's children are running"

    @Test("the test process killed mid-run: none of its mapframe or postgres processes is left 10 s later")
    func killedRunLeavesNoChildren() async throws {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let run = try ChildProcess.start(
            bundle, ["--testing-library", "swift-testing", "--filter", "KilledRunProbe"], in: packageRoot, environment: [Self.probeVariable: "1"]
        )
        defer { run.stop() }
        try await waitUntil("the probe has started its children", deadline: 120) {
            guard run.isRunning else { throw TestSetupError(description: "the probe ended first: \(run.standardOutputSoFar)\(run.standardErrorSoFar)") }
            return run.standardOutputSoFar.contains(Self.ready)
        }
        let started = Self.processes(ofRun: run.processIdentifier)
        let names = Set(started.values)
        try #require(names.contains("mapframe"), "the probe's processes: \(started)")
        if PostgresCluster.unavailability == nil { try #require(names.contains("postgres"), "the probe's processes: \(started)") }

        run.send(SIGKILL)
        _ = try await run.waitForExit()
        try await Task.sleep(for: .seconds(10))
        let left = Self.processes(ofRun: run.processIdentifier)
        #expect(left.isEmpty, "still running 10 s after the run was killed: \(left) (of \(started))")
    }

    /// The processes, by id, with their names, that the test process `pid` started: those whose
    /// environment carries its `OrphanReaper` marker, "MAPFRAME_TEST_RUN=PID-…".
    static func processes(ofRun pid: pid_t) -> [Int: String] {
        let marker = Data("MAPFRAME_TEST_RUN=\(pid)-".utf8)
        var found: [Int: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let id = Int(name), let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
                  environment.split(separator: 0).contains(where: { $0.starts(with: marker) }),
                  let command = try? String(contentsOfFile: "/proc/\(name)/comm", encoding: .utf8)
            else { continue }
            found[id] = command.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return found
    }
}

/// The run that `KilledRunTests` kills: it starts a `mapframe serve` and, where PostgreSQL can
/// run, a cluster, says so, and waits to be killed. Enabled only in that run.
@Suite("KilledRunProbe", .enabled(if: ProcessInfo.processInfo.environment[KilledRunTests.probeVariable] != nil))
struct KilledRunProbe {
    @Test("starts a server and a cluster and waits")
    func startAndWait() async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        try await Workspace.with { workspace in
            let style = try workspace.writeStyle(upstream: upstream)
            let server = try await ServeProcess.start(["--cache-dir", workspace.path("cache"), "--style-file", style], in: workspace.directory)
            defer { server.stop() }
            let cluster = PostgresCluster.unavailability == nil ? try await PostgresCluster() : nil
            defer { cluster?.remove() }
            FileHandle.standardOutput.write(Data("\(KilledRunTests.ready)\n".utf8))
            try await Task.sleep(for: .seconds(300))
        }
    }
}
