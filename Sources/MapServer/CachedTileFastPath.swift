import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTP1
import TileStore

/// Answers `GET` and `HEAD` for base tiles (`/tiles/{style}/{z}/{x}/{y}.png`) before
/// Hummingbird's router; every other request passes through untouched.
///
/// It sits next to NIO's HTTP/1 codec (see `TileServerChannel`) and writes each answer as bytes
/// prepared with the tile, straight to the socket past the response encoder: the router, the
/// conversion to Swift HTTP Types and the encoder cost several times nginx's whole request for
/// what is a memory lookup and a write (measured with wrk and perf).
///
/// A tile held in memory is answered at once, on the event loop. Any other is had from its store
/// (`TileService.baseTileAnswer`: one cache lookup, else the upstream) in a task of its own, and
/// answered on the event loop when it comes; meanwhile the connection's later requests wait here,
/// and nothing more is read from it.
///
/// Three rules keep the connection's answers intact:
/// - it answers only while every request it passed on has had its whole answer, and passes
///   nothing on while an answer of its own is being made, so answers never overtake each other;
/// - it tells `ConnectionGuard` when it begins and ends an answer, so that the guard's timers
///   treat the connection as busy meanwhile, as they do for the router's;
/// - answers to HEAD requests it passed on lose their body here. The encoder cannot do that
///   itself, because it is not told which requests were HEAD: telling it would also queue the
///   requests answered here, whose answers it never sees.
final class CachedTileFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let endpoint = "/tiles/{style}/{z}/{x}/{y}"

    private let tiles: TileService
    private let counters: RequestCounters
    private let requestLog: RequestLog?
    /// The rules every request head is held to, whoever answers it.
    private var rules: RequestHeadRules
    /// The response encoder's context: bytes written through it go to the socket as they are.
    private var socketSide: ChannelHandlerContext?
    /// The requests passed on whose answers have not ended, oldest first: whether each is a HEAD.
    private var passedOn = CircularBuffer<Bool>()
    /// Whether the rest of the current request's parts are dropped, because it is answered here.
    private var answeredHere = false
    /// Whether an answer of this handler's is being made: later parts wait in `held`.
    private var answering = false
    /// What came from the client while an answer was being made, in order.
    private var held = CircularBuffer<Held>()
    /// Whether a read was asked for while an answer was being made; it is made after.
    private var readWanted = false
    private var dateLine = DateHeaderLine()
    /// Where the tasks answering tiles from their stores run: this connection's event loop.
    private var executor: EventLoopTaskExecutor?
    /// This connection's request counters by method and status, so that counting costs no lock.
    private var requestCounters: [HTTPAnswerKind: Counter] = [:]

    private struct HTTPAnswerKind: Hashable {
        let isHead: Bool
        let status: HTTPResponse.Status
    }

    /// Sent on to the next handler (`ConnectionGuard`), which never sees the requests answered
    /// here, when an answer here is made at once, and when one had from a store begins and ends.
    enum Answer {
        case made, begun, ended
    }

    /// A later request's part, or the decoder's error over a later request.
    private enum Held {
        case part(NIOAny)
        case error(any Error)
    }

    init(tiles: TileService, counters: RequestCounters, requestLog: RequestLog?, maxBodyBytes: Int) {
        self.tiles = tiles
        self.counters = counters
        self.requestLog = requestLog
        rules = RequestHeadRules(maxBodyBytes: maxBodyBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        socketSide = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        executor = EventLoopTaskExecutor(context.eventLoop)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        socketSide = nil
        held.removeAll()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch rules.verdict(on: part) {
        case .taken where answering: held.append(.part(data))
        case .taken: take(part, data, context: context)
        case .refused(let problem): errorCaught(context: context, error: problem)
        case .dropped: break
        }
    }

    /// A malformed request behind an answer being made is refused after that answer. After a
    /// refusal, the decoder's errors over what follows are noise.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if rules.hasRefused, !(error is HTTPProblem) { return }
        if answering {
            held.append(.error(error))
        } else {
            context.fireErrorCaught(error)
        }
    }

    /// Nothing more is read from the client while an answer is being made.
    func read(context: ChannelHandlerContext) {
        if answering { readWanted = true } else { context.read() }
    }

    /// Answers `part`, of which `data` is the pipeline's copy, or passes it on.
    private func take(_ part: HTTPServerRequestPart, _ data: NIOAny, context: ChannelHandlerContext) {
        switch part {
        case .head(let request):
            let start = ContinuousClock.now
            // A client that does not read its answers gets the router, which waits for the socket.
            if passedOn.isEmpty, context.channel.isWritable, let socketSide, let tile = baseTile(request) {
                answeredHere = true
                switch tile {
                case .held(let image):
                    answer(request, with: image, through: socketSide, since: start)
                    context.fireUserInboundEventTriggered(Answer.made)
                case .stored(let address):
                    context.fireUserInboundEventTriggered(Answer.begun)
                    beginAnswer(request, for: address, context: context, since: start)
                }
                return
            }
            answeredHere = false
            passedOn.append(request.method == .HEAD)
            context.fireChannelRead(data)
        case .body:
            if !answeredHere { context.fireChannelRead(data) }
        case .end:
            if answeredHere { answeredHere = false } else { context.fireChannelRead(data) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let answersHead = passedOn.first ?? false
        switch unwrapOutboundIn(data) {
        case .head:
            context.write(data, promise: promise)
        case .body:
            if answersHead { promise?.succeed(()) } else { context.write(data, promise: promise) }
        case .end:
            _ = passedOn.popFirst()
            // The end of a chunked answer is a body part too (the last chunk), so HEAD's is dropped.
            if answersHead { promise?.succeed(()) } else { context.write(data, promise: promise) }
        }
    }

    /// A base tile answered here: held in memory, or to be had from its store.
    private enum BaseTile {
        case held(EncodedImage)
        case stored(TileAddress)
    }

    /// The base tile a request asks for, if it is one answered here. HTTP/1.0, closing the
    /// connection after the answer, and addresses that are not one of the style's own tiles or
    /// not valid are the router's job.
    private func baseTile(_ request: HTTPRequestHead) -> BaseTile? {
        guard request.method == .GET || request.method == .HEAD, let path = BaseTilePath(request.uri) else { return nil }
        guard request.version == .http1_1, request.isKeepAlive else { return nil }
        if let image = tiles.memoryHit(style: path.style, z: path.z, x: path.x, y: path.y) { return .held(image) }
        guard let address = TileAddress(path, catalog: tiles.configuration.catalog), address.isSourceTile else { return nil }
        return .stored(address)
    }

    /// Has the tile from its store in a task, and answers when it comes; the connection's later
    /// requests wait meanwhile.
    private func beginAnswer(_ request: HTTPRequestHead, for address: TileAddress, context: ChannelHandlerContext, since start: ContinuousClock.Instant) {
        answering = true
        let tiles = tiles
        let promise = context.eventLoop.makePromise(of: TileService.BaseTileAnswer.self)
        Task(executorPreference: executor) { promise.succeed(await tiles.baseTileAnswer(address)) }
        let handler = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.whenSuccess { answer in
            let (handler, context) = handler.value
            handler.endAnswer(request, with: answer, context: context, since: start)
        }
    }

    private func endAnswer(
        _ request: HTTPRequestHead, with answer: TileService.BaseTileAnswer, context: ChannelHandlerContext, since start: ContinuousClock.Instant
    ) {
        // A connection gone meanwhile has no one to answer.
        guard answering, let socketSide else { return }
        answering = false
        switch answer {
        case .image(let image):
            self.answer(request, with: image, through: socketSide, since: start)
        case .problem(let problem):
            self.answer(request, with: problem, context: context, since: start)
        }
        context.fireUserInboundEventTriggered(Answer.ended)
        let replaying = !held.isEmpty
        while !answering, let next = held.popFirst() {
            switch next {
            case .part(let data): take(unwrapInboundIn(data), data, context: context)
            case .error(let error): context.fireErrorCaught(error)
            }
        }
        // What was passed on reaches the router at the end of a read, as it would have.
        if replaying { context.fireChannelReadComplete() }
        if !answering, readWanted {
            readWanted = false
            context.read()
        }
    }

    private func answer(
        _ request: HTTPRequestHead, with image: EncodedImage, through socketSide: ChannelHandlerContext, since start: ContinuousClock.Instant
    ) {
        let notModified = image.isNotModified(ifNoneMatch: request.headers["If-None-Match"])
        let sendsBody = !notModified && request.method == .GET
        let heads = image.http1Heads
        socketSide.write(NIOAny(IOData.byteBuffer(notModified ? heads.notModified : heads.ok)), promise: nil)
        socketSide.write(NIOAny(IOData.byteBuffer(dateLine.now())), promise: nil)
        if sendsBody {
            socketSide.write(NIOAny(IOData.byteBuffer(image.body)), promise: nil)
        }
        socketSide.flush()
        record(request, status: notModified ? .notModified : .ok, bodyBytes: sendsBody ? image.body.readableBytes : 0, since: start)
    }

    /// An error answered here, as the router answers it: JSON, through the encoder.
    private func answer(_ request: HTTPRequestHead, with problem: HTTPProblem, context: ChannelHandlerContext, since start: ContinuousClock.Instant) {
        var (head, body) = problem.http1Answer
        head.headers.add(name: "Server", value: MapServerApp.serverName)
        let sendsBody = request.method == .GET
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if sendsBody { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        record(request, status: problem.status, bodyBytes: sendsBody ? body.readableBytes : 0, since: start)
    }

    private func record(_ request: HTTPRequestHead, status: HTTPResponse.Status, bodyBytes: Int, since start: ContinuousClock.Instant) {
        let kind = HTTPAnswerKind(isHead: request.method == .HEAD, status: status)
        if requestCounters[kind] == nil {
            requestCounters[kind] = counters.counter(endpoint: Self.endpoint, method: kind.isHead ? .head : .get, status: status)
        }
        requestCounters[kind]?.increment()
        requestLog?.record(method: kind.isHead ? .head : .get, target: request.uri, status: status.code, bodyBytes: bodyBytes, since: start)
    }
}

/// `/tiles/{style}/{z}/{x}/{y}.png` read in one pass over the bytes; anything else (a query,
/// `@2x`, a sign, extra segments) is nil, and the router deals with it.
struct BaseTilePath {
    let style: String
    let z: Int, x: Int, y: Int

    init?(_ path: String) {
        var bytes = path.utf8[...]
        guard bytes.starts(with: "/tiles/".utf8) else { return nil }
        bytes = bytes.dropFirst(7)
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash > bytes.startIndex else { return nil }
        guard let style = String(bytes[..<slash]) else { return nil }
        bytes = bytes[bytes.index(after: slash)...]
        var numbers: [Int] = []
        while numbers.count < 3 {
            var value = 0, digits = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 10 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                bytes = bytes.dropFirst()
            }
            guard digits > 0 else { return nil }
            numbers.append(value)
            let separator = numbers.count < 3 ? "/" : ".png"
            guard bytes.starts(with: separator.utf8) else { return nil }
            bytes = bytes.dropFirst(separator.utf8.count)
        }
        guard bytes.isEmpty else { return nil }
        self.style = style
        (z, x, y) = (numbers[0], numbers[1], numbers[2])
    }
}

/// The `Date` header line and the blank line that ends a response head, made at most once a
/// second.
struct DateHeaderLine {
    private var second = 0
    private var line = ByteBuffer()

    mutating func now() -> ByteBuffer {
        let current = Int(Date().timeIntervalSince1970)
        if current != second {
            second = current
            line = ByteBuffer(string: "Date: \(HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(current))))\r\n\r\n")
        }
        return line
    }
}
