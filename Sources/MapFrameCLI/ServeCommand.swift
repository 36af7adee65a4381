import ArgumentParser
import Foundation
import MapServer
import NIOCore
import NIOPosix
import TileStore

/// `mapframe serve`: cached and composited tiles, routes and frames over HTTP.
struct ServeCommand: ParsableCommand {
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

    @OptionGroup var fetching: FetchOptions

    @Option(help: ArgumentHelp("What to answer for a tile that is neither cached nor fetchable: placeholder (a grey tile) or 404.", valueName: "placeholder|404"))
    var missing = "placeholder"

    @Option(name: .customLong("render-threads"), help: "Threads that draw frames and composited tiles (1-16).")
    var renderThreads = 2

    @Option(name: .customLong("render-queue"), help: "Render jobs that may wait before the server answers 503 (1-10000).")
    var renderQueue = 64

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Connections served at once (1-1000000); more are answered 503. Lowered to fit the descriptor limit.", valueName: "n"
    ))
    var maxConnections = ConnectionLimits.defaultMaxConnections

    func validate() throws {
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections: \(maxConnections) is outside 1...1000000")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port: \(port) is outside 0...65535") }
        guard MapServerConfiguration.MissingTileAnswer(rawValue: missing) != nil else {
            throw ValidationError("--missing: '\(missing)' is not allowed; expected placeholder or 404")
        }
        guard (1...16).contains(renderThreads) else { throw ValidationError("--render-threads: \(renderThreads) is outside 1...16") }
        guard (1...10_000).contains(renderQueue) else { throw ValidationError("--render-queue: \(renderQueue) is outside 1...10000") }
    }

    func run() throws {
        let configuration = MapServerConfiguration(
            host: host, port: port, cacheDirectory: cacheDirectory ?? CacheLocation.defaultDirectory(), catalog: try fetching.catalog(),
            fetchPolicy: fetching.fetchPolicy(), userAgentOverridden: fetching.userAgent != nil, cacheCapacity: fetching.cacheLimit?.capacity,
            missingTileAnswer: MapServerConfiguration.MissingTileAnswer(rawValue: missing)!,
            renderThreads: renderThreads, renderQueueLimit: renderQueue,
            connectionLimits: ConnectionLimits(maxConnections: maxConnections)
        )
        // Request handlers then run on the event loops' own threads instead of hopping to Swift's
        // global executor and back for every request, which halves the cost of a cached tile.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let server = try MapServerApp(configuration: configuration)
        let host = host
        try waitFor {
            try await server.run { port in
                FileHandle.standardOutput.write(Data("MapFrame serving on http://\(host):\(port)/\n".utf8))
            }
        }
    }

    /// Runs async work from this synchronous command and waits for it.
    private func waitFor(_ work: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do { try await work() } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw CommandFailure(description: "serve: \(error)") }
    }
}

/// Carries an error out of the server task.
private final class FailureBox: @unchecked Sendable {
    var error: Error?
}
