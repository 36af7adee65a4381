import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing

/// `mapframe serve` logs a line per request to standard error, as text or JSON, whether the
/// router or memory answers, and never logs a secret.
@Suite struct RequestLogTests {
    static let tile = TileID.containing(Fixtures.cambridge, zoom: 16)

    /// One request as its log line tells it.
    struct LoggedRequest: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var status: Int
        var bytes: Int

        var description: String { "\(method) \(path) \(status) \(bytes)" }

        /// Requests in an order of their own, to compare logs whose order is not the requests'.
        static func unordered(_ requests: [LoggedRequest]) -> [LoggedRequest] {
            requests.sorted { $0.description < $1.description }
        }
    }

    /// What a server was asked, and everything it wrote to standard error until it exited.
    struct Session {
        let tileBytes: Int
        let notFoundBytes: Int
        let standardError: String

        /// What the log must say of the requests `run` makes: the router answers the first and
        /// the last, memory the two between. A line is written once its answer has gone, so the
        /// router's line for the first can come after memory's lines for answers sent later on
        /// another connection: compare the lines in any order (`unordered`).
        var expected: [LoggedRequest] {
            let path = Fixtures.tilePath(RequestLogTests.tile)
            return [
                LoggedRequest(method: "GET", path: path, status: 200, bytes: tileBytes),
                LoggedRequest(method: "GET", path: path, status: 200, bytes: tileBytes),
                LoggedRequest(method: "HEAD", path: path, status: 200, bytes: 0),
                LoggedRequest(method: "GET", path: "/no/such/page", status: 404, bytes: notFoundBytes),
            ]
        }
    }

    /// Starts `mapframe serve` on the fixture tiles with `arguments`, makes `requests` (or, by
    /// default, those `Session.expected` describes), stops it with SIGTERM and returns its log.
    func run(_ arguments: [String], requests: ((Int) async throws -> Void)? = nil) async throws -> Session {
        let cache = try TemporaryDirectory("request-log")
        defer { cache.remove() }
        try Fixtures.installOSMCache(in: cache.path)
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"] + arguments)
        var tileBytes = 0, notFoundBytes = 0
        if let requests {
            try await requests(server.port)
        } else {
            let path = Fixtures.tilePath(Self.tile)
            let first = try await HTTP.send("GET", path, port: server.port)
            // Kept alive: memory answers the tile twice; the last request asks to close.
            let replies = try await HTTP.pipelined([("GET", path), ("HEAD", path), ("GET", "/no/such/page")], port: server.port)
            #expect(first.status == 200 && replies.map(\.status) == [200, 200, 404], "\(first) \(replies)")
            tileBytes = first.body.count
            notFoundBytes = replies.last?.body.count ?? 0
        }
        server.send(SIGTERM)
        #expect(try await server.waitForExit() == 0, "\(server.standardError)")
        return Session(tileBytes: tileBytes, notFoundBytes: notFoundBytes, standardError: server.standardError)
    }

    @Test func textLinesTellEveryRequest() async throws {
        let session = try await run([])
        // swift-log's text line: "<time> info mapframe: bytes=... duration_ms=... method=... path=... status=... [MapServer] request".
        let lines = session.standardError.split(separator: "\n").filter { $0.hasSuffix("] request") }
        var logged: [LoggedRequest] = []
        for line in lines {
            #expect(line.contains(" info mapframe: "), "\(line)")
            let fields = Dictionary(line.matches(of: /(\w+)=(\S+)/).map { (String($0.1), String($0.2)) }) { $1 }
            let duration = try #require(fields["duration_ms"].flatMap(Double.init), "\(line)")
            #expect(duration >= 0)
            logged.append(LoggedRequest(
                method: fields["method"] ?? "", path: fields["path"] ?? "", status: Int(fields["status"] ?? "") ?? 0, bytes: Int(fields["bytes"] ?? "") ?? -1
            ))
        }
        #expect(LoggedRequest.unordered(logged) == LoggedRequest.unordered(session.expected), "\(session.standardError)")
    }

    @Test func jsonLinesAreObjectsWithTheFieldsAsFields() async throws {
        let session = try await run(["--log-format", "json"])
        var logged: [LoggedRequest] = []
        for line in session.standardError.split(separator: "\n") {
            // Every line, not only the requests', is one JSON object.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let time = try #require(object["time"] as? String, "\(line)")
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
            #expect(object["level"] is String && object["message"] is String, "\(line)")
            guard object["message"] as? String == "request" else { continue }
            #expect(object["level"] as? String == "info")
            // Numbers are JSON numbers, not strings.
            let status = try #require(object["status"] as? Int, "\(line)")
            let bytes = try #require(object["bytes"] as? Int, "\(line)")
            let duration = try #require(object["duration_ms"] as? Double, "\(line)")
            #expect(duration >= 0)
            logged.append(LoggedRequest(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "", status: status, bytes: bytes
            ))
        }
        #expect(LoggedRequest.unordered(logged) == LoggedRequest.unordered(session.expected), "\(session.standardError)")
    }

    /// Even at the most talkative level, neither a query parameter that may be a key nor the
    /// Authorization header reaches the log, in either format; other parameters are kept.
    @Test(arguments: ["text", "json"])
    func secretsAreNeverLogged(format: String) async throws {
        let secrets = ["secret123", "bearer-token-0123456789", "s3cr3t-apikey", "hunter2", "encoded-name-secret"]
        let query = "?key=secret123&zoom=5&ApiKey=s3cr3t-apikey&password=hunter2&%6Bey=encoded-name-secret"
        let session = try await run(["--log-level", "trace", "--log-format", format]) { port in
            for path in ["/tiles/osm.json" + query, Fixtures.tilePath(Self.tile) + query, "/healthz" + query] {
                let reply = try await HTTP.send("GET", path, port: port, headers: [("Authorization", "Bearer bearer-token-0123456789")])
                #expect(reply.status < 500, "\(path): \(reply)")
            }
        }
        for secret in secrets {
            #expect(!session.standardError.contains(secret), "\(secret) was logged: \(session.standardError)")
        }
        let redacted = "?key=REDACTED&zoom=5&ApiKey=REDACTED&password=REDACTED&%6Bey=REDACTED"
        #expect(session.standardError.components(separatedBy: "/healthz" + redacted).count == 2, "\(session.standardError)")
        #expect(session.standardError.components(separatedBy: redacted).count == 4, "\(session.standardError)")
    }

    /// The request lines go to a pipe that is held open and never read, so it fills after some
    /// 64 KiB and the log's writer waits on it for good. Every request is still answered, the
    /// lines that find the log's buffer full are dropped and counted in /metrics, and the server
    /// still stops at once.
    @Test func aFullPipeDropsLinesAndNeverHoldsUpRequests() async throws {
        let directory = try TemporaryDirectory("full-pipe")
        defer { directory.remove() }
        let fifo = directory.path("requests.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading first, so that the server's opening for writing does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let path = Fixtures.tilePath(Self.tile)
        let (batches, perBatch) = (24, 1_000)
        var dropped = 0
        let session = try await run(["--access-log", fifo]) { port in
            for _ in 0..<batches {
                let replies = try await HTTP.pipelined(Array(repeating: path, count: perBatch), port: port)
                #expect(replies.count == perBatch && replies.allSatisfy { $0.status == 200 })
            }
            let metrics = try await HTTP.send("GET", "/metrics", port: port).text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("mapframe_request_log_dropped_total ") }
            dropped = line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
        // Kept: some 64 KiB of lines in the pipe, the batch the writer was writing when it filled
        // (what was waiting then: at most 8,192 lines), and the 8,192 lines or 1 MiB waiting
        // since. The rest are dropped. How large that batch is depends on when the writer woke,
        // so on the machine's load; its bound does not.
        #expect(dropped > batches * perBatch - 2 * 8_192 - 1_000 && dropped < batches * perBatch, "dropped \(dropped)")
        #expect(!session.standardError.contains("] request"), "request lines went to the file, not standard error")
    }

    /// The server's standard error is a pipe that is held open and never read, and the request
    /// lines go there, as they do by default: once the pipe is full, every request is still
    /// answered, the lines that find the log's buffer full are dropped and counted, and the server
    /// still stops at once.
    @Test func aFullStandardErrorDropsLinesAndNeverHoldsUpRequests() async throws {
        let directory = try TemporaryDirectory("full-standard-error")
        defer { directory.remove() }
        try Fixtures.installOSMCache(in: directory.path)
        let fifo = directory.path("standard-error.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading first, so that the shell's opening for writing does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let server = try await ServeProcess.start(["--cache-dir", directory.path, "--offline"], standardErrorPath: fifo)
        let path = Fixtures.tilePath(Self.tile)
        let (batches, perBatch) = (24, 1_000)
        for _ in 0..<batches {
            let replies = try await HTTP.pipelined(Array(repeating: path, count: perBatch), port: server.port)
            #expect(replies.count == perBatch && replies.allSatisfy { $0.status == 200 })
        }
        let metrics = try await HTTP.send("GET", "/metrics", port: server.port).text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("mapframe_request_log_dropped_total ") }
        let dropped = line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        // Kept: some 64 KiB of lines in the pipe, the batch the writer was writing when it filled
        // (what was waiting then: at most 8,192 lines), and the 8,192 lines or 1 MiB waiting
        // since. The rest are dropped. How large that batch is depends on when the writer woke,
        // so on the machine's load; its bound does not.
        #expect(dropped > batches * perBatch - 2 * 8_192 - 1_000 && dropped < batches * perBatch, "dropped \(dropped)")
        let stopping = ContinuousClock.now
        server.send(SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(ContinuousClock.now - stopping < .seconds(4), "stopping took \(ContinuousClock.now - stopping)")
    }

    @Test func warningLevelLeavesRequestsOut() async throws {
        let session = try await run(["--log-level", "warning"])
        #expect(session.tileBytes > 0)
        #expect(!session.standardError.contains("request"), "\(session.standardError)")
    }

    @Test(arguments: [
        (["--log-level", "verbose"], "--log-level: 'verbose' is not allowed; expected trace, debug, info, notice, warning, error or critical"),
        (["--log-level", "INFO"], "--log-level: 'INFO' is not allowed; expected trace, debug, info, notice, warning, error or critical"),
        (["--log-format", "xml"], "--log-format: 'xml' is not allowed; expected text or json"),
        (["--access-log", "/nonexistent/requests.log"],
         "--access-log: '/nonexistent/requests.log' cannot be opened for appending (No such file or directory); expected a file that can be appended to, - for standard error, or off"),
        (["--access-log", "/"], "--access-log: '/' cannot be opened for appending (Is a directory); expected a file that can be appended to, - for standard error, or off"),
    ])
    func badLogOptionsAreRefused(arguments: [String], message: String) async throws {
        let cache = try TemporaryDirectory("bad-log-option")
        defer { cache.remove() }
        let result = try await runProgram(
            try MapframeExecutable.url(), ["serve", "--port", "0", "--cache-dir", cache.path, "--offline"] + arguments, in: cache.url
        )
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(message), "\(result)")
        #expect(!result.standardOutput.contains("serving"), "\(result)")
    }
}
