import Logging
import RouteStore
import Synchronization
import TileStore

/// Whether the tile caches and the route store can be used now: what `/healthz` says, what the
/// `mapframe_cache_available` gauge shows, and what the log is told whenever it changes.
final class StorageHealth: Sendable {
    /// What `/healthz` says of unavailable storage to anyone who asks: nothing of its address,
    /// its queries or the server's internals.
    static let publicReason = "cache unavailable"

    private let tiles: TileService
    private let routes: any RouteStore
    private let logger: Logger
    private let metrics: ServerMetrics
    /// What was unavailable when last looked at, so that the log says what changed.
    private let lastSeen = Mutex<[Unavailability]>([])

    init(tiles: TileService, routes: any RouteStore, logger: Logger, metrics: ServerMetrics) {
        self.tiles = tiles
        self.routes = routes
        self.logger = logger
        self.metrics = metrics
    }

    /// Looks at the files now, on the storage threads, so that one removed or replaced while no
    /// request uses it is found (the tile caches look as they are flushed).
    func lookAtStorage() async {
        await routes.lookAtStorage()
    }

    /// Why storage cannot be used, in full, or nil when all of it can: a shared database asked
    /// now, files as last seen (never waiting for a storage thread, which a locked file may
    /// hold). Logs what became unavailable or available again since the last answer.
    func unavailableReason() async -> String? {
        var unavailable = await tiles.unavailableCaches()
        if let routes = await routes.unavailability(), !unavailable.contains(routes) { unavailable.append(routes) }
        metrics.cacheAvailable(unavailable.isEmpty)
        let previous = lastSeen.withLock { last in
            defer { last = unavailable }
            return last
        }
        for now in unavailable where !previous.contains(now) { logger.warning("\(now)") }
        for then in previous where !unavailable.contains(where: { $0.storage == then.storage }) {
            logger.warning("\(then.storage) is available again")
        }
        return unavailable.isEmpty ? nil : unavailable.map(\.description).joined(separator: "; ")
    }
}
