import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes
import TileStore

/// Answers `GET` and `HEAD` for base tiles already held in memory right on the event loop,
/// before Hummingbird's router; every other request passes through untouched.
///
/// The router costs about three times nginx's whole request for a tile that is only a memory
/// lookup (measured with wrk); this handler keeps that case to a lookup and a write. It answers
/// only while no request it passed on is still waiting for its response, so answers on one
/// connection never overtake each other.
final class CachedTileFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let endpoint = "/tiles/{style}/{z}/{x}/{y}"

    private let tiles: TileService
    private let counters: RequestCounters
    /// Requests passed on to the router whose responses have not ended yet.
    private var passedOn = 0
    /// Whether the rest of the current request's parts are dropped, because it was answered here.
    private var answeredHere = false
    private var date = HTTPDateCache()
    /// This connection's request counters by method and status, so that counting costs no lock.
    private var requestCounters: [HTTPAnswerKind: Counter] = [:]

    private struct HTTPAnswerKind: Hashable {
        let method: HTTPRequest.Method
        let status: Int
    }

    init(tiles: TileService, counters: RequestCounters) {
        self.tiles = tiles
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if passedOn == 0, let image = cachedTile(for: request) {
                answeredHere = true
                answer(request, with: image, context: context)
                return
            }
            answeredHere = false
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            if !answeredHere { context.fireChannelRead(data) }
        case .end:
            if answeredHere { answeredHere = false } else { context.fireChannelRead(data) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    /// The tile in memory for `GET /tiles/{style}/{z}/{x}/{y}.png`, if it is one and is held.
    private func cachedTile(for request: HTTPRequest) -> EncodedImage? {
        guard request.method == .get || request.method == .head, let path = request.path,
              let address = BaseTilePath(path) else { return nil }
        // Closing the connection after the answer is the router's job.
        if request.headerFields[.connection]?.lowercased().contains("close") == true { return nil }
        return tiles.memoryHit(style: address.style, z: address.z, x: address.x, y: address.y)
    }

    private func answer(_ request: HTTPRequest, with image: EncodedImage, context: ChannelHandlerContext) {
        var (status, headers) = image.responseHead(ifNoneMatch: request.headerFields[values: .ifNoneMatch])
        headers[.date] = date.now()
        headers[.server] = "MapFrame"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: headers))), promise: nil)
        if status == .ok, request.method == .get {
            context.write(wrapOutboundOut(.body(image.body)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let kind = HTTPAnswerKind(method: request.method, status: status.code)
        if requestCounters[kind] == nil {
            requestCounters[kind] = counters.counter(endpoint: Self.endpoint, method: request.method, status: status)
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

/// The `Date` header's text, formatted at most once a second.
struct HTTPDateCache {
    private var second = 0
    private var text = ""

    mutating func now() -> String {
        let current = Int(Date().timeIntervalSince1970)
        if current != second {
            second = current
            text = HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(current)))
        }
        return text
    }
}
