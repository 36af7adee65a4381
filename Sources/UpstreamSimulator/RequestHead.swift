import Foundation

/// The request line and header fields of one HTTP/1.0 or HTTP/1.1 request, validated strictly
/// enough that anything odd is answered with 400 instead of being guessed at.
struct RequestHead {
    let method: String
    /// The origin-form target, such as "/15/16396/10894.png?key=x".
    let target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    let minorVersion: Int
    /// Header fields, names lower-cased; repeated fields joined with ", ".
    let headers: [String: String]
    /// The length of the request body that follows the head (from Content-Length), to be skipped.
    let bodyLength: Int

    /// Parses a head: the bytes up to, not including, the blank line that ends it.
    /// Returns nil if it is malformed or uses a request body framing the simulator does not read.
    init?(parsing bytes: ArraySlice<UInt8>) {
        guard let lines = Self.lines(of: bytes), let requestLine = lines.first else { return nil }

        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, Self.isToken(parts[0]), parts[1].hasPrefix("/") else { return nil }
        switch parts[2] {
        case "HTTP/1.0": minorVersion = 0
        case "HTTP/1.1": minorVersion = 1
        default: return nil
        }
        method = parts[0]
        target = parts[1]

        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = String(line[..<colon])
            guard Self.isToken(name) else { return nil }  // also rejects obs-fold and space before ":"
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            let key = name.lowercased()
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        self.headers = headers

        guard headers["transfer-encoding"] == nil else { return nil }
        if let contentLength = headers["content-length"] {
            guard !contentLength.isEmpty, contentLength.count <= 9, contentLength.allSatisfy(\.isASCIIDigit),
                let length = Int(contentLength)
            else { return nil }
            bodyLength = length
        } else {
            bodyLength = 0
        }
    }

    /// Whether the client wants the connection kept open after the response.
    var keepsAlive: Bool {
        let options = (headers["connection"] ?? "").lowercased().split(separator: ",")
            .map { $0.trimmingCharacters(in: [" ", "\t"]) }
        if options.contains("close") { return false }
        return minorVersion == 1 || options.contains("keep-alive")
    }

    /// The request as tests see it.
    var recorded: RecordedRequest {
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return RecordedRequest(
            method: method,
            path: String(pieces[0]),
            query: pieces.count > 1 ? String(pieces[1]) : nil,
            headers: headers
        )
    }

    /// Splits the head into lines ending in CRLF (or a bare LF); nil if a line holds a control
    /// character other than a tab.
    private static func lines(of bytes: ArraySlice<UInt8>) -> [String]? {
        var lines: [String] = []
        for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard !line.contains(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F }) else { return nil }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return lines
    }

    /// Whether `text` is a non-empty HTTP token (the characters allowed in methods and field names).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
