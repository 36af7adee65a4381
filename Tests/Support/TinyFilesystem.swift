import Foundation

/// A tmpfs of a given size mounted on a folder, for a disk that really fills up. Mounting needs
/// root, which the tests have here and in CI.
public struct TinyFilesystem: Sendable {
    public let path: String

    /// Mounts a tmpfs of `size` (such as "200k", or a number of bytes) on `path`, which is made
    /// if it does not exist.
    public init(at path: String, size: String) async throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path], in: URL(fileURLWithPath: "/"))
        guard mounted.status == 0 else {
            throw TestSetupError(description: "cannot mount a \(size) tmpfs on \(path) (the test needs root): \(mounted)")
        }
        self.path = path
    }

    /// Unmounts it, lazily if something still holds it open, and everything on it is gone.
    public func unmount() {
        for arguments in [["umount", path], ["umount", "--lazy", path]] {
            if (try? runProgramBlocking(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: URL(fileURLWithPath: "/")))?.status == 0 { return }
        }
    }
}
