import Foundation

/// A misbehaviour the simulator can apply to a request instead of its normal response.
public enum Fault: Sendable {
    /// Answers with this status, headers and body, e.g. `.status(500)` or
    /// `.status(429, headers: [("Retry-After", "1")])`.
    case status(Int, headers: [(String, String)] = [], body: Data = Data())
    /// Reads the request, then never answers; the connection stays open until the client closes it
    /// or the simulator stops.
    case timeout
    /// Sends the normal response's headers with the full Content-Length, then only the first half
    /// of the body, then closes the connection.
    case truncatedBody
    /// Answers 200 with Content-Type text/html and an HTML error page, like a captive portal or a
    /// misconfigured CDN.
    case htmlBody
    /// Answers 200 image/png with a valid PNG signature followed by garbage.
    case corruptImage
    /// Sends the normal response, its body in small chunks at about this many bytes per second.
    case slowDrip(bytesPerSecond: Int)
    /// Reads the request, then closes the connection without a word of answer.
    case closeWithoutAnswer
    /// Reads the request, then resets the connection (a TCP RST), as a crashing server or a
    /// dropped NAT mapping does.
    case reset
}
