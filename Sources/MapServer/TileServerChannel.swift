import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// Hummingbird's HTTP/1.1 connection, with the cached-tile fast path placed where it costs least.
///
/// It sets up the same handlers as Hummingbird's `HTTP1Channel`, in the same order, except that
/// `CachedTileFastPath` sits between NIO's HTTP/1 codec and the conversion to Swift HTTP Types:
/// a tile answered from memory then never pays for that conversion, in either direction. The
/// codec's encoder and decoder are added separately rather than by
/// `configureHTTPServerPipeline`, which would tell the encoder the method of every request,
/// including those answered past it (see `CachedTileFastPath`). The fast path holds every
/// request to `RequestHeadRules`, so that it and the router follow the same rules;
/// `ConnectionGuard` follows it, and a connection beyond the server's limit gets only a 503.
struct TileServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = AcceptedConnection

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let openConnections: OpenConnections
    /// Makes the fast path for one connection.
    let makeFastPath: @Sendable () -> CachedTileFastPath

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture { try configure(channel, logger: logger) }
    }

    /// Adds the connection's handlers and wraps it; on the channel's event loop.
    private func configure(_ channel: any Channel, logger: Logger) throws -> AcceptedConnection {
        let pipeline = channel.pipeline.syncOperations
        // Pipelining is left to NIOAsyncChannel and errors to the application, as Hummingbird does.
        try pipeline.addHandler(HTTPResponseEncoder())
        guard openConnections.admit(channel, logger: logger) else {
            try pipeline.addHandler(RefusedConnection(problem: .tooManyConnections(openConnections.limit)))
            return AcceptedConnection(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
        }
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
        try pipeline.addHandler(makeFastPath())
        try pipeline.addHandler(ConnectionGuard(limits: limits))
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try pipeline.addHandler(HTTPConnectionStateHandler(logger: logger))
        return AcceptedConnection(
            try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        )
    }

    /// Sets up one connection on an `EmbeddedChannel`, on the calling thread, and closes it: to be
    /// called once, on a copy with a responder that is never called, before the server listens.
    ///
    /// Swift's runtime can crash when two threads are the first to instantiate the same generic
    /// types at once: a storm of connections to a freshly started server once ended it with a
    /// SIGSEGV in `swift_checkMetadataState`, two event loops each in `setup`, one building
    /// `ByteToMessageHandler<HTTPRequestDecoder>` while the other built `HTTPPart`. After this,
    /// every type `setup` names is complete before the event loops reach for it.
    func instantiateConnectionTypes() throws {
        let embedded = EmbeddedChannel()
        let quiet = Logger(label: "warm-up", factory: { _ in SwiftLogNoOpLogHandler() })
        // An EmbeddedChannel runs everything on the calling thread, at once: nothing here waits.
        _ = try configure(embedded, logger: quiet).handOver()
        _ = try embedded.finish(acceptAlreadyClosed: false)
    }

    private var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = HTTPDecoderLimits.maxHeaderBytes
        limits.maxHeaderListSize = HTTPDecoderLimits.maxHeaderBytes
        limits.maxHeaderFieldCount = HTTPDecoderLimits.maxHeaderFields
        return limits
    }

    /// Serves the connection's requests on its own event loop (`EventLoopTaskExecutor`). Swift's
    /// global executor (the event loops, `mapframe serve` installs them) resumes a task that
    /// waited on a pool on any loop, and the answer then hops to the connection's loop to be
    /// written; on its own loop, reading each request, the router's work between waits and
    /// writing the answer need no hop. What blocks runs on the pools as before (storage, drawing,
    /// bodies), and comes back to this loop.
    func handle(value: Value, logger: Logger) async {
        let connection = value.handOver()
        await withTaskExecutorPreference(EventLoopTaskExecutor(connection.channel.eventLoop)) {
            await handleHTTP(asyncChannel: connection, logger: logger)
        }
    }
}

/// A connection set up and waiting to be served.
///
/// A server that stops drops the connections it has set up but not yet handed to `handle`: those
/// still buffered when its accept loop is cancelled, and those whose setup ends after the
/// listening channel has closed. A `NIOAsyncChannel` dropped with its channel open traps, its
/// writer never finished; so a connection never handed over closes its channel as it goes.
final class AcceptedConnection: ServerChildChannelValue {
    let channel: any Channel
    private let asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    private let handedOver = Atomic(false)

    init(_ asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>) {
        self.asyncChannel = asyncChannel
        channel = asyncChannel.channel
    }

    /// The connection, to be served: from now on serving it closes it, not `deinit`.
    func handOver() -> NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart> {
        handedOver.store(true, ordering: .releasing)
        return asyncChannel
    }

    deinit {
        guard !handedOver.load(ordering: .acquiring) else { return }
        // Closing finishes the writer (when the channel goes inactive, or when its handlers are
        // removed if it never became active). The close future completes only after that, so
        // the writer is kept until then and goes finished.
        channel.close(promise: nil)
        channel.closeFuture.whenComplete { [asyncChannel] _ in withExtendedLifetime(asyncChannel) {} }
    }
}

/// The largest request head the server reads: Hummingbird's own limits (NIO's defaults allow
/// far more fields). Larger heads are answered 431.
enum HTTPDecoderLimits {
    static let maxHeaderBytes = HTTP1Channel.Configuration().httpDecoder.maxHeaderListSize
    static let maxHeaderFields = HTTP1Channel.Configuration().httpDecoder.maxHeaderFieldCount
}
