/// Reads request heads from one connection, keeping bytes that arrive early (pipelining) for
/// the next request.
struct RequestReader {
    enum Result {
        case head(RequestHead)
        /// Not HTTP, or a head longer than `maxHeadSize`.
        case malformed
        /// The client closed the connection (or the server is stopping).
        case closed
    }

    static let maxHeadSize = 16 * 1024
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
    }

    /// Reads until a complete request head has arrived and parses it.
    mutating func nextHead() -> Result {
        while true {
            dropLeadingBlankLines()
            if let (headEnd, nextStart) = endOfHead() {
                let head = RequestHead(parsing: buffer[..<headEnd])
                buffer.removeSubrange(..<nextStart)
                return head.map(Result.head) ?? .malformed
            }
            guard buffer.count <= Self.maxHeadSize else { return .malformed }
            guard Socket.read(fd, into: &buffer) else { return .closed }
        }
    }

    /// Reads and discards a request body of `count` bytes; false if the connection closed first.
    mutating func skipBody(_ count: Int) -> Bool {
        var remaining = count
        while true {
            let buffered = min(remaining, buffer.count)
            buffer.removeFirst(buffered)
            remaining -= buffered
            if remaining == 0 { return true }
            guard Socket.read(fd, into: &buffer) else { return false }
        }
    }

    /// Reads and discards everything until the client closes the connection or the server stops.
    mutating func waitForClose() {
        while Socket.read(fd, into: &buffer) {
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Servers should ignore empty lines before a request line (RFC 9112 section 2.2).
    private mutating func dropLeadingBlankLines() {
        while true {
            if buffer.first == Self.lineFeed {
                buffer.removeFirst()
            } else if buffer.starts(with: [Self.carriageReturn, Self.lineFeed]) {
                buffer.removeFirst(2)
            } else {
                return
            }
        }
    }

    /// Where the head ends (the line feed before the blank line) and where the next data starts.
    private func endOfHead() -> (headEnd: Int, nextStart: Int)? {
        var index = buffer.startIndex
        while let lineEnd = buffer[index...].firstIndex(of: Self.lineFeed) {
            let rest = buffer[(lineEnd + 1)...]
            if rest.first == Self.lineFeed { return (lineEnd, lineEnd + 2) }
            if rest.starts(with: [Self.carriageReturn, Self.lineFeed]) { return (lineEnd, lineEnd + 3) }
            index = lineEnd + 1
        }
        return nil
    }
}
