import Foundation

/// What a finished child process left behind.
public struct CommandResult: CustomStringConvertible, Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String

    /// Standard error's non-empty lines.
    public var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }

    /// The last lines of standard error, for messages.
    public var errorTail: String { errorLines.suffix(12).joined(separator: "\n") }

    public var description: String { "exit \(status)\nstdout: \(standardOutput)\nstderr: \(standardError)" }
}

/// A test could not set up what it needs, or gave up waiting for it.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Runs a program to completion, waiting on a thread of its own (`onThread`). Its output goes
/// through files, so a chatty program can never block on a full pipe.
public func runProgram(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String?] = [:]) async throws -> CommandResult {
    try await ChildProcess.start(executable, arguments, in: directory, environment: environment).waitForExit()
}

/// `runProgram` for code that cannot wait (a `defer`, a static property's first value): it blocks
/// its thread, so keep it to programs that end at once, such as `umount` or `chattr`.
public func runProgramBlocking(_ executable: URL, _ arguments: [String], in directory: URL) throws -> CommandResult {
    try ChildProcess.start(executable, arguments, in: directory).waitUntilEnded()
}

/// Runs a Python 3 script with `arguments` (sys.argv[1...]).
public func runPython(_ script: String, _ arguments: [String]) async throws -> CommandResult {
    try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, in: FileManager.default.temporaryDirectory)
}

/// Runs blocking work (socket I/O, waiting for a process) on a thread of its own, so that it never
/// ties up one of Swift concurrency's few cooperative threads (one a core), which every test,
/// in-process server and tile store wait resumes on. A test that blocks one instead, while others
/// do too, starves the servers of the tests beside it: that showed as answers a minute late.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The environment every child process gets: this process's, with a proxy that refuses
/// connections, so that nothing can reach a real tile server, except 127.0.0.1, where the tests'
/// UpstreamSimulator listens, and this run's `OrphanReaper` marker. `overrides` then sets
/// variables, or removes those mapped to nil.
public func childEnvironment(_ overrides: [String: String?] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for variable in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
        environment[variable] = "http://127.0.0.1:9"
    }
    environment["NO_PROXY"] = "127.0.0.1,localhost"
    environment["no_proxy"] = "127.0.0.1,localhost"
    _ = OrphanReaper.watcher
    environment[OrphanReaper.variable] = OrphanReaper.marker
    for (variable, value) in overrides {
        environment[variable] = value
    }
    return environment
}

/// A program running in the background, its standard output and error going to files that can be
/// read while it runs and after it ends, until the `ChildProcess` goes.
public final class ChildProcess: Sendable {
    private let process = Process()
    private let logs: URL
    private let outputFiles: [FileHandle]

    /// Starts `executable` in `directory` with `childEnvironment(environment)` and no input.
    public static func start(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String?] = [:]) throws -> ChildProcess {
        try ChildProcess(executable, arguments, in: directory, environment: environment)
    }

    private init(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String?]) throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("MapFrameTests-logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        for name in ["stdout", "stderr"] {
            _ = FileManager.default.createFile(atPath: logs.appendingPathComponent(name).path, contents: nil)
        }
        self.logs = logs
        outputFiles = try ["stdout", "stderr"].map { try FileHandle(forWritingTo: logs.appendingPathComponent($0)) }
        process.environment = childEnvironment(environment)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputFiles[0]
        process.standardError = outputFiles[1]
        do {
            try process.run()
        } catch {
            cleanUp()
            throw error
        }
    }

    /// A test that ends early leaves no program behind.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        cleanUp()
    }

    public var isRunning: Bool { process.isRunning }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// What the program has written to standard output so far.
    public var standardOutputSoFar: String { log("stdout") }

    /// What the program has written to standard error so far.
    public var standardErrorSoFar: String { log("stderr") }

    /// Sends `signal` to the program, such as SIGKILL to stop it dead; nothing once it has ended,
    /// when its process id may already be another process's.
    public func send(_ signal: Int32) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
    }

    /// Waits for the program to end, on a thread of its own, and returns its exit status and
    /// output. For a program ended by a signal, the status is the signal's number.
    public func waitForExit() async throws -> CommandResult {
        try await onThread { try self.waitUntilEnded() }
    }

    /// `waitForExit()`, blocking the calling thread.
    fileprivate func waitUntilEnded() throws -> CommandResult {
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: logs.appendingPathComponent("stdout")), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self)
        )
    }

    /// Waits up to `timeout` for the program to end, without blocking a thread; nil if it was
    /// still running then (it is stopped).
    public func waitForExit(timeout: Duration) async -> CommandResult? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
        }
        guard process.isRunning else { return try? waitUntilEnded() }
        stop()
        return nil
    }

    /// SIGTERM, then SIGKILL if it has not gone within five seconds; waits for it either way.
    /// It blocks its thread meanwhile, for clean-up code that cannot wait (a `defer`).
    @discardableResult
    public func stop() -> CommandResult? {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        return try? waitUntilEnded()
    }

    private func log(_ name: String) -> String {
        String(decoding: (try? Data(contentsOf: logs.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
    }

    /// Closes and removes the output files.
    private func cleanUp() {
        for file in outputFiles { try? file.close() }
        try? FileManager.default.removeItem(at: logs)
    }
}
