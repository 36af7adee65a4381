import Glibc

/// A port on 127.0.0.1 that refuses every connection, like a host whose server is down: the
/// port is bound, so no other server can take it while this lives, but never listened on.
///
///     let down = try RefusingPort()
///     // ... point a style at down.baseURL: every request fails with "connection refused" ...
public final class RefusingPort: Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        (fd, port) = try Socket.bindLoopback(reuseAddress: false)
    }

    deinit { close(fd) }

    /// "http://127.0.0.1:<port>", without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
}
