import Foundation
import MapFrameTestSupport
import Testing

/// Methods a path does not take, sent as exact bytes over a real socket: 405 with `Allow`
/// listing those it does take; an unknown path stays 404.
@Suite struct MethodNotAllowedTests {
    static let requests: [(method: String, path: String, allow: String?)] = [
        ("OPTIONS", "/tiles/osm/0/0/0.png", "GET, HEAD"),
        ("PUT", "/routes", "GET, HEAD, POST"),
        ("PATCH", "/routes/abc", "DELETE, GET, HEAD"),
        ("DELETE", "/frame.png", "GET, HEAD"),
        ("GET", "/frame", "POST"),
        ("POST", "/leaflet/leaflet.js", "GET, HEAD"),
        ("OPTIONS", "/no/such/page", nil),
    ]

    @Test("a method a path does not take gets 405 with Allow; an unknown path 404", arguments: requests.indices)
    func methodNotAllowed(_ index: Int) async throws {
        let (method, path, allow) = Self.requests[index]
        try await TestServer.with(fixtures: true) { server in
            let port = server.port
            _ = try await server.get("/tiles/osm/0/0/0.png")  // now held in memory
            let reply = try await onThread { () -> HTTPReply in
                let connection = try RawConnection(port: port)
                connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
                return try connection.readAnswer(within: 5)
            }
            if let allow {
                try expectJSONError(reply, status: 405, mentions: allow)
                #expect(reply.header("Allow") == allow, "\(reply)")
            } else {
                #expect(reply.status == 404, "\(reply)")
                #expect(reply.header("Allow") == nil, "\(reply)")
            }
        }
    }
}
