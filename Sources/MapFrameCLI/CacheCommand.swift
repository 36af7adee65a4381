import ArgumentParser
import Foundation
import TileStore

/// `mapframe cache`: look after tile caches, MBTiles files or a shared PostgreSQL database.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and maintain tile caches.",
        subcommands: [Stats.self, Purge.self, Expire.self, Verify.self, Vacuum.self, Copy.self]
    )

    /// Which caches a maintenance command works on.
    struct Target: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp(
            "One MBTiles file, or a PostgreSQL database (every style in it, or --style's); its password from $PGPASSWORD or a pgpass file.",
            valueName: "file.mbtiles|postgres://user@host:port/db"
        ))
        var cache: String?
        @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Every <style>.mbtiles in this directory (default: $MAPFRAME_CACHE_DIR, else ~/.cache/mapframe).", valueName: "dir"))
        var cacheDirectory: String?
        @Option(help: ArgumentHelp("Only this style's file in the directory.", valueName: "style"))
        var style: String?

        func validate() throws {
            if let cache, PostgresAddress.isPostgresURL(cache) {
                guard cacheDirectory == nil else { throw ValidationError("--cache and --cache-dir are alternatives; give one of them") }
                do { _ = try PostgresAddress(parsing: cache) } catch { throw ValidationError("--cache: \(error)") }
            } else if cache != nil, cacheDirectory != nil || style != nil {
                throw ValidationError("--cache names one file; it does not go with --cache-dir or --style")
            }
        }

        /// The caches: each style's in a database, or the files, each opened read-only (nothing is
        /// written to it, and nothing is made beside it) or for writing.
        func caches(readOnly: Bool) async throws -> [any TileCacheBackend] {
            if let cache, PostgresAddress.isPostgresURL(cache) {
                let database = try CacheLocation.parsing(cacheOption: cache)
                var caches: [any TileCacheBackend] = []
                let styles = if let style { [style] } else { try await database.storedStyles() }
                for style in styles {
                    caches.append(try await database.openCache(for: style, readOnly: readOnly, createIfMissing: false))
                }
                return caches
            }
            if let cache, CacheLocation.isArchiveName(cache) { return [try await PMTilesBackend.open(cache)] }
            var files: [any TileCacheBackend] = []
            for path in try paths() { files.append(try await MBTilesBackend.open(path, readOnly: readOnly)) }
            return files
        }

        /// The cache files, for the commands that work on MBTiles alone. Blocks: for those
        /// commands' own thread.
        func files(readOnly: Bool, command: String = "") throws -> [MBTilesCache] {
            try paths(command: command).map { path throws(CacheError) in try MBTilesCache(openingExisting: path, readOnly: readOnly) }
        }

        /// The paths of the cache files.
        private func paths(command: String = "") throws -> [String] {
            if let cache, PostgresAddress.isPostgresURL(cache) {
                throw InputError(description: "--cache: \(command) works on MBTiles files; PostgreSQL checks and vacuums its own tables")
            }
            if let cache, CacheLocation.isArchiveName(cache) {
                throw InputError(description: "--cache: \(command) works on MBTiles files; \(cache) is a PMTiles archive, which MapFrame only reads")
            }
            if let cache { return [cache] }
            let directory = cacheDirectory ?? CacheLocation.defaultDirectory()
            if let style { return [directory + "/" + style + ".mbtiles"] }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                throw InputError(description: "--cache-dir: \(directory) cannot be read")
            }
            let files = names.filter { $0.hasSuffix(".mbtiles") }.sorted()
            guard !files.isEmpty else { throw InputError(description: "--cache-dir: \(directory) holds no .mbtiles files") }
            return files.map { directory + "/" + $0 }
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show each cache's name, format, tile size and layout, and count its tiles, bytes and expired tiles.")
        @OptionGroup var target: Target

        func run() async throws {
            for cache in try await target.caches(readOnly: true) {
                let statistics = try await cache.statistics(at: Date())
                let zooms = statistics.tilesPerZoom.keys.sorted().map { "z\($0): \(statistics.tilesPerZoom[$0]!)" }.joined(separator: ", ")
                if let backend = cache as? MBTilesBackend {
                    let (tileset, layout) = try await backend.withFile { file throws(CacheError) in (try file.tilesetDescription(), try file.layout()) }
                    print("""
                        \(cache.name)
                          \(tileset)
                          layout: \(layout)
                        """)
                } else if let archive = cache as? PMTilesBackend {
                    print("\(cache.name)\n  \(archive.summary)")
                } else {
                    print(cache.name)
                }
                print("""
                      tiles: \(statistics.tileCount) (\(statistics.totalBytes / 1024) KiB)
                      expired: \(statistics.expiredCount); without freshness records: \(statistics.untrackedCount)
                      per zoom: \(zooms.isEmpty ? "none" : zooms)
                    """)
            }
        }
    }

    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete tiles fetched longer ago than a given age.")
        @Option(
            name: .customLong("older-than"), help: ArgumentHelp("An age such as 14d, 12h, 30m or 90s.", valueName: "age"),
            transform: DurationArgument.init(parsing:)
        )
        var olderThan: DurationArgument
        @OptionGroup var target: Target

        func run() async throws {
            for cache in try await target.caches(readOnly: false) {
                let deleted = try await cache.purge(fetchedBefore: Date().addingTimeInterval(-olderThan.seconds))
                print("\(cache.name): deleted \(deleted) tiles fetched more than \(olderThan.text) ago")
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check each cache's integrity, and that every tile is an image of a tile's size that decodes.",
            discussion: """
                A tile is corrupt when its tile_data is not image bytes (text, a number, NULL, or more than \
                \(MBTilesCache.maxTileBytes) bytes), when it does not decode, or when it is not \(TileSource.standardTileSize) \
                pixels square (or twice that, for retina tiles). In a damaged file, a tile is corrupt too when its row or \
                bytes are on a page SQLite cannot read, or when the index does not lead to it: verify reads past damaged \
                pages, names each such tile it can find through the table, its index or MapFrame's freshness records, and \
                says which stretches of the table could not be read. Without --delete-corrupt nothing is written to the file. \
                With it, each corrupt tile is deleted, and in a file that is not sound every index is rebuilt (REINDEX) and \
                the file checked again; a row on a damaged page cannot be deleted, nor a damaged index rebuilt, and verify \
                says so. Exits 1 when a problem is found, unless --delete-corrupt mended every one.
                """
        )
        @Flag(name: .customLong("delete-corrupt"), help: "Delete corrupt tiles, and rebuild the indexes of a file that is not sound.")
        var deleteCorrupt = false
        @OptionGroup var target: Target

        func run() throws {
            var problems = 0
            let decoder = TileDecoder(tileSize: TileSource.standardTileSize)
            for cache in try target.files(readOnly: !deleteCorrupt, command: "verify") {
                let survey = try cache.survey(checkingWith: decoder)
                let mending = deleteCorrupt && !survey.isClean ? try cache.mend(survey) : nil
                print(VerifyReport(path: cache.path, survey: survey, mending: mending).lines.joined(separator: "\n"))
                if !(mending?.isComplete ?? survey.isClean) { problems += 1 }
            }
            if problems > 0 { throw ExitCode.failure }
        }
    }

    struct Vacuum: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Return the space of deleted tiles to the file system.")
        @OptionGroup var target: Target

        func run() throws {
            for cache in try target.files(readOnly: false, command: "vacuum") {
                try cache.vacuum()
                print("\(cache.path): vacuumed")
            }
        }
    }
}
