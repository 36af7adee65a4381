import Foundation
import MapFrameTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The last answer on a connection the server closes says `Connection: close`, sent as exact
/// bytes over a real socket.
@Suite struct LastAnswerTests {
    @Test("a request that asks to close gets Connection: close, then the connection closes", arguments: [
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        "GET /healthz HTTP/1.0\r\n\r\n",
    ])
    func clientCloses(_ request: String) async throws {
        try await TestServer.with { server in
            let port = server.port
            let (reply, closed) = try await onThread { () -> (HTTPReply, Bool) in
                let connection = try RawConnection(port: port)
                connection.send(request)
                let reply = try connection.readAnswer(within: 5)
                return (reply, connection.waitForClose(within: 5))
            }
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Connection") == "close", "\(reply)")
            #expect(closed)
        }
    }

    @Test("the answer in progress when the server stops says Connection: close")
    func serverStops() async throws {
        let cache = try TemporaryDirectory("last-answer")
        defer { cache.remove() }
        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"])
        let connection = try await onThread { () -> RawConnection in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /routes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{")
            return connection
        }
        try await Task.sleep(for: .milliseconds(500))
        server.send(SIGTERM)
        try await Task.sleep(for: .seconds(1))
        let (reply, closed) = try await onThread { () -> (HTTPReply, Bool) in
            connection.send("}")
            let reply = try connection.readAnswer(within: 5)
            return (reply, connection.waitForClose(within: 5))
        }
        #expect(reply.header("Connection") == "close", "\(reply)")
        #expect(closed)
        #expect(try await server.waitForExit() == 0)
    }
}
