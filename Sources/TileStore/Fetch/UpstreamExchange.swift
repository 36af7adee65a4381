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

/// Why a request got no HTTP answer.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Connecting or the whole transfer took longer than allowed.
    case timeout(String)
    /// The body was larger than the fetcher accepts.
    case bodyTooLarge(limit: Int)
    /// Anything else libcurl reports: refused connection, reset, a body shorter than announced.
    case failed(String)

    public var description: String {
        switch self {
        case .timeout(let message): return "timed out (\(message))"
        case .bodyTooLarge(let limit): return "body larger than \(limit) bytes"
        case .failed(let message): return message
        }
    }
}
