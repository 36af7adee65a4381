import Foundation
import MapFrameTestSupport
import Testing

/// Requests refused on their head, sent as exact bytes over a real socket: a missing or doubled
/// `Host`, an expectation other than `100-continue`, and a declared body over the limit; and
/// `100 Continue` for a client that waits for it.
@Suite struct RequestHeadRulesTests {
    /// Heads refused at once, with the status and a word the JSON error must have.
    static let refusedHeads: [(request: String, status: Int, mentions: String)] = [
        ("GET /healthz HTTP/1.1\r\n\r\n", 400, "Host"),
        ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: example.com\r\n\r\n", 400, "Host"),
        // Answered before the router when held in memory: the same rule holds there.
        ("GET /tiles/osm/0/0/0.png HTTP/1.1\r\n\r\n", 400, "Host"),
        ("POST /routes HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: fries\r\nContent-Length: 2\r\n\r\n", 417, "100-continue"),
        // No body follows: the answer must not wait for it.
        ("POST /routes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 6000000\r\n\r\n", 413, "Content-Length"),
        ("POST /frame HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 6000000\r\n\r\n", 413, "5000000"),
    ]

    @Test("heads the server will not take are refused at once with a JSON error, and the connection closed", arguments: refusedHeads.indices)
    func refusedHead(_ index: Int) async throws {
        let (request, status, phrase) = Self.refusedHeads[index]
        try await TestServer.with(fixtures: true) { server in
            let port = server.port
            _ = try await server.get("/tiles/osm/0/0/0.png")  // now held in memory
            let (reply, closed) = try await onThread { () -> (HTTPReply, Bool) in
                let connection = try RawConnection(port: port)
                connection.send(request)
                let reply = try connection.readAnswer(within: 5)
                return (reply, connection.waitForClose(within: 5))
            }
            try expectJSONError(reply, status: status, mentions: phrase)
            #expect(reply.header("Connection") == "close", "\(reply)")
            #expect(closed, "the connection stayed open after \(reply.status)")
        }
    }

    @Test("HTTP/1.0 without Host is still answered")
    func http10WithoutHost() async throws {
        try await TestServer.with { server in
            let port = server.port
            let reply = try await onThread { () -> HTTPReply in
                let connection = try RawConnection(port: port)
                connection.send("GET /healthz HTTP/1.0\r\n\r\n")
                return try connection.readAnswer(within: 5)
            }
            #expect(reply.status == 200, "\(reply)")
        }
    }

    @Test("a client that waits for 100 Continue gets it, then the answer to its body")
    func expectContinue() async throws {
        try await TestServer.with { server in
            let port = server.port
            let (interim, final) = try await onThread { () -> (HTTPReply, HTTPReply) in
                let connection = try RawConnection(port: port)
                connection.send("POST /routes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
                let interim = try connection.readAnswer(within: 5)
                connection.send("{}")
                return (interim, try connection.readAnswer(within: 5))
            }
            #expect(interim.status == 100, "\(interim)")
            #expect((400..<500).contains(final.status), "\(final)")
        }
    }
}
