import Foundation

/// A batch of request lines as the bytes the access log writes: the line `TextLogLine` or
/// `JSONLogHandler` writes for an answered request (`request` at info; fields `bytes`,
/// `duration_ms`, `method`, the redacted `path` and `status`, in that order), appended field by
/// field to one byte buffer.
///
/// Going through those two, as other log events do, builds a metadata dictionary, sorts it,
/// formats the time, joins strings and copies the result into bytes, for every line; at one line
/// a request that was a fifth of what a cached tile costs. Here the time is formatted once a
/// second, a target without a query needs no redaction, and the rest is written straight into
/// the buffer.
struct RequestLineEncoder {
    let format: LogFormat
    /// The lines appended so far, each ending in a newline.
    private(set) var bytes: [UInt8] = []
    /// The second `stamp` tells, since 1970.
    private var stampSecond: Int?
    /// The time's text for `stampSecond`: the whole stamp for text lines, and for JSON everything
    /// up to the milliseconds (`2026-01-02T03:04:05.`).
    private var stamp: [UInt8] = []

    init(format: LogFormat, reservingCapacity capacity: Int = 0) {
        self.format = format
        bytes.reserveCapacity(capacity)
    }

    /// Appends `entry`'s line.
    mutating func append(_ entry: AccessLog.Entry) {
        let since1970 = entry.time.timeIntervalSince1970
        // Text lines tell the second as `time_t` does, JSON lines the millisecond within it.
        let second = Int(since1970)
        if second != stampSecond { formatStamp(second: second) }
        switch format {
        case .text:
            bytes.append(contentsOf: stamp)
            appendASCII(" info mapframe: bytes=")
            appendDecimal(entry.bodyBytes)
            appendASCII(" duration_ms=")
            appendMilliseconds(entry.duration)
            appendASCII(" method=")
            bytes.append(contentsOf: entry.method.utf8)
            appendASCII(" path=")
            appendPath(entry.target, escaped: false)
            appendASCII(" status=")
            appendDecimal(entry.status)
            appendASCII(" [MapServer] request\n")
        case .json:
            appendASCII("{\"time\":\"")
            bytes.append(contentsOf: stamp)
            let milliseconds = min(max(Int((since1970 - Double(second)) * 1000), 0), 999)
            bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
            bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10))
            bytes.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
            appendASCII("Z\",\"level\":\"info\",\"message\":\"request\",\"bytes\":")
            appendDecimal(entry.bodyBytes)
            appendASCII(",\"duration_ms\":")
            appendMilliseconds(entry.duration)
            appendASCII(",\"method\":")
            appendJSONString(entry.method)
            appendASCII(",\"path\":")
            appendPath(entry.target, escaped: true)
            appendASCII(",\"status\":")
            appendDecimal(entry.status)
            appendASCII("}\n")
        }
    }

    private mutating func formatStamp(second: Int) {
        stampSecond = second
        let time = Date(timeIntervalSince1970: Double(second))
        switch format {
        case .text:
            stamp = Array(TextLogLine.stamp(time).utf8)
        case .json:
            // The whole second's text ends in "000Z": keep what comes before the milliseconds.
            stamp = Array(time.formatted(JSONLogHandler.timeFormat).utf8.dropLast(4))
        }
    }

    /// The target, redacted (`RequestLog.redacted`) when it has a query, as a JSON string when
    /// `escaped`.
    private mutating func appendPath(_ target: String, escaped: Bool) {
        let path = target.utf8.contains(UInt8(ascii: "?")) ? RequestLog.redacted(target) : target
        if escaped { appendJSONString(path) } else { bytes.append(contentsOf: path.utf8) }
    }

    private mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendDecimal(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumCount: 1)
    }

    /// `value`'s decimal digits, with leading zeros up to `minimumCount`.
    private mutating func appendDigits(_ value: UInt, minimumCount: Int) {
        // Room for the 20 digits of the largest `UInt`, filled from the end.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var (rest, start) = (value, buffer.count)
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0 || buffer.count - start < minimumCount
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// The duration in milliseconds to the microsecond, as `Double.description` writes it: the
    /// shortest decimal that reads back as the same number, with at least one fractional digit.
    private mutating func appendMilliseconds(_ duration: Duration) {
        let microseconds = AccessLog.microseconds(duration)
        // Below 10^9 ms every such decimal has under 13 digits, so it is the shortest; beyond,
        // and for a negative duration, `description` decides.
        guard (0..<1_000_000_000_000).contains(microseconds) else {
            return bytes.append(contentsOf: (Double(microseconds) / 1000).description.utf8)
        }
        appendDigits(UInt(microseconds / 1000), minimumCount: 1)
        bytes.append(UInt8(ascii: "."))
        var fraction = Int(microseconds % 1000), digits = 3
        while digits > 1, fraction % 10 == 0 { (fraction, digits) = (fraction / 10, digits - 1) }
        appendDigits(UInt(fraction), minimumCount: digits)
    }

    /// `string` as `JSONText.appendString` writes it: quoted, with quotes, backslashes and
    /// control characters escaped, everything else as it is.
    private mutating func appendJSONString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var plainStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                plainStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): appendASCII("\\\"")
                case UInt8(ascii: "\\"): appendASCII("\\\\")
                case UInt8(ascii: "\n"): appendASCII("\\n")
                case UInt8(ascii: "\r"): appendASCII("\\r")
                case UInt8(ascii: "\t"): appendASCII("\\t")
                default:
                    appendASCII("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
