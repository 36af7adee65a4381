import HTTPTypes
import NIOCore
import NIOHTTP1

/// Refuses, as soon as its head is in, a request the server will not take:
/// - HTTP/1.1 without exactly one `Host`: 400 (HTTP/1.0 may leave it out);
/// - an `Expect` other than `100-continue`: 417 (HTTP/1.0's is ignored, as HTTP asks);
/// - a declared `Content-Length` over the body limit: 413, without reading the body.
///
/// `CachedTileFastPath`, the first handler after the decoder, applies the rules to every part
/// it reads, so that it and the router follow the same rules without another handler to pass
/// through. A refusal goes on as an `HTTPProblem` error, which `ConnectionGuard` answers after
/// any answers still due; everything the client sends after it is dropped, and the connection
/// closes after the answer.
struct RequestHeadRules {
    private let maxBodyBytes: Int
    /// Set once a request has been refused: nothing more from the client is taken.
    private(set) var hasRefused = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// What becomes of a part the client sent.
    enum Verdict {
        /// Taken: it goes on.
        case taken
        /// Its head is refused, for this reason.
        case refused(HTTPProblem)
        /// Sent after a refusal: dropped.
        case dropped
    }

    /// The verdict on `part`; a refusal drops everything after it.
    mutating func verdict(on part: HTTPServerRequestPart) -> Verdict {
        guard !hasRefused else { return .dropped }
        guard case .head(let head) = part, let problem = Self.problem(with: head, maxBodyBytes: maxBodyBytes) else { return .taken }
        hasRefused = true
        return .refused(problem)
    }

    /// Why the request with this head is refused, or nil when it is taken: one pass over its
    /// header fields.
    static func problem(with head: HTTPRequestHead, maxBodyBytes: Int) -> HTTPProblem? {
        let isHTTP11 = isHTTP11(head)
        var hosts = 0
        var unmetExpectation: String?
        var declaredLength: Int?, sawLength = false
        for (name, value) in head.headers {
            if name.utf8.count == 4, name.lowercased() == "host" {
                hosts += 1
            } else if isHTTP11, name.utf8.count == 6, unmetExpectation == nil, name.lowercased() == "expect", value.lowercased() != "100-continue" {
                unmetExpectation = value
            } else if !sawLength, name.utf8.count == 14, name.lowercased() == "content-length" {
                sawLength = true
                declaredLength = Int(value)
            }
        }
        if isHTTP11, hosts != 1 {
            let found = hosts == 0 ? "none was sent" : "\(hosts) were sent"
            return .refusedHead(.badRequest, "an HTTP/1.1 request must have exactly one Host header; \(found)")
        }
        if let unmetExpectation {
            return .refusedHead(.expectationFailed, "Expect: \(unmetExpectation) is not supported; the only expectation allowed is 100-continue")
        }
        if let declaredLength, declaredLength > maxBodyBytes {
            return .refusedHead(.contentTooLarge, "Content-Length: \(declaredLength) declares a body larger than \(maxBodyBytes) bytes, the limit")
        }
        return nil
    }

    /// Whether the request asks for `100 Continue` before it sends its body.
    static func asksToContinue(_ head: HTTPRequestHead) -> Bool {
        isHTTP11(head) && head.headers["Expect"].contains { $0.lowercased() == "100-continue" }
    }

    private static func isHTTP11(_ head: HTTPRequestHead) -> Bool {
        head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
    }
}
