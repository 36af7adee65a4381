import ArgumentParser
import FramePipeline
import Foundation
import StrictJSON
import TileStore

/// The options that pick the tile caches, the styles and how tiles are fetched, shared by every
/// command that reads or fills a cache.
struct CacheOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The MBTiles file to use for every style (it must exist), a PMTiles archive to draw every style from (only read), or a PostgreSQL database shared by several instances (its password from $PGPASSWORD or a pgpass file).",
        valueName: "file.mbtiles|file.pmtiles|postgres://user@host:port/db"
    ))
    var cache: String?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "The directory holding one <style>.mbtiles per style, created as needed (default: $MAPFRAME_CACHE_DIR, else $XDG_CACHE_HOME/mapframe, else ~/.cache/mapframe).",
        valueName: "dir"
    ))
    var cacheDirectory: String?

    @OptionGroup var fetching: FetchOptions

    func validate() throws {
        if cache != nil, cacheDirectory != nil {
            throw ValidationError("--cache and --cache-dir are alternatives; give one of them")
        }
        if let cache, PostgresAddress.isPostgresURL(cache) {
            do { _ = try PostgresAddress(parsing: cache) } catch { throw ValidationError("--cache: \(error)") }
        }
    }

    /// The `--cache` file or database, else the `--cache-dir` directory.
    func location() throws -> CacheLocation {
        if let cache { return try CacheLocation.parsing(cacheOption: cache) }
        return .directory(cacheDirectory ?? CacheLocation.defaultDirectory())
    }

    var offline: Bool { fetching.offline }
    var cacheLimit: CacheLimitArgument? { fetching.cacheLimit }

    /// The built-in styles plus any `--style-file`s.
    func catalog() throws -> StyleCatalog { try fetching.catalog() }

    /// The upstream fetcher, or nil when `--offline`.
    func fetcher(maxConnectionsPerHost: Int = FetchPolicy.defaultMaxConnectionsPerHost) -> TileFetcher? {
        fetching.fetchPolicy(maxConnectionsPerHost: maxConnectionsPerHost).map {
            TileFetcher(policy: $0, userAgentOverridden: fetching.userAgent != nil)
        }
    }

    /// Runs `body` with the frame pipeline over these caches (fetching unless `--offline` or
    /// `fetching` is false), then writes the caches' tile use and metadata and stops the pipeline.
    /// What a cache file's tiles said of themselves where its metadata was silent or wrong goes
    /// to standard error as the file is opened.
    func withPipeline<T>(
        fetching: Bool = true, maxConnectionsPerHost: Int = FetchPolicy.defaultMaxConnectionsPerHost, _ body: (FramePipeline) async throws -> T
    ) async throws -> T {
        let pipeline = FramePipeline(FramePipeline.Configuration(
            catalog: try catalog(), cacheLocation: try location(),
            fetcher: fetching ? fetcher(maxConnectionsPerHost: maxConnectionsPerHost) : nil, capacity: cacheLimit?.capacity,
            tilesetNotice: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        ))
        do {
            let result = try await body(pipeline)
            try await pipeline.flush()
            await pipeline.shutdown()
            return result
        } catch {
            await pipeline.shutdown()
            throw error
        }
    }
}

/// The styles, and how tiles are fetched and kept: shared by the cache commands and `serve`.
struct FetchOptions: ParsableArguments {
    @Flag(help: "Never contact a tile server; use only cached tiles.")
    var offline = false

    @Option(name: .customLong("user-agent"), help: ArgumentHelp(
        "The User-Agent sent to tile servers; name your application and a contact, as tile usage policies ask.",
        valueName: "agent"
    ))
    var userAgent: String?

    @Option(name: .customLong("style-file"), help: ArgumentHelp("Add a tile source from a style JSON file (repeatable).", valueName: "style.json"))
    var styleFiles: [String] = []

    @Option(name: .customLong("cache-limit"), help: ArgumentHelp(
        "Keep each cache under this many tiles (such as 5000) or bytes (such as 200MB); least recently used tiles are purged.",
        valueName: "limit"
    ))
    var cacheLimit: CacheLimitArgument?

    func validate() throws {
        if let userAgent, userAgent.trimmingCharacters(in: .whitespaces).isEmpty || userAgent.contains(where: \.isNewline) {
            throw ValidationError("--user-agent: must be one non-empty line")
        }
    }

    /// The built-in styles plus any `--style-file`s.
    func catalog() throws -> StyleCatalog {
        do {
            return try StyleCatalog.loading(styleFiles: styleFiles)
        } catch {
            throw InputError(description: "--style-file: \(error.description)")
        }
    }

    /// How to fetch, or nil when `--offline`.
    func fetchPolicy(maxConnectionsPerHost: Int = FetchPolicy.defaultMaxConnectionsPerHost) -> FetchPolicy? {
        guard !offline else { return nil }
        var policy = FetchPolicy(maxConnectionsPerHost: maxConnectionsPerHost)
        if let userAgent { policy.userAgent = userAgent }
        return policy
    }
}

/// `5000` (tiles) or `200MB` / `1.5GB` / `512KB` (bytes).
struct CacheLimitArgument: ExpressibleByArgument {
    let capacity: CacheCapacity

    init?(argument: String) {
        let text = argument.uppercased().trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("B", 1)]
        if let (suffix, factor) = units.first(where: { text.hasSuffix($0.0) }) {
            guard let value = Double(text.dropLast(suffix.count)), value > 0 else { return nil }
            capacity = CacheCapacity(maxBytes: Int(value * factor))
        } else {
            guard let tiles = Int(text), tiles > 0 else { return nil }
            capacity = CacheCapacity(maxTiles: tiles)
        }
    }
}
