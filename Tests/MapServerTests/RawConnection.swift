import Foundation
#if canImport(Glibc)
import Glibc
import MapFrameTestSupport
#endif

/// A hand-driven TCP connection to 127.0.0.1, for clients that misbehave on purpose: sending a
/// header a byte at a time, stopping half-way through a body, or never sending anything.
/// Blocking calls: use it from `onThread`.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32
    private(set) var received: [UInt8] = []

    /// Connects from `source`; throws when the connection is refused. With `receiveBuffer`, the
    /// socket takes at most that many bytes the client has not read (see `HTTP.connectedSocket`).
    init(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        socket = try HTTP.connectedSocket(port: port, from: source, receiveBuffer: receiveBuffer)
    }

    deinit { Glibc.close(socket) }

    /// Makes closing the connection reset it (RST) rather than end it in order, as a client that
    /// crashes or is killed does.
    func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Sends bytes; false when the server has closed the connection.
    @discardableResult func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    @discardableResult func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes the connection or `seconds` pass; returns whether it closed.
    /// What arrives meanwhile is added to `received`.
    func waitForClose(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || errno == ECONNRESET {
                return true
            } else if errno != EINTR && errno != EAGAIN {
                return true
            }
        }
    }

    /// Reads until `received` holds one whole answer with a Content-Length body, or `seconds`
    /// pass, and takes that answer out of `received`.
    func readAnswer(within seconds: Double) throws -> HTTPReply {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let (reply, length) = Self.completeAnswer(in: received) {
                received.removeFirst(length)
                return reply
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestSetupError(description: "no whole answer within \(seconds) s; got \(received.count) bytes") }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000) + 1) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || errno == ECONNRESET {
                if let (reply, length) = Self.completeAnswer(in: received) {
                    received.removeFirst(length)
                    return reply
                }
                throw TestSetupError(description: "closed after \(received.count) bytes: \(String(decoding: received.prefix(300), as: UTF8.self))")
            }
        }
    }

    /// The first answer in `bytes` when its head and Content-Length body are all there, and how
    /// many bytes it takes.
    private static func completeAnswer(in bytes: [UInt8]) -> (HTTPReply, Int)? {
        guard let headEnd = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let words = lines[0].split(separator: " ")
        guard words.count >= 2, let status = Int(words[1]) else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard bytes.count >= headEnd.upperBound + length else { return nil }
        let reply = HTTPReply(status: status, headers: headers, body: Data(bytes[headEnd.upperBound..<headEnd.upperBound + length]))
        return (reply, headEnd.upperBound + length)
    }
}
