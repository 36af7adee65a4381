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

    /// Parses JSON bytes. Malformed JSON throws a `JSONFieldError` with the parser's position.
    public static func parse(_ data: Data, documentName: String) throws(JSONFieldError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let error as DecodingError {
            throw JSONFieldError(malformed: documentName, reason: JSONValue.describe(error))
        } catch {
            throw JSONFieldError(malformed: documentName, reason: "\(error)")
        }
    }

    /// A short rendering of the value for error messages.
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return JSONValue.format(value)
        case .string(let value): return "\"\(value.count > 60 ? value.prefix(60) + "…" : value)\""
        case .array(let values): return "an array of \(values.count)"
        case .object: return "an object"
        }
    }

    /// Formats a number without a trailing ".0" when it is whole.
    public static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        default:
            return "\(error)"
        }
    }
}

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
