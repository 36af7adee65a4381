import HTTPTypes
import NIOCore
import NIOHTTP1

/// Refuses, as soon as its head is in, a request the server will not take:
/// - HTTP/1.1 without exactly one `Host`: 400 (HTTP/1.0 may leave it out);
/// - an `Expect` other than `100-continue`: 417 (HTTP/1.0's is ignored, as HTTP asks);
/// - a declared `Content-Length` over the body limit: 413, without reading the body.
///
/// It sits first after the decoder, so that the cached-tile fast path and the router follow the
/// same rules. A refusal goes on as an `HTTPProblem` error, which `ConnectionGuard` answers after
/// any answers still due; everything the client sends after it is dropped, and the connection
/// closes after the answer.
final class RequestHeadRules: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let maxBodyBytes: Int
    private var refused = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data), let problem = Self.problem(with: head, maxBodyBytes: maxBodyBytes) {
            refused = true
            context.fireErrorCaught(problem)
            return
        }
        context.fireChannelRead(data)
    }

    /// After a refusal, the decoder's errors over what follows are noise.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !refused else { return }
        context.fireErrorCaught(error)
    }

    /// Why the request with this head is refused, or nil when it is taken.
    static func problem(with head: HTTPRequestHead, maxBodyBytes: Int) -> HTTPProblem? {
        let hosts = head.headers["Host"]
        if Self.isHTTP11(head), hosts.count != 1 {
            let found = hosts.isEmpty ? "none was sent" : "\(hosts.count) were sent"
            return .refusedHead(.badRequest, "an HTTP/1.1 request must have exactly one Host header; \(found)")
        }
        if Self.isHTTP11(head), let expect = head.headers["Expect"].first(where: { $0.lowercased() != "100-continue" }) {
            return .refusedHead(.expectationFailed, "Expect: \(expect) is not supported; the only expectation allowed is 100-continue")
        }
        if let declared = head.headers["Content-Length"].first.flatMap(Int.init), declared > maxBodyBytes {
            return .refusedHead(.contentTooLarge, "Content-Length: \(declared) declares a body larger than \(maxBodyBytes) bytes, the limit")
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
