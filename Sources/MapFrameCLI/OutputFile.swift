import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes the files the commands make (frames, logs, pages) whole or not at all.
///
/// The bytes go to a new temporary file beside the destination in one `write` call, which is
/// then renamed over the destination: a reader sees the old file or the new one, never half of
/// one, and a failure leaves the old file as it was. Unlike `Data.write(options: .atomic)` it
/// does not `fsync` every file: a batch of frames is output to be looked at or compared, not a
/// store that must survive a power cut, and `make bench` measured the syncs at about a tenth of
/// a snapshot's time.
enum OutputFile {
    /// Writes `data` to `destination`; the error names the destination, `what` it is and why.
    static func write(_ data: Data, to destination: URL, what: String) throws {
        let path = destination.path
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp").path
        func failure(_ doing: String) -> CommandFailure {
            CommandFailure(description: "\(path): cannot write \(what) (\(doing): \(String(cString: strerror(errno))))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure("creating a temporary file") }
        var written = 0
        let complete = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
        guard complete else {
            let error = failure("writing")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = failure("closing")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("renaming into place")
            unlink(temporary)
            throw error
        }
    }
}
