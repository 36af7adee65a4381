import Foundation

/// A table file read as runs of whole rows, a block at a time, so that `stop_times.txt` with
/// millions of rows is never held whole and each run can go to CSV.swift's string reader, which
/// is several times faster than its stream reader.
///
/// A run ends after a line feed outside quotes, which is after an even number of `"` since the
/// start of the file: RFC 4180 and GTFS write a quote inside a quoted field as two. This finds
/// only where rows end; the fields are CSV.swift's to read.
struct RowRuns {
    /// Whole rows of the file, and whether any field among them is quoted.
    struct Run {
        var text: String
        /// False when the run has no `"`, so that no field in it spans lines.
        var hasQuotes: Bool
    }

    /// How much is read from the file at a time.
    static let blockSize = 1 << 20
    /// The longest row allowed. GTFS rows are a few hundred bytes; a longer one is most often a
    /// quoted field whose closing quote is missing, which would otherwise swallow the file.
    static let maximumRowBytes = 1 << 20

    let file: String
    private let handle: FileHandle
    /// The most bytes the file may hold; nil for no limit.
    private let byteLimit: Int?
    private var bytesRead = 0
    private var atEnd = false
    /// Bytes read and not yet handed out, looked at for quotes and line feeds up to `scanned`.
    private var pending: [UInt8] = []
    private var scanned = 0
    private var insideQuotes = false
    /// Where the last whole row in `pending` ends, 0 when none does yet.
    private var rowsEnd = 0
    /// What `pending` holds before `rowsEnd`, and between `rowsEnd` and `scanned`.
    private var before = Tally()
    private var after = Tally()
    /// The physical line `pending` starts on, for errors.
    private var pendingLine = 1

    /// Quotes and line feeds in a stretch of `pending`.
    private struct Tally {
        var lineFeeds = 0
        var hasQuotes = false

        mutating func add(_ other: Tally) {
            lineFeeds += other.lineFeeds
            hasQuotes = hasQuotes || other.hasQuotes
        }
    }

    /// Opens `url`, named `file` in errors; `byteLimit` bounds what a table read whole may hold,
    /// checked against the file's size before any of it is read, and counted again as it is read.
    init(url: URL, file: String, byteLimit: Int?) throws(GTFSError) {
        if let byteLimit, let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize, size > byteLimit {
            throw GTFSError(file: file, message: "is \(FeedLimits.describe(size)); allowed up to \(FeedLimits.describe(byteLimit))")
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw GTFSError(file: file, message: "cannot be opened for reading")
        }
        self.file = file
        self.handle = handle
        self.byteLimit = byteLimit
    }

    /// The next run of whole rows, each ending in a line break except perhaps the file's last;
    /// nil at the end of the file.
    mutating func next() throws(GTFSError) -> Run? {
        while true {
            if rowsEnd > 0 {
                return try takeRun(upTo: rowsEnd)
            }
            if atEnd {
                guard !pending.isEmpty else { return nil }
                guard !insideQuotes else {
                    throw GTFSError(
                        file: file, line: pendingLine,
                        message: "a quoted field in this row is not closed before the end of the file; allowed \"\" for a quote inside a quoted field"
                    )
                }
                before.add(after)
                after = Tally()
                return try takeRun(upTo: pending.count)
            }
            try readBlock()
        }
    }

    private mutating func readBlock() throws(GTFSError) {
        let block: Data
        do {
            block = try handle.read(upToCount: Self.blockSize) ?? Data()
        } catch {
            throw GTFSError(file: file, message: "cannot be read: \(error.localizedDescription)")
        }
        if block.isEmpty {
            atEnd = true
            return
        }
        let isFirstBlock = bytesRead == 0
        bytesRead += block.count
        if let byteLimit, bytesRead > byteLimit {
            let limit = FeedLimits.describe(byteLimit)
            throw GTFSError(file: file, message: "is larger than \(limit); allowed up to \(limit)")
        }
        pending.append(contentsOf: block)
        if isFirstBlock, pending.starts(with: [0xEF, 0xBB, 0xBF]) {
            pending.removeFirst(3)
        }
        scanForRowEnds()
        if rowsEnd == 0, pending.count > Self.maximumRowBytes {
            throw GTFSError(
                file: file, line: pendingLine,
                message: "the row is longer than \(FeedLimits.describe(Self.maximumRowBytes)); a quoted field may be missing its closing quote"
            )
        }
    }

    private mutating func scanForRowEnds() {
        pending.withUnsafeBufferPointer { bytes in
            for index in scanned..<bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    insideQuotes.toggle()
                    after.hasQuotes = true
                case UInt8(ascii: "\n"):
                    after.lineFeeds += 1
                    if !insideQuotes {
                        rowsEnd = index + 1
                        before.add(after)
                        after = Tally()
                    }
                default:
                    break
                }
            }
        }
        scanned = pending.count
    }

    /// Hands out `pending` up to `end`, which is `rowsEnd` or, at the end of the file, all of it.
    private mutating func takeRun(upTo end: Int) throws(GTFSError) -> Run {
        let bytes = pending[..<end]
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw GTFSError(file: file, line: pendingLine + lineOfFirstInvalidByte(in: bytes), message: "is not UTF-8 text; allowed UTF-8")
        }
        let run = Run(text: text, hasQuotes: before.hasQuotes)
        pendingLine += before.lineFeeds
        before = Tally()
        pending.removeFirst(end)
        scanned = pending.count
        rowsEnd = 0
        return run
    }

    /// How many lines into `bytes` the first one that is not UTF-8 is, counting from 0.
    private func lineOfFirstInvalidByte(in bytes: ArraySlice<UInt8>) -> Int {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return lines.firstIndex { String(bytes: $0, encoding: .utf8) == nil } ?? 0
    }
}
