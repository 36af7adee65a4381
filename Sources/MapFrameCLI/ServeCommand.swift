#if Server
import ArgumentParser
import Foundation
import FramePipeline
import GTFS
import Logging
import MapServer
import NIOCore
import NIOPosix
import RouteStore
import TileStore

/// `mapframe serve`: cached and composited tiles, routes and frames over HTTP.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve cached and composited tiles, stored routes and frames over HTTP, with a viewer page at /.",
        discussion: "Binds to loopback unless told otherwise. SIGTERM lets requests in flight finish, then exits 0."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one and prints it).")
    var port = 8080

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "Where <style>.mbtiles caches and routes.sqlite live (default: $MAPFRAME_CACHE_DIR, else $XDG_CACHE_HOME/mapframe, else ~/.cache/mapframe).",
        valueName: "dir"
    ))
    var cacheDirectory: String?

    @Option(name: .customLong("cache"), help: ArgumentHelp(
        "A PostgreSQL database shared with other instances, for tiles and routes, instead of --cache-dir (the password from $PGPASSWORD or a pgpass file); or a PMTiles archive to serve tiles from, only read, with routes kept in --cache-dir.",
        valueName: "postgres://user@host:port/db|file.pmtiles"
    ))
    var sharedCache: String?

    @OptionGroup var fetching: FetchOptions

    @Option(
        name: .customLong("stale-while-revalidate"),
        help: ArgumentHelp(
            "How long past its expiry a tile is answered at once from the cache while one revalidation runs in the background, such as \(Int(MapServerConfiguration.defaultStaleWhileRevalidate / 86_400))d (the default), 12h or 90s; 0 waits for the revalidation. Frames always wait.",
            valueName: "duration"
        ),
        transform: DurationArgument.init(parsing:)
    )
    var staleWhileRevalidate: DurationArgument?

    @Option(help: ArgumentHelp("What to answer for a tile that is neither cached nor fetchable: placeholder (a grey tile) or 404.", valueName: "placeholder|404"))
    var missing = "placeholder"

    @Option(name: .customLong("render-threads"), help: "Threads that draw frames and composited tiles (1-16).")
    var renderThreads = FramePipeline.defaultRenderThreads

    @Option(name: .customLong("render-queue"), help: "Render jobs that may wait before the server answers 503 (1-10000).")
    var renderQueue = FramePipeline.defaultRenderQueueLimit

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Connections served at once (1-1000000); more are answered 503. Lowered to fit the descriptor limit.", valueName: "n"
    ))
    var maxConnections = ConnectionLimits.defaultMaxConnections

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "The server's address as clients reach it, such as https://maps.example.org, for the URLs it writes (default: the Host each request names).",
        valueName: "url"
    ))
    var publicURL: String?

    @Option(name: .customLong("write-token-file"), help: ArgumentHelp(
        "A file holding the token route writes need as Authorization: Bearer <token> (or set $\(WriteToken.environmentVariable)).",
        valueName: "file"
    ))
    var writeTokenFile: String?

    @Flag(name: .customLong("allow-anonymous-writes"), help: "On an address other than loopback, take route writes with no token.")
    var allowAnonymousWrites = false

    @Flag(name: .customLong("health-details"), help: ArgumentHelp(
        "Have /healthz say in full why the cache is unavailable (its address and the error), for a health check only operators reach; by default it says \"cache unavailable\", and the log has the rest."
    ))
    var healthDetails = false

    @Option(name: .customLong("write-rate-limit"), help: ArgumentHelp(
        "Route writes a client may make a minute (1-100000), after a burst of \(WriteRateLimit().burst); more get 429.", valueName: "n"
    ))
    var writeRateLimit = WriteRateLimit().perMinute

    @Option(name: .customLong("max-routes"), help: "Routes the server stores at most (1-1000000); more get 507.")
    var maxRoutes = RouteQuota().maxRoutes

    @Option(name: .customLong("max-route-points"), help: "Points over all stored routes at most (2-1000000000); more get 507.")
    var maxRoutePoints = RouteQuota().maxPoints

    @Option(name: .customLong("gtfs"), help: ArgumentHelp(
        "A GTFS feed (a folder or .zip) to load at start-up, named for scenes posted to /frame (\"transit\": {\"feed\": NAME}). Repeatable.",
        valueName: "name=path"
    ))
    var gtfs: [String] = []

    @Option(name: .customLong("gtfs-realtime"), help: ArgumentHelp(
        "A GTFS-realtime file (VehiclePositions, TripUpdates and Alerts in any mix) read afresh for every frame drawn from the --gtfs feed NAME. Repeatable.",
        valueName: "name=path"
    ))
    var gtfsRealtime: [String] = []

    @Option(name: .customLong("log-level"), help: ArgumentHelp(
        "The least severe events logged to standard error; a line per request is info.",
        valueName: Logger.Level.allCases.map(\.rawValue).joined(separator: "|")
    ))
    var logLevel = Logger.Level.info.rawValue

    @Option(name: .customLong("log-format"), help: ArgumentHelp(
        "How log lines are written: text, or json (one object a line, for log collectors).",
        valueName: LogFormat.allCases.map(\.rawValue).joined(separator: "|")
    ))
    var logFormat = LogFormat.text.rawValue

    @Option(name: .customLong("access-log"), help: ArgumentHelp(
        "Where the line per request goes, when --log-level is info or more talkative: a file (appended to), - for standard error, or off. Lines are written in batches; when the destination cannot keep up, lines are dropped and counted rather than requests held up.",
        valueName: "file|-|off"
    ))
    var accessLog = "-"

    func validate() throws {
        if let sharedCache, !CacheLocation.isArchiveName(sharedCache) {
            guard cacheDirectory == nil else { throw ValidationError("--cache and --cache-dir are alternatives; give one of them") }
            guard PostgresAddress.isPostgresURL(sharedCache) else {
                throw ValidationError("--cache: serve shares a postgres:// database or reads a .pmtiles archive; for MBTiles files give --cache-dir")
            }
            do { _ = try PostgresAddress(parsing: sharedCache) } catch { throw ValidationError("--cache: \(error)") }
        }
        guard (1...100_000).contains(writeRateLimit) else { throw ValidationError("--write-rate-limit: \(writeRateLimit) is outside 1...100000") }
        guard (1...1_000_000).contains(maxRoutes) else { throw ValidationError("--max-routes: \(maxRoutes) is outside 1...1000000") }
        guard (2...1_000_000_000).contains(maxRoutePoints) else {
            throw ValidationError("--max-route-points: \(maxRoutePoints) is outside 2...1000000000")
        }
        if let publicURL { _ = try PublicURLArgument.normalised(publicURL) }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections: \(maxConnections) is outside 1...1000000")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port: \(port) is outside 0...65535") }
        guard MapServerConfiguration.MissingTileAnswer(rawValue: missing) != nil else {
            throw ValidationError("--missing: '\(missing)' is not allowed; expected placeholder or 404")
        }
        guard (1...16).contains(renderThreads) else { throw ValidationError("--render-threads: \(renderThreads) is outside 1...16") }
        guard (1...10_000).contains(renderQueue) else { throw ValidationError("--render-queue: \(renderQueue) is outside 1...10000") }
        _ = try TransitFeedArgument.realtime(gtfsRealtime, feeds: TransitFeedArgument.parse(gtfs).map(\.name))
        _ = try logger()
    }

    /// The logger `--log-level` and `--log-format` ask for.
    private func logger() throws -> Logger {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level: '\(logLevel)' is not allowed; expected \(Self.alternatives(Logger.Level.allCases.map(\.rawValue)))")
        }
        guard let format = LogFormat(rawValue: logFormat) else {
            throw ValidationError("--log-format: '\(logFormat)' is not allowed; expected \(Self.alternatives(LogFormat.allCases.map(\.rawValue)))")
        }
        return .mapFrameServer(level: level, format: format)
    }

    /// The request lines' log `--access-log` asks for; nil when it is off or the level leaves
    /// requests out.
    private func openAccessLog() throws -> AccessLog? {
        guard let level = Logger.Level(rawValue: logLevel), level <= .info else { return nil }
        do {
            return try AccessLog(AccessLog.Destination(argument: accessLog), format: LogFormat(rawValue: logFormat) ?? .text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// "a, b or c".
    private static func alternatives(_ words: [String]) -> String {
        words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    func run() async throws {
        let configuration = MapServerConfiguration(
            host: host, port: port, cacheLocation: try cacheLocation(), routeLocation: routeLocation(), catalog: try fetching.catalog(),
            fetchPolicy: fetching.fetchPolicy(), userAgentOverridden: fetching.userAgent != nil, cacheCapacity: fetching.cacheLimit?.capacity,
            missingTileAnswer: MapServerConfiguration.MissingTileAnswer(rawValue: missing)!,
            renderThreads: renderThreads, renderQueueLimit: renderQueue,
            staleWhileRevalidate: staleWhileRevalidate?.seconds ?? MapServerConfiguration.defaultStaleWhileRevalidate,
            connectionLimits: ConnectionLimits(maxConnections: maxConnections),
            writeToken: try WriteToken.read(file: writeTokenFile), anonymousWritesAllowed: allowAnonymousWrites,
            writeRateLimit: WriteRateLimit(perMinute: writeRateLimit), routeQuota: RouteQuota(maxRoutes: maxRoutes, maxPoints: maxRoutePoints),
            publicURL: try publicURL.map(PublicURLArgument.normalised), healthDetails: healthDetails,
            transitFeeds: try TransitFeedArgument.load(gtfs),
            transitRealtime: try TransitFeedArgument.realtime(gtfsRealtime, feeds: TransitFeedArgument.parse(gtfs).map(\.name)),
            logger: try logger(), accessLog: try openAccessLog()
        )
        // Request handlers then run on the event loops' own threads instead of hopping to Swift's
        // global executor and back for every request, which halves the cost of a cached tile.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let server = try await MapServerApp(configuration: configuration)
        let host = host
        do {
            try await server.run { port in
                FileHandle.standardOutput.write(Data("MapFrame serving on http://\(host):\(port)/\n".utf8))
            }
        } catch {
            throw CommandFailure(description: "serve: \(error)")
        }
    }
}

extension ServeCommand {
    /// The shared database or the archive, else the cache directory.
    func cacheLocation() throws -> CacheLocation {
        if let sharedCache { return try CacheLocation.parsing(cacheOption: sharedCache) }
        return .directory(cacheDirectory ?? CacheLocation.defaultDirectory())
    }

    /// Where routes are stored: the cache directory when tiles come from an archive; else nil,
    /// for the cache location itself.
    func routeLocation() -> CacheLocation? {
        guard let sharedCache, CacheLocation.isArchiveName(sharedCache) else { return nil }
        return .directory(cacheDirectory ?? CacheLocation.defaultDirectory())
    }
}

/// The token route writes need: from the environment or a file, never the command line, where
/// every user of the machine could read it.
enum WriteToken {
    static let environmentVariable = "MAPFRAME_WRITE_TOKEN"
    static let minimumLength = 16

    /// The token from `--write-token-file` or the environment, checked; nil when neither gives one.
    static func read(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        let fromEnvironment = environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let token: String
        let origin: String
        switch (file, fromEnvironment) {
        case (nil, nil):
            return nil
        case (_?, _?):
            throw InputError(description: "--write-token-file and $\(environmentVariable) are alternatives; give one of them")
        case (let file?, nil):
            guard let data = FileManager.default.contents(atPath: file) else {
                throw InputError(description: "--write-token-file: \(file) cannot be read")
            }
            token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
            origin = "--write-token-file: \(file)"
        case (nil, let value?):
            token = value
            origin = "$\(environmentVariable)"
        }
        // RFC 6750's token68: letters, digits and -._~+/ then any '='. The token itself is never shown.
        guard token.count >= minimumLength, token.wholeMatch(of: /[A-Za-z0-9\-._~+\/]+=*/) != nil else {
            throw InputError(description: """
                \(origin): the token must be at least \(minimumLength) characters of letters, digits and -._~+/ \
                (such as the output of `openssl rand -hex 32`)
                """)
        }
        return token
    }
}

/// `--public-url`: an http(s) URL with no query or fragment, kept without a trailing slash.
enum PublicURLArgument {
    static func normalised(_ text: String) throws -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil, components.user == nil
        else {
            throw ValidationError("--public-url: '\(text)' is not allowed; expected an http(s) URL such as https://maps.example.org/tiles, with no query")
        }
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

/// `--gtfs NAME=PATH`, repeatable: the feeds a server loads at start-up, by name.
enum TransitFeedArgument {
    /// Names are letters, digits, '-' and '_', so a scene's `feed` can never be read as a path.
    static func parse(_ arguments: [String]) throws -> [(name: String, path: String)] {
        var seen = Set<String>()
        return try arguments.map { argument in
            let parts = argument.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[1].isEmpty, parts[0].wholeMatch(of: /[A-Za-z0-9_-]{1,64}/) != nil else {
                throw ValidationError("--gtfs: '\(argument)' is not allowed; expected NAME=PATH, NAME of 1 to 64 letters, digits, '-' or '_', such as --gtfs vasttrafik=feeds/vasttrafik.zip")
            }
            let name = String(parts[0])
            guard seen.insert(name).inserted else { throw ValidationError("--gtfs: the name '\(name)' is given twice") }
            return (name, String(parts[1]))
        }
    }

    /// `--gtfs-realtime NAME=PATH`, repeatable: each a file for the `--gtfs` feed NAME, in the
    /// order given. The files need not exist yet: each frame reads them as they are then.
    static func realtime(_ arguments: [String], feeds: [String]) throws -> [String: [URL]] {
        var files: [String: [URL]] = [:]
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--gtfs-realtime: '\(argument)' is not allowed; expected NAME=PATH, such as --gtfs-realtime vasttrafik=realtime/trip-updates.pb")
            }
            let name = String(parts[0])
            guard feeds.contains(name) else {
                throw ValidationError("--gtfs-realtime: '\(name)' is not a feed given with --gtfs; allowed \(feeds.isEmpty ? "none, as no --gtfs is given" : feeds.joined(separator: ", "))")
            }
            files[name, default: []].append(URL(fileURLWithPath: String(parts[1])))
        }
        return files
    }

    /// Opens every feed and checks every row of its `stop_times.txt` and `shapes.txt` once; a
    /// feed that cannot be read stops the server before it starts, rather than failing its first journey.
    static func load(_ arguments: [String]) throws -> [String: GTFSFeed] {
        var feeds: [String: GTFSFeed] = [:]
        for (name, path) in try parse(arguments) {
            do {
                let feed = try GTFSFeed.open(at: URL(fileURLWithPath: path))
                _ = try feed.stopTimes(ofTrips: [])
                _ = try feed.shapes([])
                feeds[name] = feed
            } catch {
                throw InputError(description: "--gtfs \(name): \(error.description)")
            }
        }
        return feeds
    }
}
#endif
