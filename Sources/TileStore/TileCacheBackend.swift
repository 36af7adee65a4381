import Foundation
import MapGeometry

/// Where one style's tiles are kept: an MBTiles file (`MBTilesBackend`) or a PostgreSQL
/// database that several MapFrame instances share (`PostgresTileCache`). `TileStore` and
/// everything above it use a cache only through this protocol.
///
/// Implementations are safe to call from any thread, and block the caller while they work, as
/// SQLite does; call them on threads meant for blocking work. Each write is all or nothing.
public protocol TileCacheBackend: AnyObject, Sendable {
    /// Names the cache in messages and in decoded-tile keys: a file's path, or a database's
    /// address and the style. Never holds a password.
    var name: String { get }
    /// Which kind of backend this is, for metrics and `/healthz`.
    var kind: CacheBackendKind { get }
    /// Why nothing can be written, or nil when the cache can be written.
    var readOnlyReason: String? { get }

    /// The stored bytes of a tile, or nil when it is not stored. Bytes that cannot be an image
    /// throw `CacheError.unusableTile`.
    func tileData(for tile: TileID) throws(CacheError) -> Data?
    /// A tile's bytes and freshness, for serving as they are; nil when not stored, or when what is
    /// stored cannot be an image.
    func storedTile(_ tile: TileID) throws(CacheError) -> StoredTile?
    /// Whether a tile is held, how fresh, and whether the upstream said lately it has none.
    func state(of tile: TileID, at now: Date) throws(CacheError) -> CachedTileState
    /// How many of `tiles` are held and fresh at `now`; tiles without freshness never expire.
    func freshTileCount(in tiles: [TileID], at now: Date) throws(CacheError) -> Int

    /// Stores a fetched tile and its freshness together (or, without freshness, a tile that
    /// never expires), and forgets any 404 remembered for it.
    func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) throws(CacheError)
    /// Records a revalidation (304): the bytes stay, expiry and validators move on.
    func updateFreshness(_ freshness: TileFreshness, for tile: TileID) throws(CacheError)
    /// Remembers that the upstream has no such tile, until `until`.
    func markMissing(_ tile: TileID, until: Date) throws(CacheError)
    /// Marks tiles as used at `date`, for least-recently-used purging.
    func touch(_ tiles: [TileID], at date: Date) throws(CacheError)

    /// Counts, sizes and expiry of the stored tiles.
    func statistics(at now: Date) throws(CacheError) -> CacheStatistics
    /// Deletes the `count` least recently used tiles (never those without freshness); returns
    /// how many went.
    @discardableResult func purgeLeastRecentlyUsed(_ count: Int) throws(CacheError) -> Int
    /// Deletes tiles fetched before `date`; returns how many went.
    @discardableResult func purge(fetchedBefore date: Date) throws(CacheError) -> Int
    /// Brings the tileset's description up to date after tiles were stored.
    func refreshMetadata(name: String, attribution: String) throws(CacheError)

    /// Up to `limit` stored tiles with their freshness, in address order after `after`: for
    /// copying a whole cache a page at a time.
    func tiles(after: TileID?, limit: Int) throws(CacheError) -> [StoredTileRecord]
    /// Stores a page of copied tiles with their freshness, all of them or none.
    func storeCopies(_ records: [StoredTileRecord]) throws(CacheError)

    /// Calls `turn` when this process may fetch `tile`: at once, on the calling thread, for a
    /// cache only it uses; for a shared one, once no other instance is fetching the tile, or the
    /// wait has run out, without blocking a thread meanwhile. `.stored` when another instance
    /// stored it, fresh at `now`, meanwhile.
    func takeFetchTurn(for tile: TileID, at now: Date, _ turn: @escaping @Sendable (FetchTurn) -> Void)
}

/// The kinds of cache backend, as metrics and `/healthz` name them.
public enum CacheBackendKind: String, Sendable, CaseIterable {
    case mbtiles
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

/// What a cache knows of one tile before deciding whether to fetch it.
public struct CachedTileState: Sendable, Equatable {
    /// Whether usable bytes are stored.
    public var isHeld: Bool
    /// The stored freshness; nil when none is recorded (the tile never expires).
    public var freshness: TileFreshness?
    /// Whether the upstream answered 404 for it recently.
    public var isKnownMissing: Bool

    public init(isHeld: Bool, freshness: TileFreshness?, isKnownMissing: Bool) {
        self.isHeld = isHeld
        self.freshness = freshness
        self.isKnownMissing = isKnownMissing
    }
}

/// Whether this process fetches a tile, and what to do when the fetch is done.
public enum FetchTurn: Sendable {
    /// Another instance stored the tile while this one waited: nothing to fetch.
    case stored
    /// Fetch it, then call `release` so that waiting instances may go on.
    case fetch(release: @Sendable () -> Void)
}
