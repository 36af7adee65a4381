import Foundation
import BlockingWork
import Metrics
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The request lines' log (`serve --access-log`): a request hands its facts over and goes on. A
/// task of the log's own takes what is waiting when 64 KiB have gathered, and at least every
/// 200 ms, and formats and writes it on a thread of its own (the log's one-thread `BlockingPool`,
/// so batches are written in order). Requests never wait for the log: what is waiting is bounded
/// (8,192 lines or 1 MiB), and a line that finds it full is dropped and counted
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
    static let flushInterval = Duration.milliseconds(200)

    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let waiting = WaitingLines()
    /// Tells the drain to take what is waiting: every `flushInterval`, and when `flushBytes` gather.
    private let wakeUps: AsyncStream<Void>.Continuation
    private let ticker: Task<Void, Never>
    private let writer = BlockingPool(threads: 1, queueLimit: nil)
    private let dropped: Counter

    /// Opens the destination (a file is created if need be and appended to) and starts the
    /// drain; nil for `off`.
    public init?(_ destination: Destination, format: LogFormat) throws(AccessLogError) {
        switch destination {
        case .off:
            return nil
        case .standardError:
            (descriptor, closesDescriptor) = (STDERR_FILENO, false)
        case .file(let path):
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw AccessLogError(
                    description: "--access-log: '\(path)' cannot be opened for appending (\(String(cString: strerror(errno)))); expected a file that can be appended to, - for standard error, or off"
                )
            }
            (descriptor, closesDescriptor) = (opened, true)
        }
        // The metrics system is set up before the counter is made, or it would count for nobody.
        _ = MapServerApp.metricsRegistry
        dropped = Counter(label: "mapframe_request_log_dropped_total")
        let (stream, wakeUps) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = wakeUps
        ticker = Task {
            while (try? await Task.sleep(for: Self.flushInterval)) != nil { wakeUps.yield() }
        }
        // The drain: it ends once the log is closed (or let go) and what waited is written.
        Task { [waiting, writer, descriptor] in
            // Room for as many lines as the last batch had, at least.
            var batchSize = 0
            for await _ in stream {
                let batch = waiting.take(reservingCapacity: max(batchSize, 64))
                batchSize = batch.count
                await Self.write(batch, on: writer, to: descriptor, format: format)
            }
            // The stream ends when the log is closed: what came meanwhile is written too.
            await Self.write(waiting.take(reservingCapacity: 0), on: writer, to: descriptor, format: format)
            waiting.markDrained()
        }
    }

    /// Hands a request's line over, or drops and counts it when the waiting lines are full.
    func append(_ entry: Entry) {
        switch waiting.add(entry) {
        case .dropped: dropped.increment()
        case .waiting: break
        case .due: wakeUps.yield()
        }
    }

    /// Writes what is waiting and stops, waiting for the last write up to a second: a write held
    /// up by a destination nobody reads is left to the process's exit.
    public func close() async {
        ticker.cancel()
        wakeUps.finish()
        let deadline = ContinuousClock.now + .seconds(1)
        while !waiting.isDrained, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        guard waiting.isDrained else { return }
        await writer.shutdown()
        if closesDescriptor { Glibc.close(descriptor) }
    }

    deinit {
        ticker.cancel()
        wakeUps.finish()
    }

    /// Writes `batch`, formatted, on the writer's thread.
    private static func write(_ batch: [Entry], on writer: BlockingPool, to descriptor: Int32, format: LogFormat) async {
        guard !batch.isEmpty else { return }
        _ = try? await writer.run {
            var encoder = RequestLineEncoder(format: format, reservingCapacity: batch.count * 192)
            for entry in batch { encoder.append(entry) }
            write(encoder.bytes, to: descriptor)
        }
    }

    /// The duration to the microsecond below, as the lines tell it.
    static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    /// Writes all of `bytes`, or as much as the destination takes before it fails.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// Why the access log cannot be opened.
public struct AccessLogError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// The lines waiting for the drain, bounded by `AccessLog.maxWaitingLines` and `maxWaitingBytes`,
/// and whether the drain has ended.
private final class WaitingLines: Sendable {
    /// What became of a line handed over.
    enum Added {
        /// The waiting lines were full.
        case dropped
        case waiting
        /// Taken, and `AccessLog.flushBytes` are now waiting, as they were not before: time to
        /// write them.
        case due
    }

    private struct Lines {
        var entries: [AccessLog.Entry] = []
        var bytes = 0
        /// Whether the drain has written the last lines, the log being closed.
        var drained = false
    }

    private let lines = Mutex(Lines())

    func add(_ entry: AccessLog.Entry) -> Added {
        let cost = entry.target.utf8.count + 96
        return lines.withLock { lines in
            guard lines.entries.count < AccessLog.maxWaitingLines, lines.bytes + cost <= AccessLog.maxWaitingBytes else { return .dropped }
            lines.entries.append(entry)
            let wasDue = lines.bytes >= AccessLog.flushBytes
            lines.bytes += cost
            return lines.bytes >= AccessLog.flushBytes && !wasDue ? .due : .waiting
        }
    }

    /// The lines waiting, which wait no more. The lines that come next gather in an array with
    /// room for `capacity`, made here rather than grown while the lock is held.
    func take(reservingCapacity capacity: Int) -> [AccessLog.Entry] {
        var next: [AccessLog.Entry] = []
        next.reserveCapacity(capacity)
        return lines.withLock { lines in
            swap(&lines.entries, &next)
            lines.bytes = 0
            return next
        }
    }

    func markDrained() {
        lines.withLock { $0.drained = true }
    }

    var isDrained: Bool {
        lines.withLock { $0.drained }
    }
}
