/// Reads the fields of one JSON object by name, checking their types and ranges, and refuses
/// fields it was not told about. Every error carries the field's full path.
public struct JSONObjectReader: Sendable {
    /// The object's own path; empty for the document root.
    public let path: String
    public let fields: [String: JSONValue]

    public init(_ value: JSONValue, path: String) throws(JSONFieldError) {
        guard case .object(let fields) = value else {
            throw JSONFieldError(path: path.isEmpty ? "document" : path, value: value, allowed: "an object")
        }
        self.path = path
        self.fields = fields
    }

    /// The path of a field of this object.
    public func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Throws on the first field not in `allowed`, naming the allowed ones.
    public func rejectUnknownFields(allowed: [String]) throws(JSONFieldError) {
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw JSONFieldError(path: path(of: key), message: "unknown field; allowed fields are \(allowed.joined(separator: ", "))")
        }
    }

    public func has(_ key: String) -> Bool { fields[key] != nil }

    public func required(_ key: String, expected: String) throws(JSONFieldError) -> JSONValue {
        guard let value = fields[key] else { throw JSONFieldError(path: path(of: key), value: nil, allowed: expected) }
        return value
    }

    public func object(_ key: String) throws(JSONFieldError) -> JSONObjectReader? {
        guard let value = fields[key] else { return nil }
        return try JSONObjectReader(value, path: path(of: key))
    }

    public func requiredObject(_ key: String) throws(JSONFieldError) -> JSONObjectReader {
        try JSONObjectReader(required(key, expected: "an object"), path: path(of: key))
    }

    public func array(_ key: String) throws(JSONFieldError) -> [JSONValue]? {
        guard let value = fields[key] else { return nil }
        guard case .array(let values) = value else { throw JSONFieldError(path: path(of: key), value: value, allowed: "an array") }
        return values
    }

    public func string(_ key: String) throws(JSONFieldError) -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let string) = value else { throw JSONFieldError(path: path(of: key), value: value, allowed: "a string") }
        return string
    }

    public func requiredString(_ key: String) throws(JSONFieldError) -> String {
        guard let string = try string(key) else { throw JSONFieldError(path: path(of: key), value: nil, allowed: "a string") }
        return string
    }

    public func bool(_ key: String) throws(JSONFieldError) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let flag) = value else { throw JSONFieldError(path: path(of: key), value: value, allowed: "true or false") }
        return flag
    }

    /// A number within `range`, or nil when absent.
    public func number(_ key: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double? {
        guard let value = fields[key] else { return nil }
        return try JSONObjectReader.number(value, path: path(of: key), in: range)
    }

    public func requiredNumber(_ key: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double {
        guard let number = try number(key, in: range) else {
            throw JSONFieldError(path: path(of: key), value: nil, allowed: "a number in \(JSONObjectReader.describe(range))")
        }
        return number
    }

    /// A whole number within `range`, or nil when absent.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
        guard let value = fields[key] else { return nil }
        return try JSONObjectReader.integer(value, path: path(of: key), in: range)
    }

    public func requiredInteger(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
        guard let number = try integer(key, in: range) else {
            throw JSONFieldError(path: path(of: key), value: nil, allowed: "a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    /// Checks that a value is a number within `range`; `path` is only worked out for an error.
    public static func number(_ value: JSONValue, path: @autoclosure () -> String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double {
        guard case .number(let number) = value else {
            throw JSONFieldError(path: path(), value: value, allowed: "a number in \(describe(range))")
        }
        guard range.contains(number) else {
            throw JSONFieldError(path: path(), message: "\(JSONValue.format(number)) is outside the allowed range \(describe(range))")
        }
        return number
    }

    /// Checks that a value is a whole number within `range`.
    public static func integer(_ value: JSONValue, path: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
        let allowed = "a whole number in \(range.lowerBound)...\(range.upperBound)"
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e15 else {
            throw JSONFieldError(path: path, value: value, allowed: allowed)
        }
        guard range.contains(Int(number)) else {
            throw JSONFieldError(path: path, message: "\(Int(number)) is outside the allowed range \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(number)
    }

    public static func describe(_ range: ClosedRange<Double>) -> String {
        "\(JSONValue.format(range.lowerBound))...\(JSONValue.format(range.upperBound))"
    }
}

extension JSONObjectReader {
    /// A string that must be present and not empty, such as a name or a file path.
    public func requiredNonEmptyString(_ key: String) throws(JSONFieldError) -> String {
        let allowed = "a non-empty string"
        let value = try required(key, expected: allowed)
        guard case .string(let string) = value, !string.isEmpty else {
            throw JSONFieldError(path: path(of: key), value: value, allowed: allowed)
        }
        return string
    }
}
