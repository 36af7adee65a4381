import Foundation

/// A strict RFC 8259 JSON parser producing `JSONValue`s. Unlike Foundation's parsers it refuses
/// trailing commas and duplicate keys, and its errors give the line and column.
struct JSONParser {
    /// Deeper nesting than this is refused rather than risking the stack.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    /// Parses one complete document.
    mutating func parseDocument() throws(ParseFailure) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard offset == bytes.count else { throw failure("unexpected \(describeNext()) after the document") }
        return value
    }

    /// Why and where parsing stopped.
    struct ParseFailure: Error {
        let reason: String
        let line: Int
        let column: Int

        var description: String { "\(reason) at line \(line), column \(column)" }
    }

    private mutating func parseValue() throws(ParseFailure) -> JSONValue {
        guard offset < bytes.count else { throw failure("unexpected end of input; expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected \(describeNext()); expected a value")
        }
    }

    private mutating func parseObject() throws(ParseFailure) -> JSONValue {
        try enterContainer()
        offset += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { depth -= 1; return .object(fields) }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeNext()); expected a field name in double quotes")
            }
            let keyOffset = offset
            let key = try parseString()
            guard fields[key] == nil else {
                offset = keyOffset
                throw failure("duplicate field \"\(key)\"")
            }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("unexpected \(describeNext()); expected ':'") }
            skipWhitespace()
            fields[key] = try parseValue()
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { break }
            guard consume(UInt8(ascii: ",")) else { throw failure("unexpected \(describeNext()); expected ',' or '}'") }
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") { throw failure("trailing comma before '}'") }
        }
        depth -= 1
        return .object(fields)
    }

    private mutating func parseArray() throws(ParseFailure) -> JSONValue {
        try enterContainer()
        offset += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { depth -= 1; return .array(values) }
        while true {
            skipWhitespace()
            values.append(try parseValue())
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { break }
            guard consume(UInt8(ascii: ",")) else { throw failure("unexpected \(describeNext()); expected ',' or ']'") }
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") { throw failure("trailing comma before ']'") }
        }
        depth -= 1
        return .array(values)
    }

    private mutating func enterContainer() throws(ParseFailure) {
        depth += 1
        guard depth <= JSONParser.maxDepth else { throw failure("nesting deeper than \(JSONParser.maxDepth) levels") }
    }

    private mutating func parseString() throws(ParseFailure) -> String {
        let start = offset
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard offset < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                guard let string = String(bytes: utf8, encoding: .utf8) else {
                    offset = start
                    throw failure("string is not valid UTF-8")
                }
                return string
            }
            if byte < 0x20 { throw failure("control character in a string; escape it") }
            offset += 1
            if byte == UInt8(ascii: "\\") {
                utf8.append(contentsOf: String(try parseEscape()).utf8)
            } else {
                utf8.append(byte)
            }
        }
    }

    private mutating func parseEscape() throws(ParseFailure) -> Unicode.Scalar {
        guard offset < bytes.count else { throw failure("unterminated string") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHexQuad()
            if (0xD800...0xDBFF).contains(high) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw failure("unpaired surrogate \\u\(String(high, radix: 16))")
                }
                offset += 2
                let low = try parseHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate \\u\(String(high, radix: 16))") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure("unpaired surrogate \\u\(String(high, radix: 16))") }
            return scalar
        default:
            offset -= 1
            throw failure("invalid escape '\\\(describeNext())'")
        }
    }

    private mutating func parseHexQuad() throws(ParseFailure) -> UInt32 {
        // Each byte is checked, because UInt32(_:radix:) would also take a sign ("\\u+041").
        guard offset + 4 <= bytes.count else { throw failure("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw failure("\\u needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    private mutating func parseNumber() throws(ParseFailure) -> Double {
        let start = offset
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if offset < bytes.count, isDigit(bytes[offset]) { throw failure("leading zero in a number") }
        } else {
            guard consumeDigits() else { throw failure("unexpected \(describeNext()); expected a digit") }
        }
        if consume(UInt8(ascii: ".")) {
            guard consumeDigits() else { throw failure("unexpected \(describeNext()); expected a digit after '.'") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard consumeDigits() else { throw failure("unexpected \(describeNext()); expected an exponent") }
        }
        if let value = Self.exactlyRoundedShortNumber(bytes[start..<offset]) { return value }
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)), value.isFinite else {
            offset = start
            throw failure("number out of range")
        }
        return value
    }

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of a well-formed JSON number when one floating-point operation gives it exactly
    /// rounded, as `Double(_:)` would (Clinger's fast path): its digits as an integer of at most
    /// 2^53, times or divided by a power of ten up to 10^22, both held exactly. Nil for any other
    /// number, which `Double(_:)` reads. A scene's coordinates (six decimals) all take this path:
    /// reading them through `Double(String)` was a third of reading a 300-point route.
    static func exactlyRoundedShortNumber(_ text: ArraySlice<UInt8>) -> Double? {
        var index = text.startIndex
        let negative = text[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: UInt64 = 0
        var digitCount = 0
        var exponent = 0
        var inFraction = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digitCount += 1
                guard digitCount <= 16 else { return nil }
                digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
                if inFraction { exponent -= 1 }
            } else {
                break
            }
            index += 1
        }
        if index < text.endIndex {
            // An exponent: e or E, an optional sign, digits (the caller has checked them).
            index += 1
            let exponentNegative = text[index] == UInt8(ascii: "-")
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            var written = 0
            while index < text.endIndex {
                written = written * 10 + Int(text[index] - UInt8(ascii: "0"))
                guard written <= 400 else { return nil }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        guard digits <= 1 << 53, abs(exponent) < exactPowersOfTen.count else { return nil }
        let magnitude = exponent < 0
            ? Double(digits) / exactPowersOfTen[-exponent] : Double(digits) * exactPowersOfTen[exponent]
        return negative ? -magnitude : magnitude
    }

    private mutating func consumeDigits() -> Bool {
        let start = offset
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        return offset > start
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func expectWord(_ word: String) throws(ParseFailure) {
        let utf8 = Array(word.utf8)
        guard offset + utf8.count <= bytes.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
            throw failure("unexpected \(describeNext()); expected a value")
        }
        offset += utf8.count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private func describeNext() -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private func failure(_ reason: String) -> ParseFailure {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return ParseFailure(reason: reason, line: line, column: offset - lineStart + 1)
    }
}
