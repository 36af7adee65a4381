import Foundation
import MapFrameTestSupport
import MapServer
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Stopping the server while clients are still connecting. The connections it has accepted but
/// not yet begun to serve when it stops must be closed like the rest: the stop must neither trap
/// nor hang. Each test stops a server 50 times, at a different point of 200 connections opening;
/// the server takes 100 at once, so the rest are refused once it is full. Each server listens on
/// a `ReservedPort`, so that the connections made after it stops are refused, never taken by a
/// server another test starts meanwhile on a port the kernel gave out again.
@Suite struct StopTests {
    static let rounds = 50
    static let maxConnections = 100

    @Test("cancelling the server's task while 200 connections open: the task returns and every connection is closed")
    func cancelWhileConnecting() async throws {
        for round in 0..<Self.rounds {
            let cache = try TemporaryDirectory("stop")
            defer { cache.remove() }
            let reserved = try ReservedPort()
            defer { withExtendedLifetime(reserved) {} }
            var configuration = TestServer.configuration(cacheDirectory: cache.path)
            configuration.port = reserved.port
            configuration.connectionLimits = ConnectionLimits(maxConnections: Self.maxConnections)
            let server = try await TestServer.start(configuration)
            let stopped = Flag()
            let storm = ConnectionStorm(port: server.port, stopAfter: ConnectionStorm.stopPoint(round: round)) {
                Task {
                    await server.cancel()
                    stopped.set()
                }
            }
            let clients = Task { try await storm.run() }
            defer { storm.end() }
            try await waitUntil("the server's task returns once cancelled (round \(round))") { stopped.isSet }
            storm.end()
            let connections = try await clients.value
            let stillOpen = try await onThread { () -> Int in
                let deadline = Date().addingTimeInterval(10)
                return connections.filter { !$0.waitForClose(within: deadline.timeIntervalSinceNow) }.count
            }
            try #require(stillOpen == 0, "round \(round): \(stillOpen) of \(connections.count) connections still open after the server stopped")
        }
    }

    @Test("SIGTERM while 200 connections open: mapframe serve exits 0")
    func sigtermWhileConnecting() async throws {
        for round in 0..<Self.rounds {
            let cache = try TemporaryDirectory("stop-sigterm")
            defer { cache.remove() }
            let reserved = try ReservedPort()
            defer { withExtendedLifetime(reserved) {} }
            let server = try await ServeProcess.start(
                ["--cache-dir", cache.path, "--offline", "--max-connections", String(Self.maxConnections)], port: reserved.port
            )
            let signalled = Flag()
            let storm = ConnectionStorm(port: server.port, stopAfter: ConnectionStorm.stopPoint(round: round)) {
                server.send(SIGTERM)
                signalled.set()
            }
            // The connections close when the storm ends.
            let clients = Task { _ = try await storm.run() }
            defer { storm.end() }
            try await waitUntil("the storm reaches the signal (round \(round))") { signalled.isSet }
            // The clients go on a little, then hang up: a graceful stop waits for requests in
            // flight, and the POSTs' bodies would otherwise take the body timeout to fail.
            try await Task.sleep(for: .milliseconds(100))
            storm.end()
            try await clients.value
            let status = try await exitStatus(of: server, within: 30)
            try #require(status == 0, "round \(round): \(status.map { "exit status \($0)" } ?? "still running after 30 s"); standard error: \(server.standardError)")
        }
    }

    /// The README's figure: connections still open 10 s after the first signal are closed.
    static let documentedGrace = 10.0

    /// A client that asks for many answers and reads none, so that the server's writes stall.
    /// The requests are sent from a thread of their own: once the server stops reading, the
    /// rest of them wait in the client's send, which must not hold up the test.
    private static func nonReadingClient(port: Int) async throws -> RawConnection {
        let connection = try await onThread { try RawConnection(port: port, receiveBuffer: 1) }
        Thread { connection.send(String(repeating: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 5_000)) }.start()
        return connection
    }

    /// Waits until the server on `port` has stopped writing to its client: answers queued that
    /// the client has not taken (the send queue of the server's side, from /proc/net/tcp), the
    /// same in two looks half a second apart. How much queues depends on the kernel's buffer
    /// sizing, so no amount is asked for beyond one answer's worth.
    private static func waitForStalledWrites(port: Int) async throws {
        let localPort = ":" + String(format: "%04X", port)
        func queuedToSend() -> Int? {
            // Read to its end: reading by the file's size would stop at its first page, and the
            // table grows past that when other tests hold many connections.
            let table = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp")).readToEnd()).flatMap { String(decoding: $0, as: UTF8.self) } ?? ""
            for line in table.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count > 4, fields[1].hasSuffix(localPort), fields[3] == "01" else { continue }
                return Int(fields[4].split(separator: ":")[0], radix: 16)
            }
            return nil
        }
        try await waitUntil("the server's writes stall", deadline: 60) {
            guard let queued = queuedToSend(), queued > 16_384 else { return false }
            try await Task.sleep(for: .milliseconds(500))
            return queuedToSend() == queued
        }
    }

    @Test("SIGTERM with a client that reads nothing: the process exits once the grace period is over")
    func graceIsBounded() async throws {
        let cache = try TemporaryDirectory("stop-grace")
        defer { cache.remove() }
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"])
        let client = try await Self.nonReadingClient(port: server.port)
        defer { withExtendedLifetime(client) {} }
        try await Self.waitForStalledWrites(port: server.port)
        let signalled = Date()
        server.send(SIGTERM)
        let status = try await exitStatus(of: server, within: Self.documentedGrace + 5)
        #expect(status == 0, "\(status.map { "exit status \($0)" } ?? "still running") \(Date().timeIntervalSince(signalled)) s after SIGTERM; standard error: \(server.standardError)")
    }

    @Test("a second SIGTERM ends the grace period at once")
    func secondSignalEndsGrace() async throws {
        let cache = try TemporaryDirectory("stop-second")
        defer { cache.remove() }
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"])
        let client = try await Self.nonReadingClient(port: server.port)
        defer { withExtendedLifetime(client) {} }
        try await Self.waitForStalledWrites(port: server.port)
        server.send(SIGTERM)
        try await Task.sleep(for: .seconds(1))
        let second = Date()
        server.send(SIGINT)
        let status = try await exitStatus(of: server, within: 3)
        #expect(status == 0, "\(status.map { "exit status \($0)" } ?? "still running") \(Date().timeIntervalSince(second)) s after the second signal; standard error: \(server.standardError)")
    }

    /// The process's exit status, or nil if it is still running after `seconds` (it is then killed).
    private func exitStatus(of server: ServeProcess, within seconds: Double) async throws -> Int32? {
        let exited = Flag()
        let status = Task {
            defer { exited.set() }
            return try await server.waitForExit()
        }
        do {
            try await waitUntil("the server exits", deadline: seconds) { exited.isSet }
        } catch {
            server.send(SIGKILL)
            _ = try? await status.value
            return nil
        }
        return try await status.value
    }
}

/// Something that happened, told across threads.
final class Flag: Sendable {
    private let value = Atomic(false)

    func set() { value.store(true, ordering: .releasing) }

    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Clients connecting from a few threads at once, each connection one of three kinds in turn:
/// idle, sending a request head a byte at a time, or part-way through a POST whose body is still
/// coming a byte at a time. Once `stopAfter` connections are open, `stop` runs, on the thread
/// that opened the last of them, while the others go on connecting. Connections the server
/// refuses, once it has stopped, are skipped. The slow clients keep sending until `end()`.
final class ConnectionStorm: Sendable {
    static let connections = 200
    static let threads = 4

    /// A different point of the storm for each round, from its start to near its end.
    static func stopPoint(round: Int) -> Int {
        1 + round * 37 % (connections - 10)
    }

    private let port: Int
    private let stopAfter: Int
    private let stop: @Sendable () -> Void
    private let opened = Atomic(0)
    private let ended = Atomic(false)

    init(port: Int, stopAfter: Int, stop: @escaping @Sendable () -> Void) {
        self.port = port
        self.stopAfter = stopAfter
        self.stop = stop
    }

    /// Opens the connections and keeps the slow ones sending until `end()`; returns them all.
    func run() async throws -> [RawConnection] {
        try await withThrowingTaskGroup(of: [RawConnection].self) { group in
            for thread in 0..<Self.threads {
                group.addTask { try await onThread { self.connect(thread) } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// The slow clients stop sending, and `run()` returns.
    func end() {
        ended.store(true, ordering: .releasing)
    }

    private func connect(_ thread: Int) -> [RawConnection] {
        var clients: [Client] = []
        for index in stride(from: thread, to: Self.connections, by: Self.threads) {
            if let connection = try? RawConnection(port: port) {
                clients.append(Client(connection: connection, kind: index % 3))
                if opened.add(1, ordering: .relaxed).newValue == stopAfter { stop() }
            }
            for index in clients.indices { clients[index].sendMore() }
        }
        while !ended.load(ordering: .acquiring) {
            for index in clients.indices { clients[index].sendMore() }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return clients.map(\.connection)
    }

    /// One connection and what it has still to send.
    private struct Client {
        static let slowHead = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 500))\r\n\r\n".utf8)
        static let postHead = "POST /routes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n["

        let connection: RawConnection
        /// Sent a byte at a time; empty for an idle connection.
        private var slowBytes: ArraySlice<UInt8>

        init(connection: RawConnection, kind: Int) {
            self.connection = connection
            switch kind {
            case 0:
                slowBytes = []
            case 1:
                slowBytes = Self.slowHead[...]
            default:
                connection.send(Self.postHead)
                slowBytes = Array(repeating: UInt8(ascii: " "), count: 99_999)[...]
            }
        }

        /// The next byte, until the server closes the connection.
        mutating func sendMore() {
            guard let byte = slowBytes.popFirst() else { return }
            if !connection.send([byte]) { slowBytes = [] }
        }
    }
}
