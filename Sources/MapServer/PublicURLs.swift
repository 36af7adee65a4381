import Hummingbird

/// Where the absolute URLs the server writes (TileJSON `tiles`, route documents) point: the
/// operator's `--public-url` when set; else the host the client asked for, checked, with
/// `Vary: Host` on the answer so that a shared cache keeps one answer per host.
struct PublicURLs: Sendable {
    /// `--public-url` without a trailing slash, such as "https://maps.example.org/tiles".
    let configured: String?
    /// The address the server listens on, for a request with no Host (HTTP/1.0).
    let listening: String

    /// The base URL for an answer to `request`, and whether it came from the request's Host.
    func base(for request: Request) throws(HTTPProblem) -> (url: String, fromHost: Bool) {
        if let configured { return (configured, false) }
        guard let authority = request.head.authority else { return ("http://" + listening, false) }
        guard PublicURLs.isHostAndPort(authority) else {
            throw HTTPProblem.badRequest("Host: not a host name or address with an optional port (the value is not repeated here)")
        }
        return ("http://" + authority, true)
    }

    /// A DNS name, an IPv4 address or a bracketed IPv6 address, then optionally ":port".
    static func isHostAndPort(_ authority: String) -> Bool {
        guard authority.utf8.count <= 261,
              let match = authority.wholeMatch(of: /(?<host>[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::(?<port>[0-9]{1,5}))?/)
        else { return false }
        guard let port = match.output.port else { return true }
        return Int(port).map { (1...65535).contains($0) } ?? false
    }
}
