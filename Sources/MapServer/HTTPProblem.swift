import Foundation
import Hummingbird

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

    var response: Response {
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONBody.error(message))))
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
