import NIOCore
import Synchronization

/// Whether a connection's client is still there to be answered. It is gone once it has closed
/// its side of the connection or reset it: as nginx does, a client that stops sending is taken
/// to have hung up, so that a frame nobody waits for is not drawn (`RenderCutoff`).
final class ClientPresence: Sendable {
    private let gone = Atomic(false)

    /// The presence of the client whose request the current task answers, when it has one.
    @TaskLocal static var current: ClientPresence?

    /// Whether the client has hung up.
    var isGone: Bool { gone.load(ordering: .relaxed) }

    /// The presence of each open connection, by its channel.
    private static let byChannel = Mutex<[ObjectIdentifier: ClientPresence]>([:])

    /// The presence of `channel`'s client; nil for a channel not watched, or already closed.
    static func of(_ channel: any Channel) -> ClientPresence? {
        byChannel.withLock { $0[ObjectIdentifier(channel)] }
    }

    /// Watches one connection: first in its pipeline, so that it sees every close.
    final class Watcher: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        private let presence = ClientPresence()

        func handlerAdded(context: ChannelHandlerContext) {
            let presence = presence
            ClientPresence.byChannel.withLock { $0[ObjectIdentifier(context.channel)] = presence }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            hungUp(context)
        }

        func channelInactive(context: ChannelHandlerContext) {
            hungUp(context)
            context.fireChannelInactive()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? ChannelEvent, event == .inputClosed { presence.gone.store(true, ordering: .relaxed) }
            context.fireUserInboundEventTriggered(event)
        }

        private func hungUp(_ context: ChannelHandlerContext) {
            presence.gone.store(true, ordering: .relaxed)
            _ = ClientPresence.byChannel.withLock { $0.removeValue(forKey: ObjectIdentifier(context.channel)) }
        }
    }
}
