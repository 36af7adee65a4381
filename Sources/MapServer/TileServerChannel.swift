import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 connection, with the cached-tile fast path placed where it costs least.
///
/// It sets up the same handlers as Hummingbird's `HTTP1Channel`, in the same order, except that
/// `CachedTileFastPath` sits between NIO's HTTP/1 codec and the conversion to Swift HTTP Types:
/// a tile answered from memory then never pays for that conversion, in either direction. The
/// codec's encoder and decoder are added separately rather than by
/// `configureHTTPServerPipeline`, which would tell the encoder the method of every request,
/// including those answered past it (see `CachedTileFastPath`). `ConnectionGuard` follows the
/// fast path, and a connection beyond the server's limit gets only a 503.
struct TileServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let openConnections: OpenConnections
    /// Makes the fast path for one connection.
    let makeFastPath: @Sendable () -> CachedTileFastPath

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            // Pipelining is left to NIOAsyncChannel and errors to the application, as Hummingbird does.
            try pipeline.addHandler(HTTPResponseEncoder())
            guard openConnections.admit(channel, logger: logger) else {
                try pipeline.addHandler(RefusedConnection(problem: .tooManyConnections(openConnections.limit)))
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
            }
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
            try pipeline.addHandler(makeFastPath())
            try pipeline.addHandler(ConnectionGuard(limits: limits))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    private var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = HTTPDecoderLimits.maxHeaderBytes
        limits.maxHeaderListSize = HTTPDecoderLimits.maxHeaderBytes
        limits.maxHeaderFieldCount = HTTPDecoderLimits.maxHeaderFields
        return limits
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// The largest request head the server reads: Hummingbird's own limits (NIO's defaults allow
/// far more fields). Larger heads are answered 431.
enum HTTPDecoderLimits {
    static let maxHeaderBytes = HTTP1Channel.Configuration().httpDecoder.maxHeaderListSize
    static let maxHeaderFields = HTTP1Channel.Configuration().httpDecoder.maxHeaderFieldCount
}
