/// A transit journey that cannot be drawn from its feed: the field of the request at fault
/// (such as `legs[1].alight`), the value, and what is allowed.
public struct TransitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field's path inside the transit request, such as `legs[1].alight`; empty for the
    /// request as a whole.
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}
