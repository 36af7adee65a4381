/// A local upstream tile server on 127.0.0.1 for tests and benchmarks, with fault injection.
///
/// Speaks HTTP/1.1 with persistent connections and Content-Length framing, answers GET and HEAD
/// (other methods get 405), rejects malformed requests with 400, and answers conditional
/// requests with 304 for any response carrying an ETag or Last-Modified. Every request is
/// recorded before any fault is applied, so tests can count upstream requests exactly.
///
///     let upstream = try UpstreamSimulator()
///     upstream.setResponse(.png(tile, headers: [("ETag", "\"v1\"")]), for: "/15/16396/10894.png")
///     upstream.inject(.status(503), for: nil, times: 2)
///     // ... point the cache at upstream.baseURL ...
///     #expect(upstream.requestCount(for: "/15/16396/10894.png") == 3)
public final class UpstreamSimulator: Sendable {
    /// The port the simulator listens on.
    public let port: Int
    private let state: SimulatorState
    private let server: HTTPServer

    /// Binds 127.0.0.1 on an ephemeral port and starts serving.
    public init() throws {
        let state = SimulatorState()
        let responder = Responder(state: state)
        self.state = state
        server = try HTTPServer(onAccept: { state.countConnection() }, reply: { responder.reply(to: $0) })
        port = server.port
    }

    deinit {
        server.stop()
    }

    /// "http://127.0.0.1:<port>", without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Closes the listener and every open connection and waits for their threads to finish.
    /// The port then refuses connections, as a host whose server is down does, and is kept
    /// from other servers until the simulator goes: a client still asking this upstream never
    /// reaches another test's. Idempotent; also done on deinit.
    /// Must not be called from a default handler.
    public func stop() {
        server.stop()
    }

    /// Sets the response served for a path such as "/15/16396/10894.png" (without query string).
    public func setResponse(_ response: SimulatedResponse, for path: String) {
        state.setResponse(response, for: path)
    }

    /// Sets the handler asked for any path with no response of its own; when it returns nil
    /// (or there is none), the simulator answers 404 text/plain.
    public func setDefaultHandler(_ handler: @escaping @Sendable (_ path: String) -> SimulatedResponse?) {
        state.setDefaultHandler(handler)
    }

    /// Applies `fault` to the next `times` GET or HEAD requests for `path` (nil = any path),
    /// instead of their normal responses. Faults are used first in, first out.
    public func inject(_ fault: Fault, for path: String?, times: Int = 1) {
        state.inject(fault, for: path, times: times)
    }

    /// Every request received since the start or the last `resetLog()`, in order.
    /// Malformed requests answered with 400 are not recorded.
    public var requests: [RecordedRequest] {
        state.requests
    }

    /// How many recorded requests had this path.
    public func requestCount(for path: String) -> Int {
        state.requests.count { $0.path == path }
    }

    /// TCP connections accepted since the start or the last `resetLog()`.
    public var connectionCount: Int {
        state.connectionCount
    }

    /// Clears the request log and the connection count.
    public func resetLog() {
        state.resetLog()
    }
}
