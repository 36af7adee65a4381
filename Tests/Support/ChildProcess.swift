import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a finished child process left behind.
public struct CommandResult: CustomStringConvertible, Sendable {
    public let status: Int32
    /// Standard output as written, for a program whose output is not text.
    public let standardOutputBytes: Data
    public let standardError: String

    public var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }

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
/// read while it runs and after it ends, until the `ChildProcess` goes. The one way the tests
/// start a program.
///
/// It is started with `posix_spawn` rather than Foundation's `Process`, whose `run()` crashed the
/// test process (SIGSEGV) twice under load with about 2,700 descriptors open. The child gets
/// standard input from /dev/null, its output files, the descriptors asked for and no other: every
/// other descriptor is closed in it, whatever its close-on-exec flag. Each child leads a process
/// group of its own, so that stopping it with SIGKILL takes whatever it started too, and every
/// signal's handling is back to its default (the test process ignores SIGPIPE, which a child
/// would otherwise inherit). `OrphanReaper` ends the children of a test process that was killed.
/// Not `PR_SET_PDEATHSIG`: that signals the child when the thread that started it ends, and the
/// tests start children from threads that end at once (`onThread`).
public final class ChildProcess: Sendable {
    /// The child's process id, which is also its process group's.
    public let processIdentifier: pid_t
    private let logs: URL
    /// How it ended, once it has and has been waited for: its exit status, or the signal's number.
    private let ending = Mutex<Int32?>(nil)

    /// Starts `executable` in `directory` with `childEnvironment(environment)` and no input.
    /// `descriptors` passes descriptors of this process on to the child, by the number each has
    /// there (`[3: pipeEnd]`); each must be above 2 and above every number it is given as.
    public static func start(
        _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String?] = [:], descriptors: [Int32: Int32] = [:]
    ) throws -> ChildProcess {
        try ChildProcess(executable, arguments, in: directory, environment: childEnvironment(environment), descriptors: descriptors)
    }

    /// Starts a program with exactly `environment`: for `OrphanReaper`'s watcher, which
    /// `childEnvironment` itself starts.
    init(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String], descriptors: [Int32: Int32] = [:]) throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("MapFrameTests-logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        self.logs = logs
        do {
            processIdentifier = try Self.spawn(executable, arguments, in: directory, environment: environment, descriptors: descriptors, logs: logs)
        } catch {
            try? FileManager.default.removeItem(at: logs)
            throw error
        }
    }

    private static func spawn(
        _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String], descriptors: [Int32: Int32], logs: URL
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, name) in [(Int32(1), "stdout"), (2, "stderr")] {
            posix_spawn_file_actions_addopen(&actions, descriptor, logs.appendingPathComponent(name).path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        for (number, descriptor) in descriptors { posix_spawn_file_actions_adddup2(&actions, descriptor, number) }
        _ = GNUSpawnActions.closeFrom(&actions, max(3, (descriptors.keys.max() ?? 0) + 1))
        _ = GNUSpawnActions.changeDirectory(&actions, directory.path)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), everySignal = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, &attributes, &argv, &envp)
        guard status == 0 else {
            throw TestSetupError(description: "cannot start \(executable.path) in \(directory.path): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// A test that ends early leaves no program behind, nor anything it started.
    deinit {
        if isRunning {
            kill(-processIdentifier, SIGKILL)
            waitUntilGone()
        }
        try? FileManager.default.removeItem(at: logs)
    }

    /// Whether the program still runs; once it has ended, this collects how.
    public var isRunning: Bool {
        ending.withLock { ending in
            guard ending == nil else { return false }
            var status: Int32 = 0
            switch waitpid(processIdentifier, &status, WNOHANG) {
            case processIdentifier:
                // The low 7 bits are the signal that ended it, or 0 for an exit with the status above them.
                ending = status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
                return false
            case -1 where errno == ECHILD:
                ending = -1  // collected by someone else: ended, how unknown
                return false
            default:
                return true
            }
        }
    }

    /// Blocks until the program has ended, and collects how.
    private func waitUntilGone() {
        var information = siginfo_t()
        // WNOWAIT leaves the collecting to `isRunning`, so that it happens once, under its lock.
        while waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        while isRunning { usleep(1_000) }
    }

    /// What the program has written to standard output so far.
    public var standardOutputSoFar: String { String(decoding: log("stdout"), as: UTF8.self) }

    /// What the program has written to standard error so far.
    public var standardErrorSoFar: String { String(decoding: log("stderr"), as: UTF8.self) }

    /// Sends `signal` to the program, such as SIGKILL to stop it dead; nothing once it has ended,
    /// when its process id may already be another process's.
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
    }

    /// Waits for the program to end, on a thread of its own, and returns its exit status and
    /// output. For a program ended by a signal, the status is the signal's number.
    public func waitForExit() async throws -> CommandResult {
        try await onThread { try self.waitUntilEnded() }
    }

    /// `waitForExit()`, blocking the calling thread.
    fileprivate func waitUntilEnded() throws -> CommandResult {
        waitUntilGone()
        return CommandResult(
            status: ending.withLock { $0 ?? -1 },
            standardOutputBytes: try Data(contentsOf: logs.appendingPathComponent("stdout")),
            standardError: String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self)
        )
    }

    /// Waits up to `timeout` for the program to end, without blocking a thread; nil if it was
    /// still running then (it is stopped).
    public func waitForExit(timeout: Duration) async -> CommandResult? {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
        }
        guard isRunning else { return try? waitUntilEnded() }
        stop()
        return nil
    }

    /// SIGTERM, then SIGKILL for it and what it started if it has not gone within five seconds;
    /// waits for it either way. It blocks its thread meanwhile, for clean-up code that cannot wait
    /// (a `defer`).
    @discardableResult
    public func stop() -> CommandResult? {
        if isRunning {
            kill(processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while isRunning, Date() < deadline { usleep(50_000) }
            if isRunning { kill(-processIdentifier, SIGKILL) }
        }
        return try? waitUntilEnded()
    }

    private func log(_ name: String) -> Data {
        (try? Data(contentsOf: logs.appendingPathComponent(name))) ?? Data()
    }
}

/// The two file actions of glibc's `posix_spawn` that are GNU extensions (glibc 2.29 and 2.34),
/// which Swift's Glibc module does not declare: it is not built with `_GNU_SOURCE`. Looked up by
/// name in the C library, which every process here has loaded.
private enum GNUSpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np`: close every descriptor from this one up.
    static let closeFrom = unsafeBitCast(function("posix_spawn_file_actions_addclosefrom_np"), to: CloseFrom.self)

    /// `posix_spawn_file_actions_addchdir_np`: change to this directory.
    static let changeDirectory = unsafeBitCast(function("posix_spawn_file_actions_addchdir_np"), to: ChangeDirectory.self)

    private static func function(_ name: String) -> UnsafeMutableRawPointer {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("the C library has no \(name): glibc 2.34 or later is needed") }
        return address
    }
}
