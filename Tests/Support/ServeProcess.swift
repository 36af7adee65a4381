import Foundation

/// `mapframe serve` running as a child process: the one way tests run the server in a process of
/// its own (`TestServer` runs it in the test process).
///
/// The start-up contract is the one scripts rely on: the server is ready once it has written
/// "MapFrame serving on http://HOST:PORT/" to standard output, within `startDeadline`.
public final class ServeProcess: Sendable {
    public let port: Int
    public let child: ChildProcess

    /// How long a server may take to say where it listens.
    public static let startDeadline = 60.0

    /// The port in the line a server writes once it listens.
    static func listeningPort(in output: String) -> Int? {
        output.firstMatch(of: /MapFrame serving on http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }
    }

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// "http://127.0.0.1:PORT/".
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// The address of `path` ("healthz", "/healthz") on this server.
    public func url(_ path: String) -> String { baseURL + path.drop { $0 == "/" } }

    /// Starts `mapframe serve --port <port> <arguments>` in `directory` (the current one when nil)
    /// and waits until it listens. `environment` changes the child's environment as in
    /// `childEnvironment`. With `descriptorLimit`, the process may open at most that many files
    /// and sockets (soft and hard limit, set by util-linux's prlimit). With `lowPriority`, it runs
    /// at the lowest CPU priority (`nice -n 19`), so that a server kept busy on purpose does not
    /// slow the tests running beside it. With `standardErrorPath`, the server's standard error is
    /// that file (opened by a shell before the server starts) rather than a pipe the test reads.
    /// A server that exits first, or is not listening within `startDeadline`, is a
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
        var port: Int?
        do {
            try await waitUntil("mapframe serve says where it listens", deadline: startDeadline, interval: .milliseconds(50)) {
                port = listeningPort(in: child.standardOutputSoFar)
                guard port != nil || child.isRunning else {
                    throw TestSetupError(description: "mapframe serve exited before it listened: \(child.standardErrorSoFar)")
                }
                return port != nil
            }
        } catch {
            let ended = child.stop()
            throw TestSetupError(description: "\(error); standard error: \(ended?.errorTail ?? child.standardErrorSoFar)")
        }
        return ServeProcess(child: child, port: port!)
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
