import Foundation
import StrictJSON
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONFieldError) -> JSONValue {
        try JSONValue.parse(Data(text.utf8), documentName: "test.json")
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a": [1, -2.5e2, 0, true, false, null], "b": {"c": "x\ny\u00e9\ud83d\udeb2"} } "#)
        #expect(value == .object([
            "a": .array([.number(1), .number(-250), .number(0), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("x\nyé🚲")]),
        ]))
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, "trailing comma before '}' at line 1, column 9"),
        (#"[1, 2,]"#, "trailing comma before ']' at line 1, column 7"),
        ("{\n  \"a\": 1,\n  \"a\": 2\n}", "duplicate field \"a\" at line 3, column 3"),
        (#"{"a": 01}"#, "leading zero in a number at line 1, column 8"),
        (#"{a: 1}"#, "expected a field name in double quotes at line 1, column 2"),
        (#"{"a": 1"#, "expected ',' or '}' at line 1, column 8"),
        (#"{"a": 1} x"#, "unexpected 'x' after the document at line 1, column 10"),
        (#"{"a": NaN}"#, "unexpected 'N'; expected a value at line 1, column 7"),
        ("// comment\n{}", "unexpected '/'; expected a value at line 1, column 1"),
        (#"{"a": "\q"}"#, "invalid escape '\\'q'' at line 1, column 9"),
        (#"{"a": "\ud83d"}"#, "unpaired surrogate"),
        (#"{"a": "\u+041"}"#, "\\u needs four hexadecimal digits"),
        (#"{"a": "\u-000"}"#, "\\u needs four hexadecimal digits"),
        (#"{"a": "\u12"}"#, "\\u needs four hexadecimal digits"),
        ("{\"a\": \"tab\there\"}", "control character in a string"),
        (#"{"a": 1e999}"#, "number out of range"),
        ("", "unexpected end of input; expected a value at line 1, column 1"),
    ])
    func refusesMalformedJSON(text: String, expected: String) {
        let message = error(text)
        #expect(message?.hasPrefix("test.json: malformed JSON: ") == true, "\(String(describing: message))")
        #expect(message?.contains(expected) == true, "\(String(describing: message)) should contain \(expected)")
    }

    /// Numbers read on the short path and on `Double(_:)`'s are the same doubles, bit for bit:
    /// coordinates of every length, signs, exponents and the edges of the short path.
    @Test func readsNumbersAsDoubleDoes() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "0.0", "-0.0", "1", "9007199254740992", "9007199254740993", "-9007199254740993", "1e22", "1e23", "1.5e-22",
            "1.5e-23", "123456789012345678", "0.000000000000000000001", "4.35", "0.1", "0.3", "52.2072", "-0.141234", "1E5", "2e+3",
            "17e-0", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
        ]
        for _ in 0..<5_000 {
            let decimals = Int.random(in: 0...12, using: &generator)
            let value = Double.random(in: -180...180, using: &generator)
            texts.append(String(format: "%.\(decimals)f", value))
            texts.append(String(format: "%.\(decimals)e", value))
        }
        let parsed = try parse("[" + texts.joined(separator: ", ") + "]")
        guard case .array(let numbers) = parsed else { Issue.record("not an array: \(parsed)"); return }
        for (text, number) in zip(texts, numbers) {
            guard case .number(let value) = number, let expected = Double(text) else { Issue.record("\(text) read as \(number)"); continue }
            #expect(value.bitPattern == expected.bitPattern, "\(text) read as \(value), not \(expected)")
        }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(error(deep)?.contains("nesting deeper than 256 levels") == true)
    }

    @Test func refusesInvalidUTF8() {
        var bytes = Array(#"{"a": "x"}"#.utf8)
        bytes[7] = 0xFF
        #expect(throws: JSONFieldError.self) { try JSONValue.parse(Data(bytes), documentName: "test.json") }
    }
}

@Suite struct JSONObjectReaderTests {
    func reader(_ text: String) throws -> JSONObjectReader {
        try JSONObjectReader(JSONValue.parse(Data(text.utf8), documentName: "t.json"), path: "camera")
    }

    @Test func namesUnknownFieldsAndTheAllowedOnes() throws {
        let camera = try reader(#"{"zoom": 3, "centre": {}}"#)
        #expect(throws: JSONFieldError(path: "camera.centre", message: "unknown field; allowed fields are center, zoom")) {
            try camera.rejectUnknownFields(allowed: ["center", "zoom"])
        }
    }

    @Test func checksRangesAndTypes() throws {
        let camera = try reader(#"{"zoom": 20, "name": 5, "whole": 2.5}"#)
        #expect(throws: JSONFieldError(path: "camera.zoom", message: "20 is outside the allowed range 0...19")) {
            try camera.number("zoom", in: 0...19)
        }
        #expect(throws: JSONFieldError(path: "camera.name", value: .number(5), allowed: "a string")) {
            try camera.string("name")
        }
        #expect(throws: JSONFieldError(path: "camera.whole", value: .number(2.5), allowed: "a whole number in 1...3")) {
            try camera.integer("whole", in: 1...3)
        }
        #expect(throws: JSONFieldError(path: "camera.missing", value: nil, allowed: "a string")) {
            try camera.requiredString("missing")
        }
    }
}
