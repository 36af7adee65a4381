import Foundation

/// One upstream GET.
public struct UpstreamRequest: Sendable {
    public var url: String
    /// Extra request headers as "Name: value" lines.
    public var headers: [String]
    public var userAgent: String

    public init(url: String, headers: [String] = [], userAgent: String) {
        self.url = url
        self.headers = headers
        self.userAgent = userAgent
    }
}

/// The upstream's answer.
public struct UpstreamResponse: Sendable {
    public var status: Int
    /// Header values by lower-cased name (the last one wins).
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no HTTP answer, in words that name the cause.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection within the time allowed for connecting.
    case connectTimeout(Duration)
    /// Connected, but no answer, or no complete answer, within the time allowed in all.
    case responseTimeout(Duration, receivedBytes: Int)
    /// Nothing listens on the port.
    case refused
    /// The server or something on the way reset the connection.
    case reset
    /// The server closed the connection without answering.
    case closedWithoutAnswer
    /// The connection closed before the whole body arrived.
    case truncated
    /// The host name does not resolve.
    case unresolvedHost(String)
    /// The body was larger than the fetcher accepts.
    case bodyTooLarge(limit: Int)
    /// The fetch's deadline passed before a connection was free for this try.
    case deadlinePassed
    /// The fetcher was shut down.
    case shutDown
    /// Anything else libcurl reports (TLS, protocol errors), in its words.
    case failed(String)

    /// Whether trying again soon may help: the server or the network dropped the request.
    /// A timeout is not worth it: a server that hung once will hang again, and every try
    /// would wait as long.
    var isWorthRetrying: Bool {
        switch self {
        case .refused, .reset, .closedWithoutAnswer, .truncated: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .connectTimeout(let limit): "timed out: no connection within \(limit.secondsText)"
        case .responseTimeout(let limit, 0): "timed out: no answer within \(limit.secondsText)"
        case .responseTimeout(let limit, let received): "timed out: the answer was not complete within \(limit.secondsText) (\(received) bytes received)"
        case .refused: "connection refused"
        case .reset: "connection reset"
        case .closedWithoutAnswer: "the server closed the connection without answering"
        case .truncated: "the connection closed before the whole body arrived"
        case .unresolvedHost(let host): "the host name \(host) does not resolve"
        case .bodyTooLarge(let limit): "body larger than \(limit) bytes"
        case .deadlinePassed: "no connection was free before the fetch's deadline"
        case .shutDown: "the fetcher has shut down"
        case .failed(let message): message
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// "15 s", "0.5 s": for messages.
    var secondsText: String {
        String(format: "%g s", Double(milliseconds) / 1000)
    }
}
