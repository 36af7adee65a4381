import Foundation

/// Makes a file, or a folder and everything in it, read-only for this process until `unlock()`.
/// Taking away the write permission is enough for any user but root, whom permissions do not
/// stop; as root (the tests' user here and in CI) it bind-mounts the path read-only over itself
/// instead. Which of the two worked is checked, so a test never runs on a path it can still
/// write.
public struct ReadOnlyLock: Sendable {
    public let path: String
    private let mounted: Bool
    private let originalPermissions: Int

    public init(_ path: String) async throws {
        self.path = path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        originalPermissions = (attributes[.posixPermissions] as? Int) ?? 0o644
        let readOnlyPermissions = (attributes[.type] as? FileAttributeType) == .typeDirectory ? 0o555 : 0o444
        try FileManager.default.setAttributes([.posixPermissions: readOnlyPermissions], ofItemAtPath: path)
        if access(path, W_OK) != 0 {
            mounted = false
            return
        }
        // Permissions do not stop this user (root): mount the path read-only over itself.
        try FileManager.default.setAttributes([.posixPermissions: originalPermissions], ofItemAtPath: path)
        for arguments in [["mount", "--bind", path, path], ["mount", "-o", "remount,ro,bind", path]] {
            let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: URL(fileURLWithPath: "/"))
            guard result.status == 0 else {
                _ = try? runProgramBlocking(URL(fileURLWithPath: "/usr/bin/env"), ["umount", path], in: URL(fileURLWithPath: "/"))
                throw TestSetupError(description: "cannot make \(path) read-only: chmod does not stop this user, and \(arguments.joined(separator: " ")) failed: \(result)")
            }
        }
        guard access(path, W_OK) != 0 else {
            throw TestSetupError(description: "\(path) is still writable after a read-only bind mount")
        }
        mounted = true
    }

    /// Makes the path writable again.
    public func unlock() {
        if mounted {
            for arguments in [["umount", path], ["umount", "--lazy", path]] {
                if (try? runProgramBlocking(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: URL(fileURLWithPath: "/")))?.status == 0 { return }
            }
        } else {
            try? FileManager.default.setAttributes([.posixPermissions: originalPermissions], ofItemAtPath: path)
        }
    }
}

/// A file's bytes and the names beside it, to check that using it left it exactly as it was:
/// same bytes, and no `-wal`, `-shm` or `-journal` file made next to it.
public struct FileSnapshot: Equatable, CustomStringConvertible {
    public let bytes: Data
    public let neighbours: [String]

    public init(_ path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: path).lastPathComponent
        neighbours = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) }.sorted()
    }

    public var description: String { "\(bytes.count) bytes; beside it: \(neighbours.joined(separator: ", "))" }
}
