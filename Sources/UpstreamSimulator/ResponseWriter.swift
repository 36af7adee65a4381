import Foundation

/// How a response's body goes out on the wire.
enum Delivery {
    /// All at once.
    case complete
    /// Headers with the full Content-Length, then only the first half of the body.
    case truncated
    /// In small chunks at about this rate.
    case drip(bytesPerSecond: Int)
}

/// Serializes responses onto one connection.
struct ResponseWriter {
    let fd: Int32

    /// Writes `response` with Content-Length framing; false if the connection failed.
    /// `includeBody` is false for HEAD requests; 304 responses never carry a body.
    func send(_ response: SimulatedResponse, delivery: Delivery, includeBody: Bool, keepAlive: Bool) -> Bool {
        let head = Self.head(for: response, keepAlive: keepAlive)
        let body = includeBody && response.status != 304 ? [UInt8](response.body) : []
        switch delivery {
        case .complete:
            return Socket.write(fd, head + body)
        case .truncated:
            return Socket.write(fd, head + body.prefix(body.count / 2))
        case .drip(let bytesPerSecond):
            return Socket.write(fd, head) && drip(body, bytesPerSecond: max(1, bytesPerSecond))
        }
    }

    /// Sends `body` in about twenty chunks a second.
    private func drip(_ body: [UInt8], bytesPerSecond: Int) -> Bool {
        let chunkSize = max(1, bytesPerSecond / 20)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            guard Socket.write(fd, Array(body[offset..<end])) else { return false }
            offset = end
            if offset < body.count {
                Thread.sleep(forTimeInterval: Double(chunkSize) / Double(bytesPerSecond))
            }
        }
        return true
    }

    /// The status line and header fields, ending with the blank line.
    private static func head(for response: SimulatedResponse, keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers where !["content-length", "connection"].contains(name.lowercased()) {
            text += "\(name): \(value)\r\n"
        }
        if response.status != 304 {
            text += "Content-Length: \(response.body.count)\r\n"
        }
        text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        text += "\r\n"
        return Array(text.utf8)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
