import Dispatch
import Foundation
import Synchronization

/// A TCP listener on 127.0.0.1 that serves each connection on its own thread, at most
/// `maxConnections` at once (connections beyond that are closed as soon as they are accepted).
/// It knows connections and framing only; `reply` decides what each request gets.
final class HTTPServer: Sendable {
    static let maxConnections = 256

    let port: Int
    private let listener: Int32
    /// The connections being served, so that `stop()` can wake their threads.
    private let open = Mutex(OpenConnections())
    /// Entered by the accept thread and every connection thread while it runs.
    private let threads = DispatchGroup()

    private struct OpenConnections {
        var descriptors: Set<Int32> = []
        var stopped = false
        /// Once stopped, a socket that holds the port, bound but not listening, until the
        /// server goes: connections are refused, and no other server is given the port.
        var heldPort: Int32?
    }

    /// Binds the listener and starts accepting; `onAccept` runs for every connection served.
    init(onAccept: @escaping @Sendable () -> Void, reply: @escaping @Sendable (RecordedRequest) -> Reply) throws {
        (listener, port) = try Socket.listenOnLoopback()
        threads.enter()
        Thread { [self] in
            acceptConnections(onAccept: onAccept, reply: reply)
            threads.leave()
        }.start()
    }

    /// Closes the listener and every connection, and waits for all their threads to finish.
    /// Returns at once if already stopped. Must not be called from inside `reply`.
    func stop() {
        let wasRunning = open.withLock { open in
            guard !open.stopped else { return false }
            open.stopped = true
            Socket.shutDown(listener)
            open.descriptors.forEach(Socket.shutDown)
            return true
        }
        guard wasRunning else { return }
        threads.wait()
        close(listener)
        let held = try? Socket.bindLoopback(port: port, reuseAddress: true).fd
        open.withLock { $0.heldPort = held }
    }

    deinit {
        if let held = open.withLock({ $0.heldPort }) { close(held) }
    }

    private func acceptConnections(onAccept: @escaping @Sendable () -> Void, reply: @escaping @Sendable (RecordedRequest) -> Reply) {
        while let fd = Socket.accept(listener) {
            guard register(fd) else {
                close(fd)
                continue
            }
            onAccept()
            threads.enter()
            Thread { [self] in
                ConnectionHandler(fd: fd, reply: reply).run()
                unregisterAndClose(fd)
                threads.leave()
            }.start()
        }
    }

    /// Adds a connection to the open set; false if stopping or full.
    private func register(_ fd: Int32) -> Bool {
        open.withLock { open in
            guard !open.stopped, open.descriptors.count < Self.maxConnections else { return false }
            open.descriptors.insert(fd)
            return true
        }
    }

    /// Closes under the lock, so that `stop()` never shuts down a descriptor number already reused.
    private func unregisterAndClose(_ fd: Int32) {
        open.withLock { open in
            open.descriptors.remove(fd)
            close(fd)
        }
    }
}
