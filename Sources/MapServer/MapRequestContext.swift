import Hummingbird
import NIOCore

/// Hummingbird's basic request context plus the client's address, which the write rate limit
/// counts by.
struct MapRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address, or "unknown" for a connection without one.
    let clientAddress: String
    /// Whether the client is still there to be answered.
    let clientPresence: ClientPresence?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        clientPresence = ClientPresence.of(source.channel)
    }
}
