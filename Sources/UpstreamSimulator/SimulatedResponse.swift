import Foundation

/// A response the simulator sends: status, headers in order, and body.
///
/// The server adds `Content-Length` (and `Connection: close` when it closes the connection) itself,
/// so any `Content-Length` or `Connection` given here is ignored.
public struct SimulatedResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields, sent in this order.
    public var headers: [(String, String)]
    /// The body; not sent for HEAD requests or 304 responses.
    public var body: Data

    public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 200 response with `Content-Type: image/png`, unless `headers` names another Content-Type.
    public static func png(_ data: Data, headers: [(String, String)] = []) -> SimulatedResponse {
        image(data, contentType: "image/png", headers: headers)
    }

    /// A 200 response with an image and its `contentType`, unless `headers` names another.
    public static func image(_ data: Data, contentType: String, headers: [(String, String)] = []) -> SimulatedResponse {
        var all = headers
        if !all.contains(where: { $0.0.lowercased() == "content-type" }) {
            all.insert(("Content-Type", contentType), at: 0)
        }
        return SimulatedResponse(status: 200, headers: all, body: data)
    }

    /// The value of the first header named `name` (case-insensitive), if any.
    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// A text/plain response, for the simulator's own errors and the default 404.
    static func text(_ status: Int, _ message: String, headers: [(String, String)] = []) -> SimulatedResponse {
        SimulatedResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Data((message + "\n").utf8)
        )
    }
}
