import Foundation
import MapFrameTestSupport

/// A MapFrame server a test has started on 127.0.0.1, in this process (`TestServer`, in
/// MapServerTests) or as a child `mapframe serve` (`ServeProcess`). Both start by one contract,
/// `ServerStart`, and build their addresses the same way. Ordinary requests to either go through
/// one real client (`server.get("/healthz")`, in ServerTestSupport); tests whose subject is the
/// wire itself open raw sockets to `port` instead.
public protocol StartedServer: Sendable {
    /// The port the server said it listens on.
    var port: Int { get }
}

extension StartedServer {
    /// "http://127.0.0.1:PORT/".
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// The address of `path` ("healthz", "/healthz", "/frame.png?zoom=3") on this server.
    public func url(_ path: String) -> String { baseURL + path.drop { $0 == "/" } }
}

/// How every test server starts, in this process or as a child: it binds the port it is given
/// (0 for any free one) and, once it listens, reports the port it got: `MapServerApp.run` calls
/// its `onListening` with it, and `mapframe serve` writes it to standard output as
/// "MapFrame serving on http://HOST:PORT/", the line scripts rely on too. The server is ready
/// when it has reported. One that ends first, or has not reported within `deadline`, is a
/// `TestSetupError`.
public enum ServerStart {
    /// How long a server may take to say where it listens: the one deadline of every start.
    public static let deadline = 60.0

    /// The port in the line `mapframe serve` writes once it listens.
    public static func reportedPort(inOutput output: String) -> Int? {
        output.firstMatch(of: /MapFrame serving on http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }
    }

    /// Waits until `reported` gives the port `what` listens on, and returns it. `ended` says why
    /// the server can no longer report one (it exited, or its task ended), or nil while it can.
    public static func waitForPort(of what: String, reported: () -> Int?, ended: () -> String?) async throws -> Int {
        var port: Int?
        try await waitUntil("\(what) says where it listens", deadline: deadline, interval: .milliseconds(10)) {
            port = reported()
            if port == nil, let reason = ended() { throw TestSetupError(description: "\(what) ended before it listened: \(reason)") }
            return port != nil
        }
        return port!
    }
}


/// `mapframe serve` running as a child process, started by the contract every test server keeps
/// (`ServerStart`): ready once it has written where it listens, "MapFrame serving on
/// http://HOST:PORT/", to standard output, the line scripts rely on too.
public final class ServeProcess: StartedServer {
    public let port: Int
    public let child: ChildProcess

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// Starts `mapframe serve --port <port> <arguments>` in `directory` (the current one when nil)
    /// and waits until it listens. `environment` changes the child's environment as in
    /// `childEnvironment`. With `descriptorLimit`, the process may open at most that many files
    /// and sockets (soft and hard limit, set by util-linux's prlimit). With `lowPriority`, it runs
    /// at the lowest CPU priority (`nice -n 19`), so that a server kept busy on purpose does not
    /// slow the tests running beside it. With `standardErrorPath`, the server's standard error is
    /// that file (opened by a shell before the server starts) rather than a pipe the test reads.
    /// A server that exits first, or is not listening within `ServerStart.deadline`, is a
    /// `TestSetupError` with the end of its standard error.
    public static func start(
        _ arguments: [String], port: Int = 0, in directory: URL? = nil, environment: [String: String?] = [:],
        descriptorLimit: Int? = nil, lowPriority: Bool = false, standardErrorPath: String? = nil
    ) async throws -> ServeProcess {
        var command = [try MapframeExecutable.url().path, "serve", "--port", String(port)] + arguments
        var environment = environment
        if let standardErrorPath {
            command = ["/bin/sh", "-c", "exec \"$0\" \"$@\" 2>> \"$MAPFRAME_TEST_STANDARD_ERROR\""] + command
            environment["MAPFRAME_TEST_STANDARD_ERROR"] = standardErrorPath
        }
        if lowPriority { command = ["/usr/bin/nice", "-n", "19"] + command }
        if let descriptorLimit { command = ["/usr/bin/prlimit", "--nofile=\(descriptorLimit):\(descriptorLimit)"] + command }
        let here = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let child = try ChildProcess.start(URL(fileURLWithPath: command[0]), Array(command.dropFirst()), in: here, environment: environment)
        do {
            let port = try await ServerStart.waitForPort(of: "mapframe serve") {
                ServerStart.reportedPort(inOutput: child.standardOutputSoFar)
            } ended: {
                child.isRunning ? nil : "it exited: \(child.standardErrorSoFar)"
            }
            return ServeProcess(child: child, port: port)
        } catch {
            let ended = child.stop()
            throw TestSetupError(description: "\(error); standard error: \(ended?.errorTail ?? child.standardErrorSoFar)")
        }
    }

    /// Sends `signal` to the server (nothing once it has ended).
    public func send(_ signal: Int32) {
        child.send(signal)
    }

    /// Stops the server (SIGTERM, then SIGKILL after five seconds) and returns what it left.
    @discardableResult
    public func stop() -> CommandResult? {
        child.stop()
    }

    /// Waits for the server to end, on a thread of its own; returns its exit status (or the
    /// signal that ended it).
    public func waitForExit() async throws -> Int32 {
        let child = child
        return try await child.waitForExit().status
    }

    /// The most memory the process has had resident, in bytes (VmHWM in /proc/PID/status).
    public func peakMemory() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(child.processIdentifier)/status", encoding: .utf8)
        guard let match = status.firstMatch(of: /VmHWM:\s+(\d+) kB/), let kibibytes = Int(match.1) else {
            throw TestSetupError(description: "no VmHWM in /proc/\(child.processIdentifier)/status")
        }
        return kibibytes * 1024
    }

    public var standardError: String { child.standardErrorSoFar }

    public var standardOutput: String { child.standardOutputSoFar }
}
