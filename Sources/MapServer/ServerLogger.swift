import BlockingWork
import Foundation
import Logging
import Metrics
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
            case .text: TextLogHandler(label: label)
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

    /// How a line tells its time.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let fixedFields: Set<String> = ["time", "level", "message"]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        StandardError.write(Self.line(time: Date(), level: event.level, message: event.message.description, fields: fields(of: event)))
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

extension LogHandler {
    /// The fields one event's line carries: the handler's metadata, then its provider's, then the
    /// event's own, each overriding the one before, and the event's error as `error`.
    func fields(of event: LogEvent) -> Logger.Metadata {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let given = event.metadata { fields.merge(given) { $1 } }
        if let error = event.error { fields["error"] = .string("\(error)") }
        return fields
    }
}

/// Writes each log event to standard error as swift-log's `StreamLogHandler` writes it (see
/// `TextLogLine`), through `StandardError`, so that a standard error nobody reads never holds up
/// the thread that logs.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        StandardError.write(TextLogLine.line(
            time: Date(), level: event.level, label: label, fields: fields(of: event), source: event.source, message: event.message.description
        ))
    }
}

/// swift-log's text line (`StreamLogHandler`), for lines MapFrame writes itself: the local time to
/// the second with its offset, the level, the label, the metadata as `name=value` in name order,
/// the source module in brackets, and the message.
enum TextLogLine {
    static func line(time: Date, level: Logger.Level, label: String, fields: Logger.Metadata, source: String, message: String) -> String {
        let metadata = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(stamp(time)) \(level) \(label):\(metadata.isEmpty ? "" : " " + metadata) [\(source)] \(message)\n"
    }

    /// How a line tells its time: the local time to the second, with its offset from UTC.
    static func stamp(_ time: Date) -> String {
        var seconds = time_t(time.timeIntervalSince1970)
        var local = tm()
        localtime_r(&seconds, &local)
        var buffer = [Int8](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

/// Standard error for the server's events (warnings and worse, and the rest at the levels that
/// include them): a line is handed over and written, whole, by a thread of its own, so that
/// lines from different threads never interleave and a standard error nobody reads (a full pipe)
/// never holds up an event loop. What waits is bounded (256 KiB); a line that finds it full is
/// dropped and counted in `mapframe_log_dropped_total`.
enum StandardError {
    static let maxWaitingBytes = 256 << 10

    private struct Waiting {
        var lines: [String] = []
        var bytes = 0
        /// Whether the writer's thread has lines to write, or is writing.
        var writing = false
    }

    private static let waiting = Mutex(Waiting())
    private static let writer = BlockingPool(threads: 1, queueLimit: nil)
    private static let dropped: Counter = {
        _ = MapServerApp.metricsRegistry
        return Counter(label: "mapframe_log_dropped_total")
    }()

    /// Hands `line` over, or drops and counts it when the waiting lines are full.
    static func write(_ line: String) {
        let (taken, starts) = waiting.withLock { waiting -> (Bool, Bool) in
            guard waiting.bytes + line.utf8.count <= maxWaitingBytes else { return (false, false) }
            waiting.lines.append(line)
            waiting.bytes += line.utf8.count
            defer { waiting.writing = true }
            return (true, !waiting.writing)
        }
        guard taken else { return dropped.increment() }
        if starts { writer.threads.submit { _ in drain() } }
    }

    /// Waits up to `limit` for what is waiting to be written: a write held up by a standard error
    /// nobody reads is left to the process's exit.
    static func flush(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while waiting.withLock({ $0.writing }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// On the writer's thread: writes what waits until nothing does.
    private static func drain() {
        while true {
            let lines = waiting.withLock { waiting -> [String] in
                defer { (waiting.lines, waiting.bytes) = ([], 0) }
                if waiting.lines.isEmpty { waiting.writing = false }
                return waiting.lines
            }
            guard !lines.isEmpty else { return }
            var bytes = Array(lines.joined().utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
