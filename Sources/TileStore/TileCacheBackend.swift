import Foundation
import MapGeometry

/// Where one style's tiles are kept: an MBTiles file (`MBTilesBackend`), a PMTiles archive only
/// read (`PMTilesBackend`), or a PostgreSQL database that several MapFrame instances share
/// (`PostgresTileCache`). `TileStore` and
/// everything above it use a cache only through this protocol.
///
/// Every method is async and never blocks its caller: an MBTiles file is read and written on
/// `BlockingPool.storage`, a database over postgres-nio's connections. Each write is all or
/// nothing.
public protocol TileCacheBackend: AnyObject, Sendable {
    /// Names the cache in messages and in decoded-tile keys: a file's path, or a database's
    /// address and the style. Never holds a password.
    var name: String { get }
    /// Which kind of backend this is, for metrics and `/healthz`.
    var kind: CacheBackendKind { get }
    /// Why nothing can be written, or nil when the cache can be written.
    var readOnlyReason: String? { get }
    /// Why the cache cannot be used, in full, or nil when it can: a shared database down (asked
    /// now); a file damaged, removed or replaced (as last seen, never waiting for the storage
    /// threads, which a locked file may hold).
    func unavailability() async -> Unavailability?
    /// Looks at the cache's storage now, on the storage threads, so that a file removed or
    /// replaced while nothing uses it is noticed (`unavailability()` then says so).
    func lookAtStorage() async

    /// Everything the cache knows of a tile, in one round trip: its bytes and freshness, why
    /// bytes stored for it cannot be an image, and whether the upstream said lately it has none.
    func lookup(_ tile: TileID, at now: Date) async throws(CacheError) -> CacheLookup
    /// How many of `tiles` are held and fresh at `now`; tiles without freshness never expire.
    func freshTileCount(in tiles: [TileID], at now: Date) async throws(CacheError) -> Int

    /// Stores a fetched tile and its freshness together (or, without freshness, a tile that
    /// never expires), and forgets any 404 remembered for it.
    func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) async throws(CacheError)
    /// Records a revalidation (304): the bytes stay, expiry and validators move on.
    func updateFreshness(_ freshness: TileFreshness, for tile: TileID) async throws(CacheError)
    /// Remembers that the upstream has no such tile, until `until`.
    func markMissing(_ tile: TileID, until: Date) async throws(CacheError)
    /// Marks tiles as used at `date`, for least-recently-used purging.
    func touch(_ tiles: [TileID], at date: Date) async throws(CacheError)
    /// Marks the tiles held inside `blocks` expired at `now`, in one transaction, so that each is
    /// revalidated when next asked for: its expiry moves back to `now`, while its bytes and
    /// validators stay. A tile with no freshness record gains one, expired; a tile expired already
    /// is left as it is. Returns how many tiles were marked, each once however many blocks hold it.
    func markExpired(_ blocks: [TileBlock], at now: Date) async throws(CacheError) -> Int

    /// Counts, sizes and expiry of the stored tiles.
    func statistics(at now: Date) async throws(CacheError) -> CacheStatistics
    /// Deletes the `count` least recently used tiles (never those without freshness); returns
    /// how many went.
    @discardableResult func purgeLeastRecentlyUsed(_ count: Int) async throws(CacheError) -> Int
    /// Deletes tiles fetched before `date`; returns how many went.
    @discardableResult func purge(fetchedBefore date: Date) async throws(CacheError) -> Int
    /// Brings the tileset's description up to date after tiles were stored.
    func refreshMetadata(name: String, attribution: String) async throws(CacheError)

    /// Up to `limit` stored tiles with their freshness, in address order after `after`: for
    /// copying a whole cache a page at a time.
    func tiles(after: TileID?, limit: Int) async throws(CacheError) -> [StoredTileRecord]
    /// Stores a page of copied tiles with their freshness, all of them or none.
    func storeCopies(_ records: [StoredTileRecord]) async throws(CacheError)

    /// What the cache says of its tiles, read now, where another tool may have made them (an
    /// MBTiles file): drawing takes their size, and the zooms held, from it. Nil for a cache that
    /// holds only what the style's upstream sent.
    func tilesetDescription() async throws(CacheError) -> TilesetDescription?

    /// Waits until this process may fetch `tile`: at once for a cache only it uses; for a shared
    /// one, once no other instance is fetching the tile, or the wait has run out. `.stored` with the
    /// tile when the cache holds it fresh at `now` by then (another fill stored it meanwhile).
    func fetchTurn(for tile: TileID, at now: Date) async -> FetchTurn
}

extension TileCacheBackend {
    public func lookAtStorage() async {}
    public func tilesetDescription() async throws(CacheError) -> TilesetDescription? { nil }
}

/// Storage that cannot be used now, and why, in full: for the log, and for `/healthz` only
/// where operators alone reach it.
public struct Unavailability: Sendable, Equatable, CustomStringConvertible {
    /// What cannot be used, named with its kind: "cache PATH", "cache postgres://…".
    public var storage: String
    public var reason: String

    public init(storage: String, reason: String) {
        self.storage = storage
        self.reason = reason
    }

    public var description: String { "\(storage) is unavailable: \(reason)" }
}

/// The kinds of cache backend, as metrics and `/healthz` name them.
public enum CacheBackendKind: String, Sendable, CaseIterable {
    case mbtiles
    case pmtiles
    case postgres
}

/// A stored tile's bytes and freshness (nil for tiles that never expire).
public struct StoredTile: Sendable, Equatable {
    public var data: Data
    public var freshness: TileFreshness?

    public init(data: Data, freshness: TileFreshness?) {
        self.data = data
        self.freshness = freshness
    }

    /// Whether the tile may be used without asking the upstream at `now`: tiles with no
    /// freshness record (generated fixtures, or another tool's) never expire.
    public func isFresh(at now: Date) -> Bool {
        freshness?.isFresh(at: now) ?? true
    }
}

/// One stored tile with its address, as a cache copy reads and writes it.
public struct StoredTileRecord: Sendable, Equatable {
    public var tile: TileID
    public var stored: StoredTile

    public init(tile: TileID, stored: StoredTile) {
        self.tile = tile
        self.stored = stored
    }
}

/// What a cache knows of one tile: the answer to one lookup.
public struct CacheLookup: Sendable, Equatable {
    /// The tile's bytes and freshness, when bytes that may be an image are stored.
    public var stored: StoredTile?
    /// Why what is stored for the tile cannot be an image (text, NULL, too large), when so.
    public var unusableReason: String?
    /// Whether the upstream answered 404 for it recently.
    public var isKnownMissing: Bool

    public init(stored: StoredTile?, unusableReason: String? = nil, isKnownMissing: Bool = false) {
        self.stored = stored
        self.unusableReason = unusableReason
        self.isKnownMissing = isKnownMissing
    }
}

/// Whether this process fetches a tile, and what to do when the fetch is done.
public enum FetchTurn: Sendable {
    /// The cache holds the tile, fresh (these bytes): nothing to fetch.
    case stored(StoredTile)
    /// Fetch it, then call `release` so that waiting instances may go on.
    case fetch(release: @Sendable () async -> Void)
}

/// A summary of a cache's contents.
public struct CacheStatistics: Sendable, Equatable {
    public var tileCount: Int
    public var totalBytes: Int
    /// Tiles whose freshness has run out (they are revalidated when next used).
    public var expiredCount: Int
    /// Tiles with no freshness record, such as generated fixture tiles or another tool's.
    public var untrackedCount: Int
    public var tilesPerZoom: [Int: Int]
}
