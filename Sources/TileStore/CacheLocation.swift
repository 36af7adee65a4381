import Foundation

/// Where a command finds its MBTiles caches: one given file for every style, or one file per
/// style (`<style>.mbtiles`) in a directory.
public enum CacheLocation: Sendable, Equatable {
    case file(String)
    case directory(String)

    /// The directory used when none is given: `$MAPFRAME_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/mapframe`, else `~/.cache/mapframe`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let directory = environment["MAPFRAME_CACHE_DIR"], !directory.isEmpty { return directory }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/mapframe" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/mapframe"
    }

    /// The cache file for a style.
    public func path(for style: String) -> String {
        switch self {
        case .file(let path): return path
        case .directory(let directory): return directory + "/" + style + ".mbtiles"
        }
    }

    /// Opens a style's cache. Read-only, nothing is ever written to it (see
    /// `MBTilesCache.init(openingExisting:readOnly:)`). Otherwise it is opened for writing
    /// where it can be written. A missing file is created, with its directory, only for a
    /// style's file in a directory and with `createIfMissing`; a file named on its own must exist.
    public func openCache(for style: String, readOnly: Bool, createIfMissing: Bool) throws(CacheError) -> MBTilesCache {
        let path = self.path(for: style)
        guard case .directory(let directory) = self, createIfMissing else {
            return try MBTilesCache(openingExisting: path, readOnly: readOnly)
        }
        if readOnly, FileManager.default.fileExists(atPath: path) { return try MBTilesCache(openingExisting: path) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CacheError.sqlite(
                path: directory, operation: "create the cache directory", message: "\(error.localizedDescription)", failure: .write
            )
        }
        return try MBTilesCache(creatingIfNeeded: path)
    }
}
