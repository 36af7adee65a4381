import Foundation

/// A column of a table, found by name in its header.
struct Column {
    let name: String
    let index: Int
}

/// A table's header row: which column is where. Names are matched exactly, after trimming the
/// spaces some feeds leave around them; columns the reader does not know are ignored.
struct TableHeader {
    let file: String
    let names: [String]
    private let indices: [String: Int]

    init(file: String, names: [String]) throws(GTFSError) {
        var indices: [String: Int] = [:]
        for (index, name) in names.enumerated() where !name.isEmpty {
            guard indices.updateValue(index, forKey: name) == nil else {
                throw GTFSError(file: file, line: 1, column: name, message: "the header names this column twice; allowed once")
            }
        }
        self.file = file
        self.names = names
        self.indices = indices
    }

    /// The column called `name`; an error when the header lacks it.
    func required(_ name: String) throws(GTFSError) -> Column {
        guard let column = optional(name) else {
            throw GTFSError(
                file: file, line: 1, column: name,
                message: "the header has no such column; it is required (the header has \(names.joined(separator: ", ")))"
            )
        }
        return column
    }

    /// The column called `name`, or nil when the header lacks it.
    func optional(_ name: String) -> Column? {
        indices[name].map { Column(name: name, index: $0) }
    }
}

/// One GTFS table read a row at a time: its header, then rows that each have as many fields as
/// the header. Blank lines are skipped.
struct TableReader {
    let header: TableHeader
    private var rows: CSVRows

    /// Opens `url`, named `file` in errors, and reads its header. `byteLimit` bounds the file's
    /// size, for the tables that are read whole; nil for those read a row at a time.
    init(url: URL, file: String, byteLimit: Int?) throws(GTFSError) {
        var rows = CSVRows(try RowRuns(url: url, file: file, byteLimit: byteLimit))
        guard let (names, _) = try rows.next() else {
            throw GTFSError(file: file, line: 1, message: "is empty; a header row naming the columns is required")
        }
        header = try TableHeader(file: file, names: names.map { $0.trimmingCharacters(in: .whitespaces) })
        self.rows = rows
    }

    /// The next row; nil at the end of the file.
    mutating func next() throws(GTFSError) -> TableRow? {
        while let (fields, line) = try rows.next() {
            if fields == [""] { continue }
            guard fields.count == header.names.count else {
                throw GTFSError(
                    file: header.file, line: line,
                    message: "the row has \(fields.count) fields; allowed \(header.names.count), as the header has"
                )
            }
            return TableRow(file: header.file, line: line, fields: fields)
        }
        return nil
    }
}
