/// A JSON input that is malformed or has a field with a value that is not allowed.
/// The message names the field's path, the value found and what is allowed.
public struct JSONFieldError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The dotted path of the field, such as `camera.center.lat` or `route.coordinates[3]`.
    public let path: String
    public let description: String

    /// A field whose value is not allowed.
    public init(path: String, value: JSONValue?, allowed: String) {
        self.path = path
        if let value {
            description = "\(path): \(value.summary) is not allowed; expected \(allowed)"
        } else {
            description = "\(path): missing; expected \(allowed)"
        }
    }

    /// A field with a free-form complaint, such as an out-of-range value.
    public init(path: String, message: String) {
        self.path = path
        description = "\(path): \(message)"
    }

    /// A document that is not JSON at all.
    public init(malformed documentName: String, reason: String) {
        path = ""
        description = "\(documentName): malformed JSON: \(reason)"
    }
}
