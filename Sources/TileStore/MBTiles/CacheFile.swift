import Foundation

/// What can be told about a cache file before SQLite opens it: whether it is an SQLite
/// database at all, whether it is in write-ahead-log mode, and whether MapFrame may write it.
/// SQLite itself opens any file, says "file is not a database" only at the first query, and
/// falls back to reading a file it cannot write without a word.
public struct CacheFile {
    let path: String
    let exists: Bool
    /// The file's first 100 bytes (SQLite's header), or all of a shorter file.
    private let header: [UInt8]

    private static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// Reads the header of the file at `path`; a missing file is no error (`exists` says so).
    public init(path: String) throws(CacheError) {
        self.path = path
        exists = FileManager.default.fileExists(atPath: path)
        guard exists else {
            header = []
            return
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            header = [UInt8](try handle.read(upToCount: 100) ?? Data())
        } catch {
            throw CacheError.sqlite(path: path, operation: "open", message: "cannot read the file (\(error.localizedDescription))")
        }
    }

    /// Whether the file exists and holds no bytes: SQLite takes it for an empty database.
    var isEmpty: Bool { exists && header.isEmpty }

    var isSQLite: Bool { header.count == 100 && header.starts(with: Self.sqliteMagic) }

    /// What the file is instead of an SQLite database, for a message.
    var notSQLiteReason: String {
        guard !header.isEmpty else { return "an empty file, not an SQLite database" }
        let start = header.prefix(16)
        let isText = start.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let shown = isText
            ? "\"" + String(decoding: start, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n") + "\""
            : "the bytes " + start.map { String(format: "%02X", $0) }.joined(separator: " ")
        return "not an SQLite database: it starts with \(shown)\(header.count > 16 ? "…" : "")"
    }

    /// Whether the header says write-ahead-log mode (file format versions 2 and 2).
    var usesWriteAheadLog: Bool { isSQLite && header[18] == 2 && header[19] == 2 }

    /// Why the file is cut short, when its header counts more pages than it holds: a file
    /// truncated by hand, a copy broken off, a full disk. Only when no `-wal` file holds pages
    /// yet to be written back, and only where the header's count is current (SQLite 3.7 on).
    public var truncation: String? {
        guard isSQLite, !hasWriteAheadLogPages else { return nil }
        func bigEndian(_ range: Range<Int>) -> Int { header[range].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = bigEndian(16..<18)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = bigEndian(28..<32)
        guard pageCount > 0, bigEndian(24..<28) == bigEndian(92..<96),
              let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int,
              size < pageCount * pageSize
        else { return nil }
        return "it is cut short: its header counts \(pageCount) pages of \(pageSize) bytes (\(pageCount * pageSize) bytes), but it holds \(size)"
    }

    /// Whether a `-wal` file with pages in it lies beside the file.
    private var hasWriteAheadLogPages: Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]) as? Int ?? 0) > 0
    }

    /// Whether a `-wal` file lies beside the file: a connection has it open in WAL mode, or
    /// one left it there.
    var hasWriteAheadLogFile: Bool { FileManager.default.fileExists(atPath: path + "-wal") }

    /// The folder the file is in, where SQLite makes its journal, `-wal` and `-shm` files.
    var folder: String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Why MapFrame cannot write the file (or create it, if it does not exist), or nil when it
    /// can. A write needs the file and its folder writable, for SQLite's journal files.
    var whyNotWritable: String? {
        if let reason = Self.whyNotWritable(folder, what: "its folder \(folder)") { return reason }
        return exists ? Self.whyNotWritable(path, what: "the file") : nil
    }

    private static func whyNotWritable(_ path: String, what: String) -> String? {
        guard access(path, W_OK) != 0 else { return nil }
        return errno == EROFS ? "\(what) is on a read-only file system" : "\(what) is not writable (\(String(cString: strerror(errno))))"
    }
}
