import Foundation

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
