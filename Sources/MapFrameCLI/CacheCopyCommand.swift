import ArgumentParser
import Foundation
import MapGeometry
import RouteStore
import TileStore

extension CacheCommand {
    /// `mapframe cache copy FROM TO`: tiles, their freshness, and routes, between MBTiles and
    /// PostgreSQL in either direction; and tiles from any of them, or from a PMTiles archive, into
    /// a new PMTiles archive.
    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy tiles, their freshness and stored routes from one cache to another.",
            discussion: """
                FROM and TO are each a postgres://user@host:port/db address (the password from $PGPASSWORD or a \
                pgpass file), a directory of <style>.mbtiles files (and routes.sqlite), or one .mbtiles file. \
                A seeded MBTiles cache warms a cluster's database; a database's tiles export to files. Tiles \
                already in TO are replaced by FROM's; routes keep their ids, and those TO already holds stay. \
                Each page of tiles is written in one transaction, so an interrupted copy leaves whole tiles \
                and can be run again. \
                FROM may also be a .pmtiles archive. A TO ending in .pmtiles is a new PMTiles archive of one style's \
                tiles (identical tiles stored once, gzip directories), written whole under a temporary name and then \
                renamed, replacing any file of that name; tiles' freshness and routes are not kept there.
                """
        )

        @Argument(help: ArgumentHelp("Where to copy from.", valueName: "from"))
        var from: String
        @Argument(help: ArgumentHelp("Where to copy to; a directory or file is created if missing.", valueName: "to"))
        var to: String
        @Option(help: ArgumentHelp("Copy only this style (for one .mbtiles file: the style its tiles are; default: the file's name).", valueName: "style"))
        var style: String?

        /// Tiles read and written at a time.
        static let pageSize = 500

        func run() async throws {
            let source = try Self.location(from, isDestination: false)
            let destination = try Self.location(to, isDestination: true)
            guard source != destination else { throw InputError(description: "copy: FROM and TO are the same cache, \(source)") }
            let styles = try await styles(in: source)
            guard !styles.isEmpty else { throw InputError(description: "copy: \(source) holds no tiles to copy") }
            switch destination {
            case .file, .archive:
                guard styles.count == 1 else {
                    throw InputError(description: "copy: \(to) is one file, and \(source) holds \(styles.count) styles (\(styles.joined(separator: ", "))); name one with --style")
                }
            case .directory, .postgres:
                break
            }
            if case .archive(let path) = destination {
                try await Self.writeArchive(path, from: source, style: styles[0])
                return try await Self.noteRoutesLeftBehind(in: source, destination: to)
            }
            try await destination.createFileIfMissing()
            for style in styles {
                let reader = try await source.openCache(for: style, readOnly: true, createIfMissing: false)
                let writer = try await destination.openCache(for: style, readOnly: false, createIfMissing: true)
                let copied = try await Self.copyTiles(from: reader, style: style) { try await writer.storeCopies($0) }
                let (name, attribution) = Self.description(of: style)
                try await writer.refreshMetadata(name: name, attribution: attribution)
                print("\(style): copied \(copied) tiles from \(reader.name) to \(writer.name)")
            }
            if case .file = destination { return try await Self.noteRoutesLeftBehind(in: source, destination: to) }
            if Self.holdsRoutes(source), let routes = try await source.openRouteStore(quota: Self.copyQuota),
               let into = try await destination.openRouteStore(quota: Self.copyQuota) {
                let (copied, kept) = try await Self.copyRoutes(from: routes, to: into)
                print("routes: copied \(copied); \(kept) already there")
            }
        }

        /// One file of tiles has no place for routes: says how many of `source`'s stay behind,
        /// on standard error, rather than leave them silently.
        static func noteRoutesLeftBehind(in source: CacheLocation, destination: String) async throws {
            guard holdsRoutes(source), let routes = try await source.openRouteStore(quota: copyQuota) else { return }
            let count = try await routes.allRoutes().count
            guard count > 0 else { return }
            MapFrameCommand.printError(
                "copy: \(count) \(count == 1 ? "route" : "routes") in \(source) not copied: \(destination) is one file of tiles, which holds no routes; copy into a cache directory or a postgres:// database to keep them"
            )
        }

        /// Writes one style's tiles from `source` into a new PMTiles archive at `path`.
        static func writeArchive(_ path: String, from source: CacheLocation, style: String) async throws {
            let reader = try await source.openCache(for: style, readOnly: true, createIfMissing: false)
            let writer = try await PMTilesWriter.create(path)
            _ = try await copyTiles(from: reader, style: style) { try await writer.add($0) }
            let (name, attribution) = description(of: style)
            let written = try await writer.finish(name: name, attribution: attribution)
            let leaves = written.leafDirectories == 0 ? "no leaf directories" : "\(written.leafDirectories) leaf directories"
            print("\(style): copied \(written.tiles) tiles from \(reader.name) to \(path): \(written.contents) distinct, \(written.entries) directory entries, \(leaves), \(written.bytes) bytes")
        }

        /// A style's title and attribution, for the copy's metadata: the built-in style's, else
        /// the style's name and no attribution.
        static func description(of style: String) -> (name: String, attribution: String) {
            let source = StyleCatalog.builtin[style]
            return (source?.title ?? style, source?.tileSet.attribution ?? "")
        }

        /// Whether `location` has routes to copy, without making a route store where there is none.
        static func holdsRoutes(_ location: CacheLocation) -> Bool {
            switch location {
            case .postgres: true
            case .directory(let directory): FileManager.default.fileExists(atPath: directory + "/routes.sqlite")
            case .file, .archive: false
            }
        }

        /// No quota stands in a copy's way: the server applies its own when routes are added.
        static let copyQuota = RouteQuota(maxRoutes: .max / 2, maxPoints: .max / 2)

        /// `text` as a cache location: a database, a directory, an archive, or a file.
        static func location(_ text: String, isDestination: Bool) throws -> CacheLocation {
            if PostgresAddress.isPostgresURL(text) { return try CacheLocation.parsing(cacheOption: text) }
            if CacheLocation.isArchiveName(text) {
                guard isDestination || FileManager.default.fileExists(atPath: text) else {
                    throw InputError(description: "copy: \(text) does not exist; expected a PMTiles archive")
                }
                return .archive(text)
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? .directory(text) : .file(text)
            }
            guard isDestination else { throw InputError(description: "copy: \(text) does not exist; expected a postgres:// address, a cache directory, an .mbtiles file or a .pmtiles archive") }
            return text.hasSuffix(".mbtiles") ? .file(text) : .directory(text)
        }

        /// The styles to copy: `--style`, else every style the source holds.
        func styles(in source: CacheLocation) async throws -> [String] {
            if let style { return [style] }
            return try await source.storedStyles()
        }

        /// Copies every tile a page at a time into `store`, showing progress; returns how many were copied.
        static func copyTiles(
            from reader: any TileCacheBackend, style: String, into store: ([StoredTileRecord]) async throws -> Void
        ) async throws -> Int {
            let total = try await reader.statistics(at: Date()).tileCount
            let printer = ProgressPrinter()
            func line(_ copied: Int) -> String {
                printer.line(prefix: "\(style): ", fraction: total == 0 ? 1 : Double(copied) / Double(total), summary: "\(copied)/\(total) tiles")
            }
            var after: TileID?
            var copied = 0
            while true {
                let page = try await reader.tiles(after: after, limit: pageSize)
                guard let last = page.last else { break }
                try await store(page)
                copied += page.count
                after = last.tile
                printer.printIfDue { line(copied) }
            }
            printer.printFinal(line(copied))
            return copied
        }

        /// Copies the routes TO lacks, keeping their ids; returns how many were copied and kept.
        static func copyRoutes(from source: any RouteStore, to destination: any RouteStore) async throws -> (copied: Int, kept: Int) {
            var (copied, kept) = (0, 0)
            for route in try await source.allRoutes() {
                if try await destination.route(id: route.id) != nil {
                    kept += 1
                } else {
                    try await destination.add(route)
                    copied += 1
                }
            }
            return (copied, kept)
        }
    }
}
