import AsyncHTTPClient
import Foundation
import ImageCodec
import MapFrameTestSupport
import NIOCore
import NIOHTTP1
import NIOPosix

/// The one client for a test's ordinary requests to a server: AsyncHTTPClient, on an event loop
/// of its own, so that a server that stalls its own loops cannot also stall the client that is
/// to notice it. It follows no redirect, decodes no content encoding, goes through no proxy and
/// caches nothing, so a test sees the answer the server gave; each request asks to close its
/// connection, so that no answer depends on what an earlier request left open.
public enum TestHTTP {
    /// The longest a request may take from sending to the last byte of its answer.
    public static let requestDeadline: TimeAmount = .seconds(60)

    /// The most bytes of body read from one answer.
    static let maxBodyBytes = 256 << 20

    /// What a URL may hold as written: a query's characters and the `%` of an escape.
    private static let sendableAsWritten = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "%"))

    private static let client = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: 1),
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)), decompression: .disabled)
    )

    /// Sends `method` to `url` with `headers` (a Host field among them replaces the URL's) and
    /// `body`, and reads the whole answer.
    /// `url` may be written as a test reads best, with characters a URL may not hold (such as
    /// the `|` of `marker=`): they are percent-encoded, and escapes already written ("%20") are
    /// sent as written.
    public static func send(_ method: String, _ url: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> HTTPReply {
        guard let escaped = url.addingPercentEncoding(withAllowedCharacters: sendableAsWritten) else {
            throw TestSetupError(description: "cannot percent-encode \(url)")
        }
        var request = HTTPClientRequest(url: escaped)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, deadline: .now() + requestDeadline)
        let bytes = try await response.body.collect(upTo: maxBodyBytes)
        return HTTPReply(
            status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) }, body: Data(bytes.readableBytesView)
        )
    }

    public static func get(_ url: String) async throws -> HTTPReply {
        try await send("GET", url)
    }

    public static func post(_ url: String, body: Data, contentType: String) async throws -> HTTPReply {
        try await send("POST", url, headers: [("Content-Type", contentType)], body: body)
    }
}

extension StartedServer {
    /// Sends one request for `path` through `TestHTTP` and reads the whole answer.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> HTTPReply {
        try await TestHTTP.send(method, url(path), headers: headers, body: body)
    }

    public func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPReply {
        try await request("GET", path, headers: headers)
    }

    public func head(_ path: String, headers: [(String, String)] = []) async throws -> HTTPReply {
        try await request("HEAD", path, headers: headers)
    }

    public func post(_ path: String, contentType: String?, body: Data, headers: [(String, String)] = []) async throws -> HTTPReply {
        try await request("POST", path, headers: (contentType.map { [("Content-Type", $0)] } ?? []) + headers, body: body)
    }

    public func delete(_ path: String, headers: [(String, String)] = []) async throws -> HTTPReply {
        try await request("DELETE", path, headers: headers)
    }
}

extension ServeProcess {
    /// Posts a GeoJSON route to `POST /routes` and returns the id the server gave it.
    public func postRoute(geoJSON: String) async throws -> String {
        let answer = try await post("routes", contentType: "application/geo+json", body: Data(geoJSON.utf8))
        guard answer.status == 201, let id = try answer.json()["id"] as? String else {
            throw TestSetupError(description: "POST /routes answered \(answer.status): \(answer.text)")
        }
        return id
    }
}

/// One HTTP answer: its status, its header fields in the order sent, and its body.
public struct HTTPReply: CustomStringConvertible, Sendable {
    public let status: Int
    /// Header fields in the order sent, a field sent twice listed twice.
    public let headers: [(name: String, value: String)]
    /// The body, de-chunked. Read off raw sockets, for HEAD and 304 whatever bytes followed the
    /// head (there should be none).
    public let body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header field called `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    public func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestSetupError(description: "the body is not a JSON object: \(text.prefix(200))")
        }
        return object
    }

    /// The `error` message of a JSON error body, or nil if the body is not one.
    public var errorMessage: String? {
        guard let object = try? json(), object.count == 1 else { return nil }
        return object["error"] as? String
    }

    /// The body decoded as a PNG.
    public func image() throws -> RasterImage {
        try PNGCodec.decode(body)
    }

    /// `max-age` from Cache-Control, if given.
    public var maxAge: Int? {
        guard let cacheControl = header("Cache-Control"), let match = cacheControl.firstMatch(of: /max-age=(\d+)/) else { return nil }
        return Int(match.1)
    }

    public var description: String {
        let body = header("Content-Type")?.hasPrefix("image/") == true ? "<\(self.body.count) bytes of image>" : String(text.prefix(300))
        return "HTTP \(status) \(headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")) | \(body)"
    }
}
