import NIOCore
import Synchronization

/// Whether a connection's client is still there to be answered. It is gone once it has closed
/// its side of the connection or reset it: as nginx does, a client that stops sending is taken
/// to have hung up, so that a frame nobody waits for is not drawn (`RenderCutoff`).
///
/// `ConnectionGuard`, which sees each connection's every close, keeps its presence.
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

    /// Starts keeping the presence of `channel`'s client.
    static func watch(_ channel: any Channel) -> ClientPresence {
        let presence = ClientPresence()
        byChannel.withLock { $0[ObjectIdentifier(channel)] = presence }
        return presence
    }

    /// The client has closed its side of the connection: it is gone, though the channel is open.
    func inputClosed() {
        gone.store(true, ordering: .relaxed)
    }

    /// `channel` has closed: its client is gone, and its presence no longer kept.
    func closed(_ channel: any Channel) {
        gone.store(true, ordering: .relaxed)
        _ = Self.byChannel.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
