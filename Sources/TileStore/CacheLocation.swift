import Foundation

/// Where a command finds its tile caches: one given MBTiles file for every style, one file per
/// style (`<style>.mbtiles`) in a directory, one PMTiles archive for every style (only read), or
/// a PostgreSQL database shared by several instances, holding every style's tiles.
public enum CacheLocation: Sendable, Equatable {
    case file(String)
    case directory(String)
    case archive(String)
    case postgres(PostgresAddress)

    /// `--cache`'s value: a `postgres://` address, a PMTiles archive (a name ending `.pmtiles`),
    /// else an MBTiles file.
    public static func parsing(cacheOption text: String) throws(CacheError) -> CacheLocation {
        if PostgresAddress.isPostgresURL(text) { return .postgres(try PostgresAddress(parsing: text)) }
        return isArchiveName(text) ? .archive(text) : .file(text)
    }

    /// Whether a file's name says it is a PMTiles archive: it ends `.pmtiles`, in any case.
    public static func isArchiveName(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".pmtiles")
    }

    /// The directory used when none is given: `$MAPFRAME_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/mapframe`, else `~/.cache/mapframe`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let directory = environment["MAPFRAME_CACHE_DIR"], !directory.isEmpty { return directory }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/mapframe" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/mapframe"
    }

    /// The kind of backend the location's caches are.
    public var backendKind: CacheBackendKind {
        switch self {
        case .postgres: .postgres
        case .archive: .pmtiles
        case .file, .directory: .mbtiles
        }
    }

    /// The file for a style: its MBTiles file, or the archive; nil for a database.
    public func path(for style: String) -> String? {
        switch self {
        case .file(let path), .archive(let path): return path
        case .directory(let directory): return directory + "/" + style + ".mbtiles"
        case .postgres: return nil
        }
    }

    /// Opens a style's cache. Read-only, nothing is ever written to a file (see
    /// `MBTilesCache.init(openingExisting:readOnly:)`). Otherwise it is opened for writing
    /// where it can be written; an archive is always only read. A missing file is created, with its directory, only for a
    /// style's file in a directory and with `createIfMissing`; a file named on its own must exist.
    /// A database's tables are made, or brought up to date, on first use.
    public func openCache(for style: String, readOnly: Bool, createIfMissing: Bool) async throws(CacheError) -> any TileCacheBackend {
        if case .postgres(let address) = self {
            return try await Self.postgresTileCache(address, style: style)
        }
        if case .archive(let path) = self { return try await PMTilesBackend.open(path) }
        return try await onStorageThreads(cache: description) { () throws(CacheError) in MBTilesBackend(try openFile(for: style, readOnly: readOnly, createIfMissing: createIfMissing)) }
    }

    /// Creates the MBTiles file of a `.file` location, with the schema, when it does not exist:
    /// the commands that fill a cache (`seed`, `cache copy`) bring a named file into being.
    public func createFileIfMissing() async throws(CacheError) {
        guard case .file(let path) = self, !FileManager.default.fileExists(atPath: path) else { return }
        _ = try await onStorageThreads(cache: path) { () throws(CacheError) in try MBTilesCache(creatingIfNeeded: path) }
    }

    /// A style's MBTiles file, opened as `openCache` says, once a quick look finds it whole: a
    /// file cut short is refused. Pages damaged inside it show when they are read (the file is
    /// then no longer used; see `SQLiteFileGuard`), and `mapframe cache verify` reads them all.
    /// Blocks.
    private func openFile(for style: String, readOnly: Bool, createIfMissing: Bool) throws(CacheError) -> MBTilesCache {
        if let path = path(for: style), let truncation = try CacheFile(path: path).truncation {
            throw CacheError.damaged(path: path, operation: "open", message: truncation)
        }
        return try openFileUnchecked(for: style, readOnly: readOnly, createIfMissing: createIfMissing)
    }

    private func openFileUnchecked(for style: String, readOnly: Bool, createIfMissing: Bool) throws(CacheError) -> MBTilesCache {
        switch self {
        case .postgres, .archive:
            preconditionFailure("neither a database nor an archive holds MBTiles files")
        case .file(let path):
            return try MBTilesCache(openingExisting: path, readOnly: readOnly)
        case .directory(let directory):
            let path = directory + "/" + style + ".mbtiles"
            guard createIfMissing else { return try MBTilesCache(openingExisting: path, readOnly: readOnly) }
            if readOnly, FileManager.default.fileExists(atPath: path) { return try MBTilesCache(openingExisting: path) }
            try Self.makeDirectory(directory)
            return try MBTilesCache(creatingIfNeeded: path)
        }
    }

    /// The styles whose tiles the location holds: every style in a database, each `.mbtiles`
    /// file's in a directory, and a file's or an archive's own name.
    public func storedStyles() async throws(CacheError) -> [String] {
        switch self {
        case .postgres(let address):
            return try await Self.postgresStyles(address)
        case .directory(let directory):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasSuffix(".mbtiles") }.map { String($0.dropLast(".mbtiles".count)) }.sorted()
        case .file(let path), .archive(let path):
            return [URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent]
        }
    }

    /// Makes `directory`, and any folder above it that is missing, for the files a store keeps
    /// there. Blocks.
    public static func makeDirectory(_ directory: String) throws(CacheError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CacheError.sqlite(
                path: directory, operation: "create the cache directory", message: "\(error.localizedDescription)", failure: .write
            )
        }
    }
}

extension CacheLocation: CustomStringConvertible {
    /// The file, the directory, the archive, or the database's address (never a password).
    public var description: String {
        switch self {
        case .file(let path), .archive(let path): path
        case .directory(let directory): directory
        case .postgres(let address): address.description
        }
    }
}
