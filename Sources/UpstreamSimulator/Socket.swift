import Glibc

/// A failed socket call, with the errno it left.
struct SocketError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// The few POSIX socket calls the server makes, with EINTR retried and SIGPIPE suppressed.
enum Socket {
    /// A listening TCP socket on 127.0.0.1 with a port chosen by the kernel.
    static func listenOnLoopback() throws -> (fd: Int32, port: Int) {
        let (fd, port) = try bindLoopback(reuseAddress: true)
        do {
            try check("listen", listen(fd, 128))
            return (fd, port)
        } catch {
            close(fd)
            throw error
        }
    }

    /// A TCP socket bound to 127.0.0.1 on `port` (0: one chosen by the kernel), not yet
    /// listening: until it listens, connections to the port are refused. `reuseAddress`
    /// (SO_REUSEADDR) lets a listener rebind at once after a restart; without it, nothing else
    /// can bind the port while this socket lives. Either way the kernel never chooses the port
    /// for another socket while this one holds it.
    static func bindLoopback(port: Int = 0, reuseAddress: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        do {
            var one: Int32 = 1
            if reuseAddress {
                try check("setsockopt", setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)))
            }

            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try withUnsafeMutablePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    try check("bind", bind(fd, address, length))
                    try check("getsockname", getsockname(fd, address, &length))
                }
            }
            return (fd, Int(UInt16(bigEndian: address.sin_port)))
        } catch {
            close(fd)
            throw error
        }
    }

    /// The next accepted connection, close-on-exec and with TCP_NODELAY set; nil once the listener
    /// is shut down.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)  // accept4 is not visible without _GNU_SOURCE
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000)  // out of resources: wait for some to free up
            default: return nil
            }
        }
    }

    /// Appends whatever bytes arrive next to `buffer`; false at end of stream or on error.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Writes all of `bytes`; false if the connection failed. Never raises SIGPIPE.
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Makes closing `fd` reset the connection (a TCP RST) instead of ending it gracefully.
    static func resetOnClose(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Wakes any thread blocked on `fd` (accept, recv or send) and makes further use fail, without
    /// releasing the descriptor number; the owner closes it.
    static func shutDown(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private static func check(_ call: String, _ result: Int32) throws {
        guard result == 0 else { throw SocketError(call: call, code: errno) }
    }
}
