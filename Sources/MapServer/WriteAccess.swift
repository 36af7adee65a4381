import Foundation
import Hummingbird

/// Who may store and delete routes.
///
/// - With a token, a write needs `Authorization: Bearer <token>`.
/// - Without one, a server on a loopback address takes writes from anyone who can reach it
///   (only this machine); a server on any other address refuses them (403), unless its operator
///   opted in to anonymous writes.
struct WriteAccess: Sendable {
    enum Rule: Sendable {
        case anyone
        case bearer(token: String)
        case nobody(reason: String)
    }

    let rule: Rule

    init(token: String?, host: String, anonymousWritesAllowed: Bool) {
        if let token {
            rule = .bearer(token: token)
        } else if anonymousWritesAllowed || WriteAccess.isLoopback(host) {
            rule = .anyone
        } else {
            rule = .nobody(reason: """
                writes are off: this server listens on \(host) without a write token; its operator can set \
                MAPFRAME_WRITE_TOKEN or --write-token-file, or allow anonymous writes with --allow-anonymous-writes
                """)
        }
    }

    /// Throws the 401 or 403 a write without the right credentials gets.
    func check(_ request: Request) throws(HTTPProblem) {
        switch rule {
        case .anyone:
            return
        case .nobody(let reason):
            throw HTTPProblem(status: .forbidden, message: reason)
        case .bearer(let token):
            guard let given = request.headers[.authorization] else {
                throw HTTPProblem(
                    status: .unauthorized, message: "writes need Authorization: Bearer <token>",
                    headers: [.wwwAuthenticate: #"Bearer realm="MapFrame""#]
                )
            }
            guard given.hasPrefix("Bearer "), WriteAccess.constantTimeEqual(Array(given.utf8.dropFirst(7)), Array(token.utf8)) else {
                throw HTTPProblem(
                    status: .unauthorized, message: "the write token is not the server's",
                    headers: [.wwwAuthenticate: #"Bearer realm="MapFrame", error="invalid_token""#]
                )
            }
        }
    }

    /// Whether `host` names this machine only.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Compares every byte whatever differs, so the time taken says nothing of the token.
    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
