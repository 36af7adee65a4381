import Foundation
import GRDB
import Synchronization

/// Keeps MapFrame from using an SQLite file that can no longer be trusted, and says why.
///
/// Before each use it looks at the file (two system calls, no I/O):
/// - removed or replaced while open, the connection would go on writing to a file nobody reads
///   again, and acknowledged writes would be lost at the next start;
/// - its `-shm` file made unwritable (`chattr +i`, a file system remounted read-only), SQLite's
///   next touch of the shared memory it maps from that file would end the process with SIGBUS.
///
/// After each use it looks at the error: a damaged page ("database disk image is malformed").
///
/// Once any of these is found, every use is refused with `CacheError.unavailable` until the
/// process restarts, and the connection is never touched again, not even closed, since closing
/// checkpoints through the same shared memory. Callers serve from memory and the upstream, and
/// `/healthz` says the cache is unavailable.
public final class SQLiteFileGuard: Sendable {
    let path: String
    private let opened: FileIdentity?
    /// Whether SQLite could write the `-shm` file when the connection was opened: if it could
    /// not, SQLite mapped it read-only, and nothing it does can fault.
    private let sharedMemoryWasWritable: Bool
    private let fault = Mutex<String?>(nil)
    /// Connections given up on: kept, never closed.
    private static let abandoned = Mutex<[any DatabaseReader]>([])

    /// Call once the connection is open, so that the `-shm` file is there to be looked at.
    public init(path: String) {
        self.path = path
        opened = FileIdentity(path: path)
        sharedMemoryWasWritable = access(path + "-shm", W_OK) == 0 || errno == ENOENT
    }

    /// Why the file is no longer used, or nil while it is.
    public var faultReason: String? { fault.withLock { $0 } }

    /// Throws `.unavailable` when the file is no longer to be used, having looked at it now.
    /// `database` is kept from being closed once it is given up on.
    public func check(_ database: any DatabaseReader) throws(CacheError) {
        if let reason = faultReason ?? currentFault() {
            giveUp(database, reason: reason)
            throw .unavailable(cache: path, reason: reason)
        }
    }

    /// Runs `body`, giving the file up when it fails on a damaged page.
    public func watching<T>(_ database: any DatabaseReader, _ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        do {
            return try body()
        } catch .damaged(_, _, let message) {
            let reason = "it is damaged (\(message)); move it aside, or run `mapframe cache verify --delete-corrupt`"
            giveUp(database, reason: reason)
            throw .unavailable(cache: path, reason: reason)
        }
    }

    private func giveUp(_ database: any DatabaseReader, reason: String) {
        let first = fault.withLock { fault in
            defer { fault = fault ?? reason }
            return fault == nil
        }
        if first { Self.abandoned.withLock { $0.append(database) } }
    }

    /// What is wrong with the file now, if anything.
    private func currentFault() -> String? {
        guard let opened else { return nil }
        switch FileIdentity(path: path) {
        case nil where errno == ENOENT:
            return "the file was removed while in use; restart to make a new one"
        case nil:
            return "the file cannot be looked at (\(String(cString: strerror(errno))))"
        case let now? where now != opened:
            return "the file was replaced while in use; restart to open the new one"
        default:
            break
        }
        if sharedMemoryWasWritable, access(path + "-shm", W_OK) != 0, errno != ENOENT {
            return "its -shm file can no longer be written (\(String(cString: strerror(errno)))); SQLite maps it into memory, where a failed write would end the process"
        }
        return nil
    }
}

/// The device and inode a path names: another file put in its place has another.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
