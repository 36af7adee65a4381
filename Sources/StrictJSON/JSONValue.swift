import Foundation

/// A parsed JSON document, kept as plain values so that readers can check every field
/// and report unknown ones instead of silently ignoring them.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON bytes strictly (RFC 8259: no trailing commas, comments or duplicate keys).
    /// Malformed JSON throws a `JSONFieldError` giving the line and column.
    public static func parse(_ data: Data, documentName: String) throws(JSONFieldError) -> JSONValue {
        var parser = JSONParser(data)
        do {
            return try parser.parseDocument()
        } catch {
            throw JSONFieldError(malformed: documentName, reason: error.description)
        }
    }

    /// A short rendering of the value for error messages.
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return JSONValue.format(value)
        case .string(let value): return (value.count > 60 ? value.prefix(60) + "…" : value).debugDescription
        case .array(let values): return "an array of \(values.count)"
        case .object: return "an object"
        }
    }

    /// Formats a number without a trailing ".0" when it is whole.
    public static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
