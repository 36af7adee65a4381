import Payloads
import StrictJSON

/// Why a script could not be read or played. Field paths look like `steps[3].tap.x`.
public enum ScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The script file (or a file it names) could not be read.
    case unreadable(path: String, reason: String)
    /// The script is not JSON, or a field is missing, unknown or has a value that is not
    /// allowed. The problem names the field path, the value and what is allowed.
    case invalid(JSONFieldError)
    /// A payload file named by a step was refused.
    case payload(field: String, path: String, error: PayloadError)
    /// A file a step reaches through a payload (a photo's image) could not be read or decoded.
    case unreadableFile(field: String, path: String, reason: String)

    /// The field the error concerns, when it concerns one.
    public var field: String? {
        switch self {
        case .invalid(let problem): problem.path.isEmpty ? nil : problem.path
        case .payload(let field, _, _), .unreadableFile(let field, _, _): field
        case .unreadable: nil
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "\(path): cannot be read: \(reason)"
        case .invalid(let problem):
            problem.description
        case .payload(let field, let path, let error):
            "\(field): \(path): \(error)"
        case .unreadableFile(let field, let path, let reason):
            "\(field): \(path): cannot be read: \(reason)"
        }
    }
}
