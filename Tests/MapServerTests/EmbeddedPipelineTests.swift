import Foundation
import MapFrameTestSupport
@testable import MapServer
import MapGeometry
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
import TileStore

// A connection's handlers, as `TileServerChannel.setup` adds them, on an `EmbeddedChannel`: the
// response encoder, the request decoder with the server's limits, `CachedTileFastPath` and
// `ConnectionGuard`. What the guard passes on lands in the channel's inbound buffer, where the
// router would take it up; a test answers it by writing response parts from the tail, as the
// router does. Raw request bytes go in, raw response bytes come out; no socket, no thread.
// In front of the encoder, `SocketSide` stands for the socket: an `EmbeddedChannel` takes writes
// after it has closed, which a socket does not.

// MARK: - Harness

/// A `TileService` with one fixture tile held in memory, for the fast path to answer.
final class HeldTile: Sendable {
    /// The tile held: central Cambridge, in the fixture area.
    static let tile = TileID(z: 16, x: 32793, y: 21585)

    let tiles: TileService
    let image: EncodedImage

    var tile: TileID { Self.tile }
    var path: String { Fixtures.tilePath(tile) }

    private init(tiles: TileService, image: EncodedImage) {
        self.tiles = tiles
        self.image = image
    }

    /// Runs `body` with a service over a copy of the fixture cache whose tile at `tile` has been
    /// had once, and so is held in memory; then stops the service and removes the copy.
    /// `body` is synchronous: an `EmbeddedChannel` may be used only on the thread it was made on.
    static func with(_ body: (HeldTile) throws -> Void) async throws {
        let directory = try TemporaryDirectory("embedded")
        defer { directory.remove() }
        try Fixtures.installOSMCache(in: directory.path)
        let configuration = TestServer.configuration(cacheDirectory: directory.path)
        let tiles = TileService(configuration: configuration)
        do {
            let path = try #require(BaseTilePath(Fixtures.tilePath(tile)))
            let address = try #require(TileAddress(path, catalog: configuration.catalog))
            let image = try #require(try await tiles.baseTile(address), "the fixture cache has no \(tile)")
            try #require(tiles.memoryHit(style: "osm", z: tile.z, x: tile.x, y: tile.y) === image, "the tile is not held in memory")
            try body(HeldTile(tiles: tiles, image: image))
        } catch {
            await tiles.shutdown()
            throw error
        }
        await tiles.shutdown()
    }
}

/// The socket's end of the pipeline: writes go out until the connection is closed, and fail
/// after, as they would on a socket. The bytes of those failed writes are kept, to look at.
final class SocketSide: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var closed = false
    /// What was written after the connection closed, and never sent.
    private(set) var writtenAfterClose: [UInt8] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closed else {
            context.write(data, promise: promise)
            return
        }
        if case .byteBuffer(let buffer) = unwrapOutboundIn(data) { writtenAfterClose += buffer.readableBytesView }
        promise?.fail(ChannelError.ioOnClosedChannel)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all { closed = true }
        context.close(mode: mode, promise: promise)
    }
}

/// One connection's handlers on an `EmbeddedChannel`.
final class EmbeddedConnection {
    let channel = EmbeddedChannel()
    let socket = SocketSide()
    /// The most body bytes a request may declare, as the server's default.
    static let maxBodyBytes = TestServer.configuration(cacheDirectory: "/nonexistent").maxBodyBytes

    init(_ held: HeldTile, limits: ConnectionLimits = ConnectionLimits()) throws {
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = HTTPDecoderLimits.maxHeaderBytes
        decoderLimits.maxHeaderListSize = HTTPDecoderLimits.maxHeaderBytes
        decoderLimits.maxHeaderFieldCount = HTTPDecoderLimits.maxHeaderFields
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(socket)
        try pipeline.addHandler(HTTPResponseEncoder())
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
        try pipeline.addHandler(CachedTileFastPath(
            tiles: held.tiles, counters: RequestCounters(), requestLog: held.tiles.configuration.accessLog.map(RequestLog.init),
            maxBodyBytes: Self.maxBodyBytes
        ))
        try pipeline.addHandler(ConnectionGuard(limits: limits))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
    }

    deinit {
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }

    /// Sends `text` from the client, as it is.
    func send(_ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    /// Every byte written to the socket since last asked.
    func sentBytes() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = data else {
                Issue.record("a file region was written")
                continue
            }
            bytes += buffer.readableBytesView
        }
        return bytes
    }

    /// The answers written since last asked, split by their heads: `hasBody` says, for each
    /// answer in turn, whether one follows its head (not for HEAD requests or 304).
    func answers(hasBody: [Bool]) throws -> [HTTPReply] {
        try splitAnswers(sentBytes(), hasBody: hasBody)
    }

    /// What reached the end of the pipeline, where the router takes requests up, in order:
    /// "GET /path" for a head, "body:N" for N body bytes, "end".
    func passedOn() throws -> [String] {
        var parts: [String] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            switch part {
            case .head(let head): parts.append("\(head.method.rawValue) \(head.uri)")
            case .body(let body): parts.append("body:\(body.readableBytes)")
            case .end: parts.append("end")
            }
        }
        return parts
    }

    /// Answers the oldest request passed on, as the router would: a head with the body's length,
    /// the body, the end.
    func answerAsTheRouter(status: HTTPResponseStatus = .ok, contentType: String = "application/json", body: String) throws {
        let head = HTTPResponseHead(
            version: .http1_1, status: status, headers: ["Content-Type": contentType, "Content-Length": String(body.utf8.count)]
        )
        try channel.writeOutbound(HTTPServerResponsePart.head(head))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    }

    /// Brings the event loop's clock up to the monotonic clock, running every guard check that
    /// is due by then. `ConnectionGuard` reckons its deadlines from `NIODeadline.now()`, not from
    /// its event loop's clock, so advancing the embedded clock by a timeout from its own zero
    /// reaches none of them: the tests give the guard zero timeouts (due as soon as they start)
    /// or hour-long ones (never due here) and move the clock to now.
    func runDueChecks() {
        channel.embeddedEventLoop.advanceTime(to: .now())
    }

    var isOpen: Bool { channel.isActive }
}

/// Splits response bytes into answers by their heads and `Content-Length`s; the bytes must end
/// with the last answer.
func splitAnswers(_ bytes: [UInt8], hasBody: [Bool]) throws -> [HTTPReply] {
    var rest = bytes[...]
    var answers: [HTTPReply] = []
    let separator = Array("\r\n\r\n".utf8)
    while let headEnd = rest.firstRange(of: separator) {
        let lines = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let words = lines[0].split(separator: " ")
        guard words.count >= 2, words[0] == "HTTP/1.1", let status = Int(words[1]) else {
            throw TestSetupError(description: "bad status line: \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let head = HTTPReply(status: status, headers: headers, body: Data())
        let expectsBody = answers.count < hasBody.count ? hasBody[answers.count] : true
        let length = expectsBody ? Int(head.header("Content-Length") ?? "0") ?? 0 : 0
        let bodyEnd = headEnd.upperBound + length
        guard bodyEnd <= rest.endIndex else { throw TestSetupError(description: "an answer is cut short: \(lines[0])") }
        answers.append(HTTPReply(status: status, headers: headers, body: Data(rest[headEnd.upperBound..<bodyEnd])))
        rest = rest[bodyEnd...]
    }
    if !rest.isEmpty {
        throw TestSetupError(description: "\(rest.count) bytes after the last answer: \(String(decoding: rest.prefix(80), as: UTF8.self))")
    }
    return answers
}

/// A request's bytes: `method path version`, then `headers` (by default a Host alone).
func rawRequest(_ path: String, method: String = "GET", version: String = "HTTP/1.1", headers: [String] = ["Host: tiles.example"]) -> String {
    "\(method) \(path) \(version)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
}

// MARK: - The fast path

/// `CachedTileFastPath` on a connection: base tiles held in memory are answered by the fast path
/// itself, with the held bytes, before the router; everything else is passed on whole and in
/// order, and answers never overtake one another.
@Suite struct EmbeddedFastPathTests {
    @Test("a held tile is answered by the fast path: 200, its Content-Type and length, and the held bytes; nothing reaches the router")
    func heldTileIsAnsweredFromMemory() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(rawRequest(held.path))
            #expect(try connection.passedOn() == [])
            let answers = try connection.answers(hasBody: [true])
            try #require(answers.count == 1)
            let answer = answers[0]
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/png")
            #expect(answer.header("Content-Length") == String(held.image.body.readableBytes))
            #expect(answer.header("ETag") == held.image.etag)
            #expect(answer.header("Date") != nil)
            #expect(answer.body == Data(held.image.body.readableBytesView))
            // The held bytes are the fixture tile as the cache stores it.
            #expect(answer.body == (try Fixtures.tilePNG(held.tile)))
            #expect(connection.isOpen, "a kept-alive connection was closed")
        }
    }

    @Test("HEAD for a held tile gets the same head from the fast path, and no body")
    func headForAHeldTile() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(rawRequest(held.path))
            let get = try #require(try connection.answers(hasBody: [true]).first)
            try connection.send(rawRequest(held.path, method: "HEAD"))
            #expect(try connection.passedOn() == [])
            // Parsed as an answer with no body: any byte after its head would be left over, and throw.
            let answers = try connection.answers(hasBody: [false])
            try #require(answers.count == 1)
            let head = answers[0]
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            func withoutDate(_ reply: HTTPReply) -> [String] {
                reply.headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name): \($0.value)" }
            }
            #expect(withoutDate(head) == withoutDate(get))
            #expect(head.header("Content-Length") == String(held.image.body.readableBytes))
        }
    }

    @Test("If-None-Match naming the held tile gets 304 from the fast path, without a body or a length")
    func notModifiedFromMemory() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(rawRequest(held.path, headers: ["Host: tiles.example", "If-None-Match: \(held.image.etag)"]))
            #expect(try connection.passedOn() == [])
            let answers = try connection.answers(hasBody: [false])
            try #require(answers.count == 1)
            #expect(answers[0].status == 304)
            #expect(answers[0].header("Content-Length") == nil)
            #expect(answers[0].header("ETag") == held.image.etag)
        }
    }

    /// Requests the fast path leaves to the router, though some name the held tile.
    struct RouterRequest: Sendable, CustomStringConvertible {
        let label: String, text: String, passedOn: [String]
        init(_ label: String, _ text: String, _ passedOn: [String]) {
            (self.label, self.text, self.passedOn) = (label, text, passedOn)
        }
        var description: String { label }
    }

    static let held = Fixtures.tilePath(HeldTile.tile)
    static let held2x = Fixtures.tilePath(HeldTile.tile, retina: true)
    static let unserved = Fixtures.tilePath(HeldTile.tile, style: "nowhere")

    static let routerRequests: [RouterRequest] = [
        RouterRequest("not a tile", rawRequest("/healthz"), ["GET /healthz", "end"]),
        RouterRequest("the held tile's address in a style not served", rawRequest(unserved), ["GET \(unserved)", "end"]),
        RouterRequest("the held tile at @2x", rawRequest(held2x), ["GET \(held2x)", "end"]),
        RouterRequest("the held tile with a query", rawRequest(held + "?v=2"), ["GET \(held)?v=2", "end"]),
        RouterRequest(
            "the held tile, closing the connection", rawRequest(held, headers: ["Host: tiles.example", "Connection: close"]), ["GET \(held)", "end"]
        ),
        RouterRequest("the held tile over HTTP/1.0", rawRequest(held, version: "HTTP/1.0"), ["GET \(held)", "end"]),
        RouterRequest(
            "POST to the held tile", rawRequest(held, method: "POST", headers: ["Host: tiles.example", "Content-Length: 0"]), ["POST \(held)", "end"]
        ),
    ]

    @Test("a request the fast path does not take reaches the router whole, and nothing is answered meanwhile", arguments: routerRequests)
    func passedOnToTheRouter(_ example: RouterRequest) async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(example.text)
            #expect(try connection.passedOn() == example.passedOn, "\(example.label)")
            #expect(try connection.sentBytes().isEmpty, "\(example.label) was answered before the router")
        }
    }

    @Test("pipelined requests behind one passed on are passed on too, and their answers keep the requests' order")
    func pipelinedAnswersKeepTheirOrder() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(rawRequest("/healthz") + rawRequest(held.path) + rawRequest("/tiles/nowhere/1/1/1.png"))
            // The held tile is not answered ahead of /healthz: it goes to the router, behind it.
            #expect(try connection.passedOn() == ["GET /healthz", "end", "GET \(held.path)", "end", "GET /tiles/nowhere/1/1/1.png", "end"])
            #expect(try connection.sentBytes().isEmpty)

            try connection.answerAsTheRouter(body: #"{"status":"ok"}"#)
            try connection.answerAsTheRouter(contentType: "image/png", body: "the router's tile")
            try connection.answerAsTheRouter(status: .notFound, body: #"{"error":"no style"}"#)
            // Once every answer passed on has ended, the fast path answers the held tile again.
            try connection.send(rawRequest(held.path))
            #expect(try connection.passedOn() == [])

            let answers = try connection.answers(hasBody: [true, true, true, true])
            #expect(answers.map(\.status) == [200, 200, 404, 200])
            guard answers.count == 4 else { return }
            #expect(answers[0].text == #"{"status":"ok"}"#)
            #expect(answers[1].text == "the router's tile")
            #expect(answers[2].text == #"{"error":"no style"}"#)
            #expect(answers[3].body == Data(held.image.body.readableBytesView))
        }
    }

    @Test("the router's answer to a HEAD passed on loses its body, so the next answer on the connection starts where it should")
    func headPassedOnLosesItsBody() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(rawRequest("/healthz", method: "HEAD"))
            #expect(try connection.passedOn() == ["HEAD /healthz", "end"])
            try connection.answerAsTheRouter(body: #"{"status":"ok"}"#)
            try connection.send(rawRequest(held.path))
            let answers = try connection.answers(hasBody: [false, true])
            #expect(answers.map(\.status) == [200, 200])
            guard answers.count == 2 else { return }
            #expect(answers[0].header("Content-Length") == "15")
            #expect(answers[0].body.isEmpty)
            #expect(answers[1].body == Data(held.image.body.readableBytesView))
        }
    }

    @Test("a client that is not reading its answers gets the router for a held tile, which waits for the socket")
    func unwritableConnectionGoesToTheRouter() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            connection.channel.isWritable = false
            connection.channel.pipeline.syncOperations.fireChannelWritabilityChanged()
            try connection.send(rawRequest(held.path))
            #expect(try connection.passedOn() == ["GET \(held.path)", "end"])
            #expect(try connection.sentBytes().isEmpty)
        }
    }
}

// MARK: - Request-head rules

/// `RequestHeadRules` and the decoder's limits, on a connection: a head the server will not take
/// is answered with the 4xx the rules name (never a 5xx, and never from memory), as JSON, saying
/// the connection closes; then the connection closes and nothing more the client sent is taken.
@Suite struct EmbeddedRequestHeadRulesTests {
    struct RefusedHead: Sendable, CustomStringConvertible {
        let label: String, text: String, status: Int, mentions: String
        init(_ label: String, _ text: String, _ status: Int, _ mentions: String) {
            (self.label, self.text, self.status, self.mentions) = (label, text, status, mentions)
        }
        var description: String { label }
    }

    static let refusedHeads: [RefusedHead] = [
        RefusedHead("no Host, for the held tile", rawRequest(Fixtures.tilePath(HeldTile.tile), headers: []), 400, "Host"),
        RefusedHead("two Hosts", rawRequest("/healthz", headers: ["Host: a.example", "Host: b.example"]), 400, "Host"),
        RefusedHead("an Expect other than 100-continue", rawRequest("/healthz", headers: ["Host: a.example", "Expect: 200-ok"]), 417, "Expect"),
        RefusedHead(
            "a Content-Length over the limit",
            rawRequest("/routes", method: "POST", headers: ["Host: a.example", "Content-Length: \(EmbeddedConnection.maxBodyBytes + 1)"]), 413, "Content-Length"
        ),
        RefusedHead("a Content-Length that is not a number", rawRequest("/routes", method: "POST", headers: ["Host: a.example", "Content-Length: lots"]), 400, "Content-Length"),
        RefusedHead("a method that is not one", "G@T /healthz HTTP/1.1\r\nHost: a.example\r\n\r\n", 400, "malformed"),
        RefusedHead(
            "header fields over the limit",
            rawRequest("/healthz", headers: ["Host: a.example", "X-Padding: " + String(repeating: "x", count: HTTPDecoderLimits.maxHeaderBytes + 1)]), 431,
            "too large"
        ),
    ]

    @Test("a refused head gets its 4xx as JSON with Connection: close, then the connection closes", arguments: refusedHeads)
    func refusedHead(_ example: RefusedHead) async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            // A good request behind the bad one is dropped, not answered.
            try connection.send(example.text + rawRequest(held.path))
            #expect(try connection.passedOn() == [], "\(example.label)")
            let answers = try connection.answers(hasBody: [true])
            try #require(answers.count == 1, "\(example.label): \(answers)")
            let answer = answers[0]
            #expect(answer.status == example.status, "\(example.label): \(answer)")
            #expect((400..<500).contains(answer.status))
            #expect(answer.header("Content-Type") == "application/json", "\(example.label)")
            #expect(answer.header("Connection") == "close", "\(example.label)")
            #expect(answer.headers.filter { $0.name.lowercased() == "content-length" }.count == 1, "\(answer.headers)")
            let message = try #require(answer.errorMessage, "\(example.label): not a JSON error: \(answer)")
            #expect(message.contains(example.mentions), "\(example.label): \(message)")
            #expect(!connection.isOpen, "\(example.label): the connection stayed open")
        }
    }

    @Test("a refused request behind one passed on is answered after that one's answer, then the connection closes")
    func refusalWaitsItsTurn() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held)
            try connection.send(rawRequest("/healthz") + rawRequest("/healthz", headers: []))
            #expect(try connection.passedOn() == ["GET /healthz", "end"])
            #expect(try connection.sentBytes().isEmpty, "the refusal overtook the answer before it")
            #expect(connection.isOpen)

            try connection.answerAsTheRouter(body: #"{"status":"ok"}"#)
            let answers = try connection.answers(hasBody: [true, true])
            #expect(answers.map(\.status) == [200, 400])
            guard answers.count == 2 else { return }
            #expect(answers[0].header("Connection") == nil)
            #expect(answers[1].header("Connection") == "close")
            #expect(!connection.isOpen)
        }
    }
}

// MARK: - The connection guard's timers

/// `ConnectionGuard`'s timers, on a connection. The guard reckons its deadlines from the
/// monotonic clock (`NIODeadline.now()`), not its event loop's, so these connections are given
/// zero timeouts, due the moment they start, or hour-long ones, never due in a test; bringing the
/// embedded event loop's clock up to now (`advanceTime(to: .now())`) runs the guard's check,
/// which then decides as it would once a real timeout had passed.
@Suite struct EmbeddedConnectionGuardTimerTests {
    static let hour = Duration.seconds(3600)

    @Test("a connection that has not sent a whole head by the header timeout is closed, with no answer")
    func incompleteHeadIsClosed() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held, limits: ConnectionLimits(headerTimeout: .zero, bodyTimeout: Self.hour, writeTimeout: Self.hour))
            try connection.send("GET /healthz HTTP/1.1\r\nHost: a.example\r\n")
            #expect(connection.isOpen)
            connection.runDueChecks()
            #expect(!connection.isOpen, "a connection with half a head outstayed the header timeout")
            let sent = try connection.sentBytes()
            #expect(sent.isEmpty, "\(String(decoding: sent, as: UTF8.self))")
            #expect(try connection.passedOn() == [])
        }
    }

    @Test("no timer closes a connection whose answer is being worked on; once answered and idle, the header timeout closes it")
    func idleAfterTheRoutersAnswer() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held, limits: ConnectionLimits(headerTimeout: .zero, bodyTimeout: Self.hour, writeTimeout: Self.hour))
            try connection.send(rawRequest("/healthz"))
            #expect(try connection.passedOn() == ["GET /healthz", "end"])
            connection.runDueChecks()
            #expect(connection.isOpen, "closed while the router was working on its answer")

            try connection.answerAsTheRouter(body: #"{"status":"ok"}"#)
            let answers = try connection.answers(hasBody: [true])
            #expect(answers.map(\.status) == [200])
            #expect(answers.first?.header("Connection") == nil, "a kept-alive answer said the connection closes")
            #expect(connection.isOpen)
            connection.runDueChecks()
            #expect(!connection.isOpen, "an idle kept-alive connection outstayed the header timeout")
            #expect(try connection.sentBytes().isEmpty)
        }
    }

    @Test("an idle kept-alive connection after an answer from memory is closed at the header timeout too")
    func idleAfterAnAnswerFromMemory() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held, limits: ConnectionLimits(headerTimeout: .zero, bodyTimeout: Self.hour, writeTimeout: Self.hour))
            try connection.send(rawRequest(held.path))
            #expect(try connection.answers(hasBody: [true]).map(\.status) == [200])
            #expect(connection.isOpen)
            connection.runDueChecks()
            #expect(!connection.isOpen)
        }
    }

    @Test("a body not in by the body timeout gets the router a 408 to answer; its answer says the connection closes, and it does")
    func slowBodyGets408() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held, limits: ConnectionLimits(headerTimeout: .zero, bodyTimeout: .zero, writeTimeout: Self.hour))
            try connection.send(rawRequest("/routes", method: "POST", headers: ["Host: a.example", "Content-Type: application/gpx+xml", "Content-Length: 10"]) + "<gpx")
            #expect(try connection.passedOn() == ["POST /routes", "body:4"])
            connection.runDueChecks()
            // The guard hands the router the problem; the router answers it.
            var handed: HTTPProblem?
            do {
                try connection.channel.throwIfErrorCaught()
            } catch let problem as HTTPProblem {
                handed = problem
            }
            let problem = try #require(handed, "no body timeout reached the router")
            #expect(problem.http1Answer.head.status == .requestTimeout)
            #expect(connection.isOpen, "closed before the router answered")
            #expect(try connection.sentBytes().isEmpty)

            try connection.answerAsTheRouter(status: .requestTimeout, body: #"{"error":"too slow"}"#)
            let answers = try connection.answers(hasBody: [true])
            #expect(answers.map(\.status) == [408])
            #expect(answers.first?.header("Connection") == "close")
            #expect(!connection.isOpen)
        }
    }

    @Test("a body coming within the body timeout is read whole, with no timeout")
    func bodyWithinTheTimeout() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held, limits: ConnectionLimits(headerTimeout: .zero, bodyTimeout: Self.hour, writeTimeout: Self.hour))
            try connection.send(rawRequest("/routes", method: "POST", headers: ["Host: a.example", "Content-Length: 10"]) + "<gpx")
            connection.runDueChecks()
            try connection.channel.throwIfErrorCaught()
            #expect(connection.isOpen)
            try connection.send("</gpx>")
            #expect(try connection.passedOn() == ["POST /routes", "body:4", "body:6", "end"])
            #expect(connection.isOpen)
        }
    }

    @Test("a client that reads none of its answer for the write timeout is closed")
    func unreadAnswerIsClosed() async throws {
        try await HeldTile.with { held in
            let connection = try EmbeddedConnection(held, limits: ConnectionLimits(headerTimeout: .zero, bodyTimeout: Self.hour, writeTimeout: .zero))
            try connection.send(rawRequest("/healthz"))
            #expect(try connection.passedOn() == ["GET /healthz", "end"])
            connection.runDueChecks()
            #expect(connection.isOpen)
            connection.channel.isWritable = false
            connection.channel.pipeline.syncOperations.fireChannelWritabilityChanged()
            connection.runDueChecks()
            #expect(!connection.isOpen, "a client reading nothing outstayed the write timeout")
        }
    }
}
