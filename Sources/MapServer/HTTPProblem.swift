import Foundation
import FrameRequest
import Hummingbird
import MapRender
import NIOHTTP1

/// A request the server will not or cannot answer, with the status and the message for the
/// JSON error body `{"error": "..."}`.
struct HTTPProblem: Error {
    let status: HTTPResponse.Status
    let message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> HTTPProblem { HTTPProblem(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> HTTPProblem { HTTPProblem(status: .notFound, message: message) }
    static func unprocessable(_ message: String) -> HTTPProblem { HTTPProblem(status: .unprocessableContent, message: message) }

    static let overloaded = HTTPProblem(
        status: .serviceUnavailable, message: "the renderer is busy; try again shortly", headers: [.retryAfter: "1"]
    )

    /// A frame whose drawing stopped part way (`RenderCutoff`): too costly to draw in the time a
    /// frame may take, or no longer waited for.
    static func renderStopped(_ stopped: RenderStopped) -> HTTPProblem {
        HTTPProblem(
            status: .serviceUnavailable, message: "\(stopped); draw a smaller frame or fewer points",
            headers: [.retryAfter: String(TileService.maximumDrawing.components.seconds)]
        )
    }

    /// A request the decoder could not read. Each is the client's mistake, so each is a 4xx.
    static func malformedRequest(_ error: HTTPParserError, inChunkedBody: Bool) -> HTTPProblem {
        switch error {
        case .headerOverflow:
            return HTTPProblem(
                status: .requestHeaderFieldsTooLarge,
                message: "the request's header fields are too large; at most \(HTTPDecoderLimits.maxHeaderBytes) bytes and \(HTTPDecoderLimits.maxHeaderFields) fields are allowed",
                headers: [.connection: "close"]
            )
        case .invalidContentLength, .unexpectedContentLength:
            return HTTPProblem(status: .badRequest, message: "Content-Length is not one whole number of bytes", headers: [.connection: "close"])
        case _ where inChunkedBody:
            return HTTPProblem(status: .badRequest, message: "the chunked body is malformed (\(error))", headers: [.connection: "close"])
        default:
            return HTTPProblem(status: .badRequest, message: "the request is malformed HTTP/1.1 (\(error))", headers: [.connection: "close"])
        }
    }

    /// A connection beyond the server's limit.
    static func tooManyConnections(_ limit: Int) -> HTTPProblem {
        HTTPProblem(
            status: .serviceUnavailable, message: "the server has \(limit) connections open, its limit; try again shortly",
            headers: [.retryAfter: "1", .connection: "close"]
        )
    }

    /// A request refused on its head alone (see `RequestHeadRules`); the connection closes after.
    static func refusedHead(_ status: HTTPResponse.Status, _ message: String) -> HTTPProblem {
        HTTPProblem(status: status, message: message, headers: [.connection: "close"])
    }

    /// A body that did not arrive in time.
    static func bodyTimeout(_ limit: Duration) -> HTTPProblem {
        HTTPProblem(
            status: .requestTimeout, message: "the request body did not arrive within \(limit.components.seconds) s of its head",
            headers: [.connection: "close"]
        )
    }

    var response: Response {
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONBody.error(message))))
    }

    /// The same answer as NIO's HTTP/1 parts, for the connection's own handlers, which answer
    /// before the router (and its middleware) sees a request.
    var http1Answer: (head: HTTPResponseHead, body: ByteBuffer) {
        let body = ByteBuffer(bytes: JSONBody.error(message))
        var fields = HTTPHeaders(response.headers.map { ($0.name.canonicalName, $0.value) })
        fields.add(name: "Access-Control-Allow-Origin", value: "*")
        fields.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
        return (HTTPResponseHead(version: .http1_1, status: .init(statusCode: status.code), headers: fields), body)
    }
}

/// JSON bodies, encoded with sorted keys so that answers are stable.
enum JSONBody {
    static func encode(_ value: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static func error(_ message: String) -> Data { encode(["error": message]) }

    static func response(_ value: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encode(value))))
    }
}

extension HTTPProblem {
    /// A frame request's mistake: 400 for a value not allowed, 404 for a style or route not known.
    init(_ error: FrameRequestError) {
        switch error {
        case .invalid(let message): self = .badRequest(message)
        case .notFound(let message): self = .notFound(message)
        }
    }
}
