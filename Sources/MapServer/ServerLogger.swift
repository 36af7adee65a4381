import Foundation
import Logging
import Synchronization

/// How the server writes its log lines to standard error (`serve --log-format`).
public enum LogFormat: String, CaseIterable, Sendable {
    /// swift-log's own line: time, level, label, the metadata as `name=value`, source and message.
    case text
    /// One JSON object a line (see `JSONLogHandler`), for log collectors.
    case json
}

extension Logger {
    /// The server's logger: events at `level` and above, to standard error in `format`.
    public static func mapFrameServer(level: Logger.Level, format: LogFormat) -> Logger {
        var logger = Logger(label: "mapframe") { label in
            switch format {
            case .text: StreamLogHandler.standardError(label: label)
            case .json: JSONLogHandler()
            }
        }
        logger.logLevel = level
        return logger
    }
}

/// Writes each log event to standard error as one JSON object on a line of its own: `time`
/// (ISO 8601 in UTC, to the millisecond), `level` and `message` first, then each metadata field
/// as a field of its own, whole numbers and decimals as JSON numbers. A metadata field called
/// `time`, `level` or `message` is left out rather than given twice.
///
/// swift-log ships only a text handler, and Foundation's JSON writers cannot put these three
/// fields first or write a line without building a dictionary of `Any` for it.
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let fixedFields: Set<String> = ["time", "level", "message"]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let given = event.metadata { fields.merge(given) { $1 } }
        if let error = event.error { fields["error"] = .string("\(error)") }
        StandardError.write(Self.line(time: Date(), level: event.level, message: event.message.description, fields: fields))
    }

    /// One event's line, newline included.
    static func line(time: Date, level: Logger.Level, message: String, fields: Logger.Metadata) -> String {
        var line = "{\"time\":\"\(time.formatted(timeFormat))\",\"level\":\"\(level.rawValue)\",\"message\":"
        JSONText.appendString(message, to: &line)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where !fixedFields.contains(name) {
            line += ","
            JSONText.appendString(name, to: &line)
            line += ":"
            JSONText.append(value, to: &line)
        }
        line += "}\n"
        return line
    }
}

/// swift-log's text line (`StreamLogHandler`), for lines MapFrame writes itself: the local time to
/// the second with its offset, the level, the label, the metadata as `name=value` in name order,
/// the source module in brackets, and the message.
enum TextLogLine {
    static func line(time: Date, level: Logger.Level, label: String, fields: Logger.Metadata, source: String, message: String) -> String {
        var seconds = time_t(time.timeIntervalSince1970)
        var local = tm()
        localtime_r(&seconds, &local)
        var buffer = [Int8](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        let stamp = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let metadata = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(stamp) \(level) \(label):\(metadata.isEmpty ? "" : " " + metadata) [\(source)] \(message)\n"
    }
}

/// JSON text for log metadata.
private enum JSONText {
    static func append(_ value: Logger.MetadataValue, to text: inout String) {
        switch value {
        case .string(let string):
            appendString(string, to: &text)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as Int: text += String(number)
            case let number as Double where number.isFinite: text += number.description
            case let flag as Bool: text += flag ? "true" : "false"
            default: appendString(convertible.description, to: &text)
            }
        case .array(let values):
            text += "["
            for (index, element) in values.enumerated() {
                if index > 0 { text += "," }
                append(element, to: &text)
            }
            text += "]"
        case .dictionary(let fields):
            text += "{"
            for (index, (name, element)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text += "," }
                appendString(name, to: &text)
                text += ":"
                append(element, to: &text)
            }
            text += "}"
        }
    }

    /// `string` as a JSON string: quoted, with quotes, backslashes and control characters escaped.
    static func appendString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

/// Standard error, written a whole line at a time so that lines logged at once from different
/// threads never interleave.
private enum StandardError {
    private static let lock = Mutex(())

    static func write(_ line: String) {
        lock.withLock { _ in try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }
    }
}
