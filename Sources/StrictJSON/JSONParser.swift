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
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)), value.isFinite else {
            offset = start
            throw failure("number out of range")
        }
        return value
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
