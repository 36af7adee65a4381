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

    /// Opens a style's cache. Read-only, its file must exist. Writable, a file named on its own
    /// must still exist, but a style's file in a directory is created (with the directory) when
    /// missing, so that tiles can be fetched into it.
    public func openCache(for style: String, writable: Bool) throws(CacheError) -> MBTilesCache {
        let path = self.path(for: style)
        guard writable else { return try MBTilesCache(openingExisting: path) }
        switch self {
        case .file:
            return try MBTilesCache(openingExisting: path, readOnly: false)
        case .directory(let directory):
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
}
