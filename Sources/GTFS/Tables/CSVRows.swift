import CSV
import Foundation

/// A file's CSV rows, read by CSV.swift from `RowRuns`, each with the physical line it starts on.
/// CSV.swift does not count lines, so this does: a row takes one line plus one for each line break
/// inside its quoted fields (only quoted fields hold line breaks).
struct CSVRows {
    private var runs: RowRuns
    private var run: CSVReader?
    private var runHasQuotes = false
    private var nextLine = 1

    init(_ runs: RowRuns) {
        self.runs = runs
    }

    /// The next row's fields and the line it starts on; nil at the end of the file.
    mutating func next() throws(GTFSError) -> (fields: [String], line: Int)? {
        while true {
            if let fields = run?.next() {
                let line = nextLine
                nextLine += runHasQuotes ? 1 + fields.reduce(0) { $0 + Self.lineBreaks(in: $1) } : 1
                return (fields, line)
            }
            guard let next = try runs.next() else { return nil }
            runHasQuotes = next.hasQuotes
            do {
                run = try CSVReader(string: next.text, hasHeaderRow: false)
            } catch {
                throw GTFSError(file: runs.file, line: nextLine, message: "cannot be read as CSV: \(error)")
            }
        }
    }

    /// CR LF, LF and a lone CR each end a line.
    private static func lineBreaks(in field: String) -> Int {
        var count = 0
        var previous: UInt8 = 0
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\r") || (byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")) {
                count += 1
            }
            previous = byte
        }
        return count
    }
}
