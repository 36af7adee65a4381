import Foundation
import Testing
import UpstreamSimulator

private let tilePath = "/15/16396/10894.png"

@Suite struct UpstreamSimulatorTests {
    @Test func servesConfiguredResponseWithHeadersAndRecordsTheRequest() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile, headers: [("Cache-Control", "max-age=60")]), for: tilePath)

        let result = try await curl(["-H", "X-Probe: 1", upstream.baseURL + tilePath + "?key=abc"])

        #expect(result.status == 200)
        #expect(result.headers["content-type"] == "image/png")
        #expect(result.headers["cache-control"] == "max-age=60")
        #expect(result.headers["content-length"] == "\(sampleTile.count)")
        #expect(result.body == sampleTile)
        let request = try #require(upstream.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == tilePath)
        #expect(request.query == "key=abc")
        #expect(request.headers["x-probe"] == "1")
    }

    @Test func headSendsHeadersWithoutBody() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)

        let result = try await curl(["--head", upstream.baseURL + tilePath])

        #expect(result.status == 200)
        #expect(result.headers["content-length"] == "\(sampleTile.count)")
        #expect(result.body.isEmpty)
        #expect(upstream.requests.map(\.method) == ["HEAD"])
    }

    @Test func unknownPathIs404TextPlain() async throws {
        let upstream = try UpstreamSimulator()

        let result = try await curl([upstream.baseURL + "/0/0/0.png"])

        #expect(result.status == 404)
        #expect(result.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(upstream.requestCount(for: "/0/0/0.png") == 1)
    }

    @Test func defaultHandlerAnswersPathsWithoutAResponse() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setDefaultHandler { path in path.hasSuffix(".png") ? .png(Data(path.utf8)) : nil }

        #expect(try await curl([upstream.baseURL + "/1/0/1.png"]).body == Data("/1/0/1.png".utf8))
        #expect(try await curl([upstream.baseURL + "/robots.txt"]).status == 404)
    }

    @Test func malformedRequestGets400() async throws {
        let upstream = try UpstreamSimulator()

        let reply = try await rawExchange(port: upstream.port, "GARBAGE\r\nnot a header\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 400 "))
        #expect(upstream.requests.isEmpty)
    }

    @Test func statusFaultAppliesOnceThenNormalResponsesResume() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.status(429, headers: [("Retry-After", "1")]), for: tilePath)

        let faulted = try await curl([upstream.baseURL + tilePath])
        let normal = try await curl([upstream.baseURL + tilePath])

        #expect(faulted.status == 429)
        #expect(faulted.headers["retry-after"] == "1")
        #expect(normal.status == 200)
        #expect(upstream.requestCount(for: tilePath) == 2)
    }

    @Test func faultsAreUsedFirstInFirstOutPerPath() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setDefaultHandler { _ in .png(sampleTile) }
        upstream.inject(.status(500), for: "/a.png")
        upstream.inject(.status(503), for: nil, times: 2)

        var statuses: [Int] = []
        for path in ["/b.png", "/a.png", "/a.png", "/a.png"] { statuses.append(try await curl([upstream.baseURL + path]).status) }

        #expect(statuses == [503, 500, 503, 200])
    }

    @Test func timeoutFaultNeverAnswers() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.timeout, for: tilePath)

        let result = try await curl(["--max-time", "0.5", upstream.baseURL + tilePath])
        // Stopping returns though a connection still waits for its answer.
        upstream.stop()

        #expect(result.exitCode == 28)  // CURLE_OPERATION_TIMEDOUT
        #expect(result.status == 0)
        #expect(upstream.requestCount(for: tilePath) == 1)
    }

    @Test func truncatedBodyFaultSendsHalfTheBodyThenCloses() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.truncatedBody, for: tilePath)

        let result = try await curl([upstream.baseURL + tilePath])

        #expect(result.exitCode == 18)  // CURLE_PARTIAL_FILE
        #expect(result.headers["content-length"] == "\(sampleTile.count)")
        #expect(result.body == sampleTile.prefix(sampleTile.count / 2))
    }

    @Test func htmlBodyFaultServesAnHTMLPage() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.htmlBody, for: tilePath)

        let result = try await curl([upstream.baseURL + tilePath])

        #expect(result.status == 200)
        #expect(result.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(String(decoding: result.body, as: UTF8.self).contains("<html>"))
    }

    @Test func corruptImageFaultServesPNGSignatureAndGarbage() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.corruptImage, for: tilePath)

        let result = try await curl([upstream.baseURL + tilePath])

        #expect(result.status == 200)
        #expect(result.headers["content-type"] == "image/png")
        #expect(result.body.starts(with: sampleTile.prefix(8)))
        #expect(result.body.count > 8)
        #expect(result.body != sampleTile)
    }

    @Test func slowDripFaultDeliversTheCompleteBody() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.slowDrip(bytesPerSecond: 4000), for: tilePath)

        let result = try await curl([upstream.baseURL + tilePath])

        #expect(result.exitCode == 0)
        #expect(result.status == 200)
        #expect(result.body == sampleTile)
    }

    @Test func matchingIfNoneMatchGets304() async throws {
        let upstream = try UpstreamSimulator()
        let headers = [("ETag", "\"v1\""), ("Cache-Control", "max-age=60"), ("Expires", "Thu, 01 Jan 2037 00:00:00 GMT")]
        upstream.setResponse(.png(sampleTile, headers: headers), for: tilePath)

        let matching = try await curl(["-H", "If-None-Match: \"v0\", \"v1\"", upstream.baseURL + tilePath])
        let stale = try await curl(["-H", "If-None-Match: \"v0\"", upstream.baseURL + tilePath])

        #expect(matching.status == 304)
        #expect(matching.headers["etag"] == "\"v1\"")
        #expect(matching.headers["cache-control"] == "max-age=60")
        #expect(matching.headers["expires"] == "Thu, 01 Jan 2037 00:00:00 GMT")
        #expect(matching.headers["content-type"] == nil)
        #expect(matching.body.isEmpty)
        #expect(stale.status == 200)
        #expect(stale.body == sampleTile)
    }

    @Test func ifModifiedSinceNotOlderThanLastModifiedGets304() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile, headers: [("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")]), for: tilePath)

        let same = try await curl(["-H", "If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT", upstream.baseURL + tilePath])
        let later = try await curl(["-H", "If-Modified-Since: Thu, 22 Oct 2015 00:00:00 GMT", upstream.baseURL + tilePath])
        let older = try await curl(["-H", "If-Modified-Since: Tue, 20 Oct 2015 07:28:00 GMT", upstream.baseURL + tilePath])

        #expect(same.status == 304)
        #expect(same.body.isEmpty)
        #expect(later.status == 304)
        #expect(older.status == 200)
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)

        let result = try await curl(["--output", "/dev/null", upstream.baseURL + tilePath, upstream.baseURL + tilePath])

        #expect(result.exitCode == 0)
        #expect(upstream.requestCount(for: tilePath) == 2)
        #expect(upstream.connectionCount == 1)
    }

    @Test func connectionCloseIsHonoured() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)

        let result = try await curl(["-H", "Connection: close", "--output", "/dev/null", upstream.baseURL + tilePath, upstream.baseURL + tilePath])

        #expect(result.exitCode == 0)
        #expect(upstream.requestCount(for: tilePath) == 2)
        #expect(upstream.connectionCount == 2)
    }

    @Test func closeWithoutAnswerFaultHangsUpAfterTheRequest() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.closeWithoutAnswer, for: tilePath)

        #expect(try await curl([upstream.baseURL + tilePath]).exitCode == 52)  // CURLE_GOT_NOTHING
        #expect(upstream.requestCount(for: tilePath) == 1)
        #expect(try await curl([upstream.baseURL + tilePath]).status == 200)
    }

    @Test func resetFaultResetsTheConnectionAfterTheRequest() async throws {
        let upstream = try UpstreamSimulator()
        upstream.setResponse(.png(sampleTile), for: tilePath)
        upstream.inject(.reset, for: tilePath)

        #expect(try await curl([upstream.baseURL + tilePath]).exitCode == 56)  // CURLE_RECV_ERROR: connection reset
        #expect(upstream.requestCount(for: tilePath) == 1)
        #expect(try await curl([upstream.baseURL + tilePath]).status == 200)
    }

    @Test func refusingPortRefusesConnectionsAndKeepsThePort() async throws {
        let refusing = try RefusingPort()
        #expect(try await curl([refusing.baseURL + tilePath]).exitCode == 7)  // CURLE_COULDNT_CONNECT
        #expect(!canBind(port: refusing.port), "no other server may take the port meanwhile")
    }

    @Test func stopReleasesThePort() async throws {
        let upstream = try UpstreamSimulator()
        #expect(try await curl([upstream.baseURL + tilePath]).status == 404)
        #expect(!canBind(port: upstream.port))

        upstream.stop()
        upstream.stop()  // idempotent

        #expect(canBind(port: upstream.port))
        #expect(try await curl([upstream.baseURL + tilePath]).exitCode == 7)  // CURLE_COULDNT_CONNECT
    }
}
