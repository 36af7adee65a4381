import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an archive's bytes are read from: a file (`PMTilesFile`) or bytes in memory. Reads may
/// come from several threads at once.
public protocol PMTilesBytes: Sendable {
    /// The archive's size in bytes.
    var size: UInt64 { get }
    /// `length` bytes from `offset`, which lie within `size`. Blocks for a file.
    func read(offset: UInt64, length: Int) throws(PMTilesError) -> Data
}

extension Data: PMTilesBytes {
    public var size: UInt64 { UInt64(count) }

    public func read(offset: UInt64, length: Int) throws(PMTilesError) -> Data {
        guard offset <= UInt64(count), UInt64(length) <= UInt64(count) - offset else {
            throw PMTilesError("\(length) bytes at offset \(offset) run past the end of the \(count) bytes")
        }
        let start = startIndex + Int(offset)
        return Data(self[start..<start + length])
    }
}

/// An archive file, open for reading: each read is one `pread`, so reads on several threads
/// need no lock and move no shared position. Closed when the last reference goes.
public final class PMTilesFile: PMTilesBytes {
    public let path: String
    public let size: UInt64
    private let descriptor: Int32

    /// Opens `path` for reading. Blocks.
    public init(path: String) throws(CacheError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw CacheError.missingFile(path: path) }
            throw CacheError.unusableArchive(path: path, reason: "it cannot be opened (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw CacheError.unusableArchive(path: path, reason: "it is not a regular file")
        }
        self.path = path
        self.descriptor = descriptor
        size = UInt64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    public func read(offset: UInt64, length: Int) throws(PMTilesError) -> Data {
        var data = Data(count: length)
        var done = 0
        let failure: String? = data.withUnsafeMutableBytes { buffer in
            while done < length {
                let count = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset) + off_t(done))
                if count < 0 {
                    if errno == EINTR { continue }
                    return "reading \(length) bytes at offset \(offset) failed (\(String(cString: strerror(errno))))"
                }
                if count == 0 { return "the file ends before \(length) bytes at offset \(offset): it was cut short while open" }
                done += count
            }
            return nil
        }
        if let failure { throw PMTilesError(failure) }
        return data
    }
}
