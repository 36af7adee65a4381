/// A feed that cannot be used: which file, which line and column, the value found and what is
/// allowed, such as `stop_times.txt line 12, column arrival_time: "8:3" is not a time; allowed H:MM:SS`.
public struct GTFSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The feed file, such as `stop_times.txt`, or the feed's path when the problem is the whole feed.
    public var file: String
    /// The line in the file, counting the header as line 1; nil when the problem is not one line's.
    public var line: Int?
    /// The column's name from the header; nil when the problem is not one column's.
    public var column: String?
    /// What is wrong and what is allowed.
    public var message: String

    public init(file: String, line: Int? = nil, column: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var place = file
        if let line { place += " line \(line)" }
        if let column { place += (line == nil ? " " : ", ") + "column \(column)" }
        return "\(place): \(message)"
    }
}
