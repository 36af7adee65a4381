import BlockingWork
import Foundation
import MapServer
import MapFrameTestSupport
import Synchronization
import Testing

/// One client's costly frames cannot hold up everyone else's: the render and body pools take
/// clients in turn, and a client may fill only a share of their queues.
@Suite("Clients take turns", .serialized)
struct FairTurnsTests {
    /// A scene whose route is the most points a route may have, zig-zagging across the frame:
    /// one of the dearest frames a client can ask for.
    static let zigZagScene: Data = {
        let points = (0..<100_000).map { index in
            let latitude = 52.205 + (index.isMultiple(of: 2) ? -0.02 : 0.02)
            let longitude = 0.1 + 0.07 * Double(index / 2) / 50_000 + (index.isMultiple(of: 2) ? 0 : 0.001)
            return "[\(longitude), \(latitude)]"
        }
        return Data("""
            {"size": {"width": 320, "height": 480}, "scale": 1, "style": "osm",
             "camera": {"center": {"lat": 52.205, "lon": 0.135}, "zoom": 13},
             "route": {"coordinates": [\(points.joined(separator: ","))]}}
            """.utf8)
    }()

    /// A scene whose route is the most points a route may have, scattered over the frame at
    /// random and drawn at scale 2 in high contrast: long segments drawn over each other, which
    /// take Cairo seconds to fill, whatever the points are thinned to.
    static let scribbleScene: Data = {
        var state: UInt64 = 2_010
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let points = (0..<100_000).map { _ in "[\(0.1 + 0.07 * next()), \(52.185 + 0.04 * next())]" }
        return Data("""
            {"size": {"width": 320, "height": 480}, "scale": 2, "style": "osm", "theme": "high-contrast",
             "camera": {"center": {"lat": 52.205, "lon": 0.135}, "zoom": 13},
             "route": {"coordinates": [\(points.joined(separator: ","))]}}
            """.utf8)
    }()

    @Test("a pool busy with one client's 16 jobs runs another client's next, not last")
    func aPoolTakesClientsInTurn() async throws {
        let pool = BlockingPool(threads: 2, queueLimit: 64)
        let flood = Task {
            try await BlockingPool.$client.withValue("flood") {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<16 { group.addTask { try await pool.run { _ = usleep(100_000) } } }
                    try await group.waitForAll()
                }
            }
        }
        try await Task.sleep(for: .milliseconds(150))
        let asked = ContinuousClock.now
        let started = try await BlockingPool.$client.withValue("other") { try await pool.run { ContinuousClock.now } }
        // Taken in turn, it starts when one of the flood's jobs ends: within 100 ms, not after
        // the flood's other 12 or so (0.6 s on two threads).
        #expect(started - asked < .milliseconds(400), "it waited \(started - asked)")
        try await flood.value
        await pool.shutdown()
    }

    @Test("a job that joins the queue just as the running ones end still runs: the pool never stalls with its threads free")
    func aJobJoiningAsOthersEndStillRuns() async throws {
        let pool = BlockingPool(threads: 1, queueLimit: 64)
        let roundsDone = Counter()
        // Rounds of four empty jobs at once: time and again one finds the thread taken and, before
        // it joins the queue, the job on the thread ends. Left waiting, it would wait for ever,
        // and so would every job after it.
        let rounds = Task {
            for _ in 0..<20_000 {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 { group.addTask { _ = try? await pool.run {} } }
                }
                roundsDone.add()
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while roundsDone.value < 20_000, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(roundsDone.value == 20_000, "the pool stalled after \(roundsDone.value) rounds")
        await rounds.value
        #expect(try await pool.run { true })
        await pool.shutdown()
    }

    @Test("a client alone may fill half a pool's queue, no more; two others still find their quarter, and no more once it is half full")
    func aClientFillsOnlyItsShare() async throws {
        let pool = BlockingPool(threads: 1, queueLimit: 8)
        let gate = DispatchSemaphore(value: 0)
        let refused = RefusalCounts()
        /// `count` jobs from `client` at once, each held at the gate; whether each ran.
        func jobs(_ count: Int, from client: String) -> Task<[Bool], Never> {
            Task {
                await BlockingPool.$client.withValue(client) {
                    await withTaskGroup(of: Bool.self) { group in
                        for _ in 0..<count {
                            group.addTask {
                                let ran = (try? await pool.run { gate.wait() }) != nil
                                if !ran { refused.add(client) }
                                return ran
                            }
                        }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                }
            }
        }
        /// Waits until `client` has had `count` jobs refused, or 10 s.
        func awaitRefusals(_ count: Int, of client: String) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while refused[client] < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        }
        // One running and four waiting (half of 8, more than its quarter of 2, as the queue was
        // under half full): the other three are refused at once. The gate stays shut until they
        // are, so a job that starts late on a loaded machine still finds the queue as it was.
        let flood = jobs(8, from: "flood")
        try await awaitRefusals(3, of: "flood")
        // The queue is half full: each newcomer may have its quarter, two, and the third job of
        // either is refused though the queue has room for it.
        let other = jobs(3, from: "other")
        try await awaitRefusals(1, of: "other")
        let third = jobs(3, from: "third")
        try await awaitRefusals(1, of: "third")
        try await Task.sleep(for: .milliseconds(100))
        #expect(refused["flood"] == 3 && refused["other"] == 1 && refused["third"] == 1, "\(refused.all)")
        for _ in 0..<9 { gate.signal() }
        #expect(await flood.value.filter { $0 }.count == 5)
        #expect(await other.value.filter { $0 }.count == 2)
        #expect(await third.value.filter { $0 }.count == 2)
        await pool.shutdown()
    }

    @Test("a frame whose client hangs up stops drawing: the only render thread is free for the next frame")
    func aFrameNobodyWaitsForStops() async throws {
        try await TestServer.with(fixtures: true, { $0.renderThreads = 1 }) { server in
            let port = server.port
            let body = Self.scribbleScene
            try await onThread {
                let connection = try RawConnection(port: port, from: "127.0.0.2")
                connection.send("POST /frame HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
                connection.send(Array(body))
                // Long enough for the body to be read and the drawing to start; then it hangs up.
                Thread.sleep(forTimeInterval: 5)
            }
            let started = ContinuousClock.now
            let ordinary = try await server.get("/frame.png?style=osm&lat=52.2065&lon=0.135&zoom=15&width=64&height=64&scale=1")
            let elapsed = ContinuousClock.now - started
            #expect(ordinary.status == 200, "\(ordinary)")
            // Drawn to the end, or to the 5 s a frame may draw, the zig-zag would hold the thread for seconds.
            #expect(elapsed < .seconds(1.5), "the ordinary frame took \(elapsed)")
        }
    }

    @Test("20 zig-zag frames posted from one client: another client's frame waits for one of them at most")
    func anOrdinaryFrameIsAnsweredWhileOneClientFloods() async throws {
        try await TestServer.with(fixtures: true) { server in
            let port = server.port
            let body = Self.zigZagScene
            // One zig-zag frame alone, timed on this machine as it is now: the longest a fair
            // turn may keep another client waiting is about one such frame.
            let aloneStarted = ContinuousClock.now
            #expect(try await server.post("/frame", contentType: "application/json", body: body).status == 200)
            let alone = ContinuousClock.now - aloneStarted
            // The flood, from 127.0.0.2: each post on its own connection, all sent at once.
            let flood = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            try await onThread {
                                let connection = try RawConnection(port: port, from: "127.0.0.2")
                                connection.send("POST /frame HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
                                connection.send(Array(body))
                                return try connection.readAnswer(within: 120).status
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            // Once the flood's bodies are read and its frames drawing, an ordinary frame.
            try await Task.sleep(for: .seconds(2))
            let started = ContinuousClock.now
            let ordinary = try await server.get("/frame.png?style=osm&lat=52.2065&lon=0.135&zoom=15&width=320&height=480&scale=1")
            let elapsed = ContinuousClock.now - started
            #expect(ordinary.status == 200, "\(ordinary)")
            // Queued behind the flood, it would wait for ten frames a thread. Its turn comes once a
            // running frame ends: within 1 s, or one zig-zag frame and a half on a slow machine.
            #expect(elapsed < max(.seconds(1), alone * 1.5), "the ordinary frame took \(elapsed); one zig-zag frame alone took \(alone)")
            let statuses = try await flood.value
            // The flood is drawn, or refused for now with 503: never a 5xx of any other kind.
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            #expect(statuses.contains(200), "\(statuses)")
        }
    }
}

/// How many jobs of each client were refused, added to by tasks at once.
private final class RefusalCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    subscript(client: String) -> Int { counts.withLock { $0[client, default: 0] } }
    var all: [String: Int] { counts.withLock { $0 } }

    func add(_ client: String) { counts.withLock { $0[client, default: 0] += 1 } }
}

/// A count that tasks add to at once.
private final class Counter: Sendable {
    private let count = Atomic(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add() { count.add(1, ordering: .relaxed) }
}
