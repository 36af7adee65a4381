import Foundation

/// Reads input files no larger than a limit, without ever holding more than the limit (and a
/// byte) in memory, whatever size the file is.
public enum BoundedFile {
    /// The largest scene file: a 100,000-point route is about 3 MB of JSON.
    public static let maxSceneBytes = 16_000_000
    /// The largest script file: `ScriptParser.maxSteps` steps with room to spare.
    public static let maxScriptBytes = 1_000_000

    public struct TooLarge: Error, CustomStringConvertible {
        public let limit: Int
        public var description: String { "larger than \(limit) bytes, the limit for this kind of file" }
    }

    /// The file's bytes; throws `TooLarge` past `maxBytes`, or the system's error.
    public static func contents(of url: URL, maxBytes: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        guard data.count <= maxBytes else { throw TooLarge(limit: maxBytes) }
        return data
    }
}
