import Foundation
import HTTPTypes
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
        guard request.method == .get || request.method == .head, let path = request.path, !path.contains("?") else { return nil }
        // Closing the connection after the answer is the router's job.
        if request.headerFields[.connection]?.lowercased().contains("close") == true { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].isEmpty, parts[1] == "tiles", parts[5].hasSuffix(".png"), !parts[5].hasSuffix("@2x.png"),
              let z = Int(parts[3]), let x = Int(parts[4]), let y = Int(parts[5].dropLast(4))
        else { return nil }
        return tiles.memoryHit(style: String(parts[2]), z: z, x: x, y: y)
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
        counters.count(endpoint: Self.endpoint, method: request.method, status: status)
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
