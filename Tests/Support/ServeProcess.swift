import Foundation

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
    /// slow the tests running beside it. A server that exits first, or is not listening within
    /// `ServerStart.deadline`, is a `TestSetupError` with the end of its standard error.
    public static func start(
        _ arguments: [String], port: Int = 0, in directory: URL? = nil, environment: [String: String?] = [:],
        descriptorLimit: Int? = nil, lowPriority: Bool = false
    ) async throws -> ServeProcess {
        var command = [try MapframeExecutable.url().path, "serve", "--port", String(port)] + arguments
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
