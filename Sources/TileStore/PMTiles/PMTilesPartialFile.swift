import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An archive being written under a temporary name beside its own (`.NAME.RANDOM.partial`), so
/// that its name holds the whole archive or nothing: `commit` syncs it to disk and renames it
/// into place; `abandon` removes it.
final class PartialFile {
    let path: String
    let temporaryPath: String
    private let descriptor: Int32
    private var isOpen = true

    /// Makes the temporary file beside `path`, readable as the umask allows.
    init(besides path: String) throws(CacheError) {
        self.path = path
        temporaryPath = PMTilesWriter.folder(of: path) + "/.\(URL(fileURLWithPath: path).lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).partial"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PMTilesOutput.failure(path, "make a temporary file beside it") }
    }

    deinit {
        if isOpen { close(descriptor) }
    }

    /// Writes to the file from its start, a megabyte at a time.
    var output: BufferedOutput { BufferedOutput(descriptor: descriptor, archive: path) }

    /// Syncs the file, closes it, and renames it to `path`.
    func commit() throws(CacheError) {
        guard fsync(descriptor) == 0 else { throw PMTilesOutput.failure(path, "sync the archive to disk") }
        isOpen = false
        guard close(descriptor) == 0 else { throw PMTilesOutput.failure(path, "close the archive") }
        guard rename(temporaryPath, path) == 0 else { throw PMTilesOutput.failure(path, "rename \(temporaryPath) to it") }
    }

    /// Removes the temporary file.
    func abandon() {
        if isOpen { close(descriptor) }
        isOpen = false
        unlink(temporaryPath)
    }
}

/// Bytes appended to a file through a buffer of a megabyte.
struct BufferedOutput {
    let descriptor: Int32
    let archive: String
    private var buffer = Data()
    private var written: UInt64 = 0
    private static let capacity = 1 << 20

    init(descriptor: Int32, archive: String) {
        self.descriptor = descriptor
        self.archive = archive
    }

    mutating func append(_ data: Data) throws(CacheError) {
        buffer.append(data)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes what the buffer holds.
    mutating func flush() throws(CacheError) {
        try PMTilesOutput.write(buffer, to: descriptor, at: written, archive: archive, operation: "write the archive")
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writing an archive's files, and what a failed write is called.
enum PMTilesOutput {
    /// Writes all of `data` at `offset`.
    static func write(_ data: Data, to descriptor: Int32, at offset: UInt64, archive: String, operation: String) throws(CacheError) {
        var done = 0
        while done < data.count {
            let count = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure(archive, operation) }
            done += count
        }
    }

    /// The error for `operation` failing now, from `errno`.
    static func failure(_ archive: String, _ operation: String) -> CacheError {
        let code = errno
        return .archiveWrite(path: archive, operation: operation, message: String(cString: strerror(code)), diskFull: code == ENOSPC)
    }
}
