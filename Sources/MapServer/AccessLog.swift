import Foundation
import Logging
import Metrics
#if canImport(Glibc)
import Glibc
#endif

/// The request lines' log (`serve --access-log`): a request hands its facts over and goes on, and
/// a thread of the log's own formats them and writes them in batches, flushed when 64 KiB are
/// waiting and at least every 200 ms. Requests never wait for the log: what is waiting is
/// bounded (8,192 lines or 1 MiB), and a line that finds it full is dropped and counted
/// (`mapframe_request_log_dropped_total`), as when the log is a pipe nobody reads.
public final class AccessLog: Sendable {
    /// Where request lines go: `FILE`, `-` for standard error, or `off`.
    public enum Destination: Sendable, Equatable {
        case standardError
        case file(String)
        case off

        /// Reads `serve --access-log`'s value.
        public init(argument: String) {
            switch argument {
            case "-": self = .standardError
            case "off": self = .off
            default: self = .file(argument)
            }
        }
    }

    /// One answered request, as the request's task hands it over.
    struct Entry: Sendable {
        var method: String
        /// The path and query as asked, not yet redacted: that is the writer's work.
        var target: String
        var status: Int
        var bodyBytes: Int
        var duration: Duration
        var time: Date
    }

    static let maxWaitingLines = 8_192
    static let maxWaitingBytes = 1 << 20
    static let flushBytes = 64 << 10
    static let flushInterval: TimeInterval = 0.2

    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let queue: WaitingLines
    private let dropped: Counter

    /// Opens the destination (a file is created if need be and appended to) and starts the
    /// writing thread; nil for `off`.
    public init?(_ destination: Destination, format: LogFormat) throws(AccessLogError) {
        switch destination {
        case .off:
            return nil
        case .standardError:
            (descriptor, closesDescriptor) = (STDERR_FILENO, false)
        case .file(let path):
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw AccessLogError(description: "--access-log: \(path) cannot be opened for appending (\(String(cString: strerror(errno))))")
            }
            (descriptor, closesDescriptor) = (opened, true)
        }
        // The metrics system is set up before the counter is made, or it would count for nobody.
        _ = MapServerApp.metricsRegistry
        dropped = Counter(label: "mapframe_request_log_dropped_total")
        let queue = WaitingLines()
        self.queue = queue
        let descriptor = descriptor
        let thread = Thread { Self.writeUntilStopped(queue, to: descriptor, format: format) }
        thread.name = "mapframe-access-log"
        thread.start()
    }

    /// Hands a request's line over, or drops and counts it when the waiting lines are full.
    func append(_ entry: Entry) {
        if !queue.append(entry) { dropped.increment() }
    }

    /// Writes what is waiting and stops the thread, waiting for it up to a second: a writer held
    /// up by a destination nobody reads is left to the process's exit.
    public func close() {
        queue.stop()
        if queue.waitUntilStopped(before: Date(timeIntervalSinceNow: 1)), closesDescriptor { Glibc.close(descriptor) }
    }

    private static func writeUntilStopped(_ queue: WaitingLines, to descriptor: Int32, format: LogFormat) {
        while let batch = queue.nextBatch() {
            var text = ""
            for entry in batch { text += line(for: entry, format: format) }
            write(text, to: descriptor)
        }
        queue.markStopped()
    }

    /// The line `RequestLog` has always written: `request` at info, with the redacted path.
    static func line(for entry: Entry, format: LogFormat) -> String {
        let fields: Logger.Metadata = [
            "method": .string(entry.method),
            "path": .string(RequestLog.redacted(entry.target)),
            "status": .stringConvertible(entry.status),
            "bytes": .stringConvertible(entry.bodyBytes),
            "duration_ms": .stringConvertible(Double(microseconds(entry.duration)) / 1000),
        ]
        switch format {
        case .text: return TextLogLine.line(time: entry.time, level: .info, label: "mapframe", fields: fields, source: "MapServer", message: "request")
        case .json: return JSONLogHandler.line(time: entry.time, level: .info, message: "request", fields: fields)
        }
    }

    private static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    /// Writes all of `text`, or as much as the destination takes before it fails.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Why the access log cannot be opened.
public struct AccessLogError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// The lines waiting for the writer, bounded, and the writer's wake-ups.
private final class WaitingLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [AccessLog.Entry] = []
    private var waitingBytes = 0
    private var stopping = false
    private var stopped = false

    /// False when the waiting lines are full.
    func append(_ entry: AccessLog.Entry) -> Bool {
        let cost = entry.target.utf8.count + 96
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, entries.count < AccessLog.maxWaitingLines, waitingBytes + cost <= AccessLog.maxWaitingBytes else { return false }
        entries.append(entry)
        waitingBytes += cost
        if waitingBytes >= AccessLog.flushBytes { condition.broadcast() }
        return true
    }

    /// The lines waiting, once there are enough of them or the flush interval has passed; nil
    /// once stopping with nothing left.
    func nextBatch() -> [AccessLog.Entry]? {
        condition.lock()
        defer { condition.unlock() }
        let due = Date(timeIntervalSinceNow: AccessLog.flushInterval)
        while !stopping, waitingBytes < AccessLog.flushBytes, condition.wait(until: due) {}
        if entries.isEmpty { return stopping ? nil : [] }
        let batch = entries
        entries.removeAll(keepingCapacity: true)
        waitingBytes = 0
        return batch
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    func markStopped() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the writer stopped before `deadline`.
    func waitUntilStopped(before deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped, condition.wait(until: deadline) {}
        return stopped
    }
}
