import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How long the server waits for a client, and how many clients it serves at once. A client
/// that is slower than these is closed, so slow or idle connections cannot pile up and take the
/// descriptors every other client needs.
public struct ConnectionLimits: Sendable {
    /// A request's head must be in, whole, this soon after the connection is ready for it: after
    /// it opens, or after the last answer on it ended. It is also how long an idle kept-alive
    /// connection stays open.
    public var headerTimeout: Duration
    /// A request's body must be in, whole, this soon after its head; else 408.
    public var bodyTimeout: Duration
    /// A client that reads none of its answer for this long is closed.
    public var writeTimeout: Duration
    /// Connections served at once; more are answered 503 and closed at once. The server lowers
    /// it to fit the process's descriptor limit (see `effectiveMaxConnections`).
    public var maxConnections: Int

    public static let defaultMaxConnections = 1024

    public init(
        headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30), writeTimeout: Duration = .seconds(30),
        maxConnections: Int = ConnectionLimits.defaultMaxConnections
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.writeTimeout = writeTimeout
        self.maxConnections = maxConnections
    }

    /// `maxConnections`, or fewer when the process may not open that many descriptors and keep
    /// the ones it needs for its caches, its upstream connections and its own files.
    public func effectiveMaxConnections(descriptorLimit: Int) -> Int {
        let reserve = min(128, descriptorLimit / 4)
        return max(1, min(maxConnections, descriptorLimit - reserve))
    }
}

/// The process's limit on open descriptors (files and sockets).
public enum DescriptorLimit {
    /// Raises the soft limit to the hard limit, as far as the system allows, and returns the
    /// soft limit now in force. Servers need a descriptor per connection; the usual soft limit
    /// of 1024 is far below what the hard limit allows.
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // Unlimited (RLIM_INFINITY, all ones) is not a count; treat it as plenty.
        return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
    }
}
