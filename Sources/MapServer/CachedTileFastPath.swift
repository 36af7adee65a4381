import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTP1
import TileStore

/// Answers `GET` and `HEAD` for base tiles already held in memory right on the event loop,
/// before Hummingbird's router; every other request passes through untouched.
///
/// It sits next to NIO's HTTP/1 codec (see `TileServerChannel`) and writes each answer as bytes
/// prepared with the tile, straight to the socket past the response encoder: the router, the
/// conversion to Swift HTTP Types and the encoder cost several times nginx's whole request for
/// what is a memory lookup and a write (measured with wrk and perf).
///
/// Two rules keep the connection's answers intact:
/// - it answers only while every request it passed on has had its whole answer, so answers never
///   overtake each other;
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
    private let requestLog: RequestLog
    /// The response encoder's context: bytes written through it go to the socket as they are.
    private var socketSide: ChannelHandlerContext?
    /// The requests passed on whose answers have not ended, oldest first: whether each is a HEAD.
    private var passedOn = CircularBuffer<Bool>()
    /// Whether the rest of the current request's parts are dropped, because it was answered here.
    private var answeredHere = false
    private var dateLine = DateHeaderLine()
    /// This connection's request counters by method and status, so that counting costs no lock.
    private var requestCounters: [HTTPAnswerKind: Counter] = [:]

    private struct HTTPAnswerKind: Hashable {
        let isHead: Bool
        let notModified: Bool
    }

    /// Sent on to the next handler (`ConnectionGuard`) for every request answered here, which
    /// it never sees otherwise.
    struct AnsweredHere {}

    init(tiles: TileService, counters: RequestCounters, requestLog: RequestLog) {
        self.tiles = tiles
        self.counters = counters
        self.requestLog = requestLog
    }

    func handlerAdded(context: ChannelHandlerContext) {
        socketSide = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        socketSide = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let start = ContinuousClock.now
            // A client that does not read its answers gets the router, which waits for the socket.
            if passedOn.isEmpty, context.channel.isWritable, let socketSide, let image = cachedTile(for: request) {
                answeredHere = true
                answer(request, with: image, through: socketSide, since: start)
                context.fireUserInboundEventTriggered(AnsweredHere())
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

    /// The tile in memory for `GET /tiles/{style}/{z}/{x}/{y}.png`, if it is one and is held.
    private func cachedTile(for request: HTTPRequestHead) -> EncodedImage? {
        guard request.method == .GET || request.method == .HEAD, let address = BaseTilePath(request.uri) else { return nil }
        // HTTP/1.0, and closing the connection after the answer, are the router's job.
        guard request.version == .http1_1, request.isKeepAlive else { return nil }
        return tiles.memoryHit(style: address.style, z: address.z, x: address.x, y: address.y)
    }

    private func answer(
        _ request: HTTPRequestHead, with image: EncodedImage, through socketSide: ChannelHandlerContext, since start: ContinuousClock.Instant
    ) {
        let notModified = image.isNotModified(ifNoneMatch: request.headers["If-None-Match"])
        let sendsBody = !notModified && request.method == .GET
        socketSide.write(NIOAny(IOData.byteBuffer(notModified ? image.http1NotModifiedHead : image.http1Head)), promise: nil)
        socketSide.write(NIOAny(IOData.byteBuffer(dateLine.now())), promise: nil)
        if sendsBody {
            socketSide.write(NIOAny(IOData.byteBuffer(image.body)), promise: nil)
        }
        socketSide.flush()
        count(HTTPAnswerKind(isHead: request.method == .HEAD, notModified: notModified))
        requestLog.record(
            method: request.method == .HEAD ? .head : .get, target: request.uri, status: notModified ? 304 : 200,
            bodyBytes: sendsBody ? image.body.readableBytes : 0, since: start
        )
    }

    private func count(_ kind: HTTPAnswerKind) {
        if requestCounters[kind] == nil {
            requestCounters[kind] = counters.counter(
                endpoint: Self.endpoint, method: kind.isHead ? .head : .get, status: kind.notModified ? .notModified : .ok
            )
        }
        requestCounters[kind]?.increment()
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
