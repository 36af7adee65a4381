import Foundation
import MapFrameTestSupport
import MapServer
import Testing
import UpstreamSimulator

/// Stale-while-revalidate against a slow upstream, timed: alone in a process of its own, after
/// the other tests (the Makefile's SOLO_TESTS), since it measures milliseconds.
@Suite struct StaleWhileRevalidateTimingTests {
    @Test("against an upstream delayed 5 s, an expired tile is answered in under 50 ms, 20 concurrent requests are answered without waiting and start one revalidation, and stopping ends it")
    func answeredAtOnceWhileTheUpstreamIsSlow() async throws {
        try await SlowUpstream.with(headers: [("Cache-Control", "max-age=0"), ("ETag", "\"v1\"")]) { upstream in
            let directory = try TemporaryDirectory("cache")
            defer { directory.remove() }
            var configuration = TestServer.configuration(cacheDirectory: directory.path)
            configuration.catalog = upstream.catalog
            configuration.fetchPolicy = Fixtures.impatientFetching
            let server = try await TestServer.start(configuration)
            do {
                let fetched = try await server.get(StaleWhileRevalidateTests.path)
                try #require(fetched.status == 200, "\(fetched)")
                upstream.delay(by: 5)

                let answers = try await withThrowingTaskGroup(of: (reply: HTTPReply, took: Duration).self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            let started = ContinuousClock.now
                            let reply = try await server.get(StaleWhileRevalidateTests.path)
                            return (reply, ContinuousClock.now - started)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                // A request that waited for the upstream would take 5 s. The 20 share two cores
                // with their own client threads, so each is held to 1 s, not to one request's 50 ms.
                for answer in answers {
                    #expect(answer.reply.status == 200 && answer.reply.body == fetched.body, "\(answer.reply)")
                    #expect(answer.reply.header("Cache-Control")?.contains("stale-while-revalidate=") == true, "\(answer.reply)")
                    #expect(answer.took < .seconds(1), "answered in \(answer.took)")
                }

                // One request at a time, while the revalidation still waits: the median of five is
                // under 50 ms, so that one stall of a shared machine does not decide it.
                var alone: [Duration] = []
                for _ in 0..<5 {
                    let started = ContinuousClock.now
                    let reply = try await server.get(StaleWhileRevalidateTests.path)
                    alone.append(ContinuousClock.now - started)
                    #expect(reply.status == 200 && reply.body == fetched.body, "\(reply)")
                }
                #expect(alone.sorted()[2] < .milliseconds(50), "answered alone in \(alone)")
                try await waitUntil("the revalidation reaches the upstream") { upstream.simulator.requestCount(for: upstreamPath(StaleWhileRevalidateTests.tile)) == 2 }
                try await Task.sleep(for: .milliseconds(300))
                #expect(upstream.simulator.requestCount(for: upstreamPath(StaleWhileRevalidateTests.tile)) == 2, "one revalidation for 25 requests")
            } catch {
                await server.stop()
                throw error
            }
            // The revalidation still waits for the upstream: stopping cancels it rather than wait.
            let stopping = ContinuousClock.now
            await server.stop()
            #expect(ContinuousClock.now - stopping < .seconds(4), "stopping took \(ContinuousClock.now - stopping)")
        }
    }
}
