import Foundation
import ImageCodec
#if canImport(Glibc)
import Glibc
#endif

/// The distinct tile contents of an archive being written, each stored once: tiles whose bytes
/// are identical share one copy, found by a checksum of the bytes and confirmed byte for byte.
/// The bytes wait in a temporary file beside the archive, removed from its folder as soon as it
/// is made, so that it goes with the process whatever happens; memory holds some 80 bytes a
/// distinct content (where it lies, and its checksum's entry). Blocks on the file: for the
/// storage threads.
final class PMTilesContents {
    /// Where one content's bytes lie in the temporary file.
    struct Content {
        var offset: UInt64
        var length: UInt32
    }

    private(set) var contents: [Content] = []
    private var byChecksum: [UInt64: [UInt32]] = [:]
    private let descriptor: Int32
    private var end: UInt64 = 0
    /// The archive being written, named in errors.
    private let archivePath: String

    /// Makes the temporary file in `folder`, for the archive at `archivePath`.
    init(folder: String, archivePath: String) throws(CacheError) {
        self.archivePath = archivePath
        let path = folder + "/.\(URL(fileURLWithPath: archivePath).lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tiles"
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PMTilesOutput.failure(archivePath, "make a temporary file in \(folder)") }
        unlink(path)
    }

    deinit {
        close(descriptor)
    }

    /// The index of `data`'s content: an earlier one with the same bytes, else a new one.
    func add(_ data: Data) throws(CacheError) -> UInt32 {
        let checksum = checksum64(data)
        for index in byChecksum[checksum] ?? [] where contents[Int(index)].length == UInt32(data.count) {
            if try bytes(of: index) == data { return index }
        }
        try PMTilesOutput.write(data, to: descriptor, at: end, archive: archivePath, operation: "store a tile in the temporary file")
        let index = UInt32(contents.count)
        contents.append(Content(offset: end, length: UInt32(data.count)))
        byChecksum[checksum, default: []].append(index)
        end += UInt64(data.count)
        return index
    }

    /// The bytes of content `index`.
    func bytes(of index: UInt32) throws(CacheError) -> Data {
        let content = contents[Int(index)]
        var data = Data(count: Int(content.length))
        var done = 0
        while done < data.count {
            let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(content.offset) + off_t(done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw PMTilesOutput.failure(archivePath, "read a tile back from the temporary file") }
            done += count
        }
        return data
    }
}
