import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster in a temporary folder, listening on a free TCP port of
/// 127.0.0.1 and nowhere else (no Unix socket), made with Debian's `initdb` and stopped with
/// `pg_ctl`. The server runs as a child process rather than through `pg_ctl start`, whose
/// daemon would keep the descriptors `Process` watches open, so that starting it never returned.
///
/// Its one role is the superuser `mapframe`, with a random password checked by SCRAM-SHA-256 on
/// every connection, so that clients must give it (`environment` sets `PGPASSWORD`). PostgreSQL
/// refuses to run as root, so a root test runs the server as Debian's `postgres` system user,
/// which then owns the folder. `stop()` and `start()` take the server away and bring it back on
/// the same port with the same data, for fault tests; `remove()` stops it and deletes the folder.
///
///     let cluster = try await PostgresCluster()
///     defer { cluster.remove() }
///     try await cluster.createDatabase("tiles")
///     // mapframe serve --cache cluster.url(database: "tiles"), with cluster.environment
///
/// Syncing to disk is off: the data only has to outlive a fast shutdown, never a power cut.
public final class PostgresCluster: Sendable {
    /// The superuser every connection logs in as.
    public static let user = "mapframe"

    /// The port it listens on: chosen free when it is made, and kept through `stop()` and `start()`.
    public var port: Int { listeningPort.withLock { $0 } }
    public let password: String
    private let listeningPort = Mutex(0)
    private let folder: TemporaryDirectory
    private let programs: Programs
    /// The running server (`postgres`, or `runuser` running it), nil while stopped.
    private let server = Mutex<ChildProcess?>(nil)

    /// Why PostgreSQL cannot run here at all, or nil when it can. Tests that need it are enabled
    /// only when this is nil.
    public static var unavailability: String? {
        if case .failure(let error) = Programs.found { return error.description }
        return nil
    }

    /// Makes the cluster and starts it, with the server libraries `preloading` (such as
    /// `pg_stat_statements`) loaded. Throws `PostgresUnavailable` when PostgreSQL cannot run
    /// here at all, and `TestSetupError` when it can but did not start.
    public init(preloading libraries: [String] = []) async throws {
        programs = try Programs.found.get()
        folder = try TemporaryDirectory("postgres")
        password = UUID().uuidString.lowercased()
        do {
            try await initialise(preloading: libraries)
            try await startOnAFreePort()
        } catch {
            folder.remove()
            throw error
        }
    }

    /// `postgres://mapframe@127.0.0.1:PORT/DATABASE`: no password, which comes from `environment`.
    public func url(database: String) -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    /// What a client's environment needs to log in: `PGPASSWORD`.
    public var environment: [String: String] { ["PGPASSWORD": password] }

    /// Starts the server on a free port (`FreePort.retrying`).
    private func startOnAFreePort() async throws {
        try await FreePort.retrying({ port in
            listeningPort.withLock { $0 = port }
            try await start()
        }, whenTaken: { $0 is PortTaken })
    }

    /// Starts the server, on the port and data it had, and waits until it takes connections.
    public func start() async throws {
        let (executable, arguments) = asServerUser(programs.postgres, ["-D", dataPath, "-p", String(port)])
        let process = try ChildProcess.start(executable, arguments, in: folder.url)
        server.withLock { $0 = process }
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            guard process.isRunning else {
                let output = process.standardErrorSoFar
                server.withLock { $0 = nil }
                if output.contains("Address already in use") { throw PortTaken() }
                throw TestSetupError(description: "postgres stopped as it started: \(Self.tail(output))")
            }
            if isReady { return }
            guard ContinuousClock.now < deadline else {
                throw TestSetupError(description: "postgres took no connections within 60 s: \(Self.tail(process.standardErrorSoFar))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Whether this cluster's own server says it takes connections, as `pg_ctl` asks: line 8 of
    /// its `postmaster.pid` reads `ready` once it listens. Asking the port instead could be
    /// answered by another process's server that took the port first.
    private var isReady: Bool {
        guard let pidFile = try? String(contentsOfFile: dataPath + "/postmaster.pid", encoding: .utf8) else { return false }
        let lines = pidFile.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 7 && lines[3].trimmingCharacters(in: .whitespaces) == String(port)
            && lines[7].trimmingCharacters(in: .whitespaces) == "ready"
    }

    /// Stops the server at once, as `pg_ctl stop --mode fast` does: open connections are
    /// broken, open transactions rolled back, and the data kept for `start()`.
    public func stop() async throws {
        guard let process = server.withLock({ $0 }), process.isRunning else { return }
        try await runAsServerUser(programs.pgCtl, ["--pgdata", dataPath, "--mode", "fast", "--wait", "stop"])
        _ = try await process.waitForExit()
        server.withLock { $0 = nil }
    }

    /// Stops the server at once if it runs (`immediate` mode) and deletes its folder. It blocks its
    /// thread meanwhile, for a `defer`.
    public func remove() {
        if let process = server.withLock({ $0 }), process.isRunning {
            let (executable, arguments) = asServerUser(programs.pgCtl, ["--pgdata", dataPath, "--mode", "immediate", "--wait", "stop"])
            _ = try? runProgramBlocking(executable, arguments, in: folder.url)
            process.stop()
            server.withLock { $0 = nil }
        }
        folder.remove()
    }

    /// Creates an empty database; `name` is letters, digits and `_`, starting with a letter.
    public func createDatabase(_ name: String) async throws {
        guard name.wholeMatch(of: /[a-z][a-z0-9_]{0,62}/) != nil else {
            throw TestSetupError(description: "database name '\(name)': use 1 to 63 lower-case letters, digits and '_', starting with a letter")
        }
        _ = try await psql("CREATE DATABASE \(name)")
    }

    /// Runs `sql` through `psql` in `database` over TCP, logging in with `password` (the
    /// cluster's own unless given), and returns the rows it prints: unaligned, fields split by
    /// `|`, with no headers. Throws with psql's message when it fails, on the first error.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres", password: String? = nil) async throws -> String {
        let result = try await startPSQL(sql, database: database, password: password).waitForExit()
        guard result.status == 0 else {
            throw TestSetupError(description: "psql \(sql.prefix(80)): exit \(result.status): \(result.errorTail)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `psql` running `sql`, as `psql(_:database:password:)` does, in the background: for a
    /// session that holds a lock while a test looks at what waits for it.
    public func startPSQL(_ sql: String, database: String = "postgres", password: String? = nil) throws -> ChildProcess {
        try ChildProcess.start(
            programs.psql,
            ["--host", "127.0.0.1", "--port", String(port), "--username", Self.user, "--dbname", database,
             "--no-psqlrc", "--no-align", "--tuples-only", "--quiet", "--set", "ON_ERROR_STOP=1", "--command", sql],
            in: folder.url, environment: ["PGPASSWORD": password ?? self.password, "PGCONNECT_TIMEOUT": "10"]
        )
    }

    // MARK: - Making the cluster

    private var dataPath: String { folder.path("data") }

    /// `initdb` with the superuser's password from a file that is deleted straight after, then
    /// the settings that keep the server to 127.0.0.1 and this port.
    private func initialise(preloading libraries: [String]) async throws {
        let passwordFile = folder.path("password")
        try Data(password.utf8).write(to: URL(fileURLWithPath: passwordFile))
        try handToServerUser(folder.path)
        try handToServerUser(passwordFile)
        defer { try? FileManager.default.removeItem(atPath: passwordFile) }
        try await runAsServerUser(programs.initdb, [
            "--pgdata", dataPath, "--username", Self.user, "--pwfile", passwordFile, "--auth", "scram-sha-256",
            "--encoding", "UTF8", "--no-locale", "--no-sync",
        ])
        let settings = """

            # The throwaway test cluster's own settings.
            listen_addresses = '127.0.0.1'
            unix_socket_directories = ''
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            shared_preload_libraries = '\(libraries.joined(separator: ","))'
            """
        let configuration = try FileHandle(forWritingTo: URL(fileURLWithPath: dataPath + "/postgresql.conf"))
        defer { try? configuration.close() }
        try configuration.seekToEnd()
        try configuration.write(contentsOf: Data(settings.utf8))
    }

    /// Gives the file or folder at `path` to the server's user, when that is not this process's.
    private func handToServerUser(_ path: String) throws {
        guard let account = programs.serverAccount else { return }
        guard chown(path, account.uid, account.gid) == 0 else {
            throw TestSetupError(description: "cannot give \(path) to the postgres user: errno \(errno)")
        }
    }

    /// Runs one of PostgreSQL's programs to its end as the server's user; throws with its
    /// output when it fails.
    private func runAsServerUser(_ program: URL, _ arguments: [String]) async throws {
        let (executable, fullArguments) = asServerUser(program, arguments)
        let result = try await runProgram(executable, fullArguments, in: folder.url)
        guard result.status == 0 else {
            throw TestSetupError(description: "\(program.lastPathComponent) \(arguments.last ?? ""): exit \(result.status): \(Self.tail(result.standardOutput + result.standardError))")
        }
    }

    /// The command that runs `program` as the server's user: through `runuser` when that is not
    /// this process's user.
    private func asServerUser(_ program: URL, _ arguments: [String]) -> (URL, [String]) {
        guard let account = programs.serverAccount else { return (program, arguments) }
        return (account.runuser, ["-u", account.name, "--", program.path] + arguments)
    }

    private static func tail(_ output: String) -> String {
        output.split(separator: "\n").suffix(12).joined(separator: "\n")
    }
}

/// The server could not bind its port: something else took it first.
private struct PortTaken: Error {}

/// PostgreSQL cannot run here at all: its programs are not installed, or the process is root
/// and there is no `postgres` user to run the server as.
public struct PostgresUnavailable: Error, CustomStringConvertible {
    public let description: String
}

/// Where PostgreSQL's programs are, and who runs the server.
private struct Programs: Sendable {
    /// Debian's `postgres` system user, when this process is root.
    struct ServerAccount: Sendable {
        let name: String
        let uid: uid_t
        let gid: gid_t
        let runuser: URL
    }

    let initdb: URL
    let postgres: URL
    let pgCtl: URL
    let psql: URL
    let serverAccount: ServerAccount?

    /// The newest PostgreSQL in Debian's /usr/lib/postgresql/VERSION/bin.
    static let found: Result<Programs, PostgresUnavailable> = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        let names = ["initdb", "postgres", "pg_ctl", "psql"]
        guard let version = versions.first(where: { version in
            names.allSatisfy { FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/\($0)") }
        }) else {
            return .failure(PostgresUnavailable(description: """
                PostgreSQL is not installed: no \(names.joined(separator: ", ")) in \(root)/VERSION/bin \
                (apt-get install postgresql; scripts/install-deps.sh test installs it)
                """))
        }
        let bin = URL(fileURLWithPath: "\(root)/\(version)/bin")
        var account: ServerAccount?
        if geteuid() == 0 {
            guard let entry = getpwnam("postgres") else {
                return .failure(PostgresUnavailable(description: "PostgreSQL refuses to run as root, and there is no postgres user to run it as (Debian's postgresql package makes one)"))
            }
            guard let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
                return .failure(PostgresUnavailable(description: "PostgreSQL refuses to run as root, and runuser (util-linux) is missing to run it as the postgres user"))
            }
            account = ServerAccount(name: "postgres", uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, runuser: URL(fileURLWithPath: runuser))
        }
        return .success(Programs(
            initdb: bin.appendingPathComponent("initdb"), postgres: bin.appendingPathComponent("postgres"),
            pgCtl: bin.appendingPathComponent("pg_ctl"), psql: bin.appendingPathComponent("psql"), serverAccount: account
        ))
    }()
}
