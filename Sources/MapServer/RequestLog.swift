import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// One log line per answered request, at `info`: the method, the path and query (with the value of
/// any parameter that may hold a secret replaced by `REDACTED`), the status, the body bytes sent
/// and the time taken, in milliseconds. The line is handed to the `AccessLog`, which formats and
/// writes it off the request's thread.
///
/// The router's answers are logged by `RequestLoggingMiddleware`, the answers from memory by
/// `CachedTileFastPath`; both come through here, so their lines are alike. Request headers are
/// never logged, so neither is an `Authorization` header.
struct RequestLog: Sendable {
    let accessLog: AccessLog

    /// Words that mark a query parameter's name as one that may carry a secret (`key`, `apikey`,
    /// `access_token`, `password`, `X-Amz-Signature` ...), matched anywhere in the lower-cased name.
    static let secretNameWords = ["key", "token", "pass", "secret", "auth", "signature", "credential", "session"]

    /// What a secret parameter's value is logged as.
    static let redaction = "REDACTED"

    /// Logs one answered request. `target` is the path with its query, if any.
    func record(method: HTTPRequest.Method, target: String, status: Int, bodyBytes: Int, since start: ContinuousClock.Instant) {
        accessLog.append(AccessLog.Entry(
            method: method.rawValue, target: target, status: status, bodyBytes: bodyBytes, duration: start.duration(to: .now), time: Date()
        ))
    }

    /// `target` with the value of each query parameter whose name may mark a secret replaced by
    /// `REDACTED`. Names are compared percent-decoded, so `%6Bey=` is caught as `key=`; a name
    /// that cannot be decoded is treated as secret.
    static func redacted(_ target: String) -> String {
        guard let questionMark = target.firstIndex(of: "?") else { return target }
        let parameters = target[target.index(after: questionMark)...].split(separator: "&", omittingEmptySubsequences: false)
        let kept = parameters.map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "="), mayHoldSecret(name: parameter[..<equals]) else { return String(parameter) }
            return parameter[..<equals] + "=" + redaction
        }
        return target[..<questionMark] + "?" + kept.joined(separator: "&")
    }

    private static func mayHoldSecret(name: Substring) -> Bool {
        guard let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding?.lowercased() else { return true }
        return secretNameWords.contains { decoded.contains($0) }
    }
}

/// Logs every answer the router gives through `RequestLog`, once its body has been written, so
/// that the time includes sending it and the bytes are those sent (fewer when the client goes away).
struct RequestLoggingMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: RequestLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let target = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        var response = try await next(request, context)
        let (log, method, status) = (log, request.method, response.status.code)
        // The answer to HEAD loses its body after this (see `CachedTileFastPath`), so it sends none.
        guard method != .head else {
            log.record(method: method, target: target, status: status, bodyBytes: 0, since: start)
            return response
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let counter = ByteCounter()
            defer { log.record(method: method, target: target, status: status, bodyBytes: counter.bytes, since: start) }
            try await body.write(CountingBodyWriter(base: writer, counter: counter))
        }
        return response
    }
}

/// The bytes a `CountingBodyWriter` has passed on.
private final class ByteCounter {
    var bytes = 0
}

/// A response body writer that passes everything on to `base` and counts the bytes.
private struct CountingBodyWriter: ResponseBodyWriter {
    var base: any ResponseBodyWriter
    let counter: ByteCounter

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await base.write(buffer)
        counter.bytes += buffer.readableBytes
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await base.finish(trailingHeaders)
    }
}
