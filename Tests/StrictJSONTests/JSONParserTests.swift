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
