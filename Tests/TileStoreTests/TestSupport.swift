import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Synchronization
import Testing
import TileStore
import UpstreamSimulator

/// A 256-pixel tile of one colour, as PNG bytes.
func solidTilePNG(_ colour: Colour) throws -> Data {
    try RasterImage(width: 256, height: 256, filledWith: colour).pngData()
}

/// A tile as a frame would draw it: decoded, or missing with the reason.
enum DrawnTile {
    case image(RasterImage)
    case missing(MissingTile)

    /// The missing tile, or nil when it was decoded.
    var missingTile: MissingTile? {
        if case .missing(let missing) = self { return missing }
        return nil
    }

    /// The decoded image, or nil when the tile is missing.
    var image: RasterImage? {
        if case .image(let image) = self { return image }
        return nil
    }

    /// Why the tile is missing, or nil when it was decoded.
    var missingReason: MissingTile.Reason? { missingTile?.reason }
}

extension TileStore {
    /// Has several tiles at once (each once), as a frame asks for its tiles, and says how each
    /// was come by.
    func fills(_ ids: [TileID]) async -> [TileID: TileFill] {
        await withTaskGroup(of: (TileID, TileFill).self) { group in
            for id in Set(ids) { group.addTask { (id, await self.tile(id).fill) } }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// A tile as a frame draws it: supplied, then decoded (as the frame pipeline does on a render
    /// thread), or why it is missing.
    func drawn(_ id: TileID) async -> DrawnTile {
        let supplied = await tile(id)
        guard let stored = supplied.stored else {
            if case .missing(let missing) = supplied.fill { return .missing(missing) }
            return .missing(MissingTile(tile: id, reason: .notCached))
        }
        do {
            return .image(try source.tileDecoder.decode(stored.data))
        } catch {
            return .missing(MissingTile(tile: id, reason: .undecodable(error.description)))
        }
    }
}

extension MissingTile.Reason {
    var isUndecodable: Bool {
        if case .undecodable = self { return true }
        return false
    }
}

extension TileFill {
    /// The missing tile, or nil when the fill produced a usable tile.
    var missing: MissingTile? {
        if case .missing(let missing) = self { return missing }
        return nil
    }

    /// The failure message of a stale fill, or nil when the fill was not stale.
    var staleMessage: String? {
        if case .stale(let message) = self { return message }
        return nil
    }
}

extension MissingTile.Reason {
    /// The message of a failed fetch, or nil for any other reason.
    var fetchFailureMessage: String? {
        if case .fetchFailed(let message) = self { return message }
        return nil
    }
}

extension DispatchGroup {
    /// Waits until every `enter()` has been matched by a `leave()`, without blocking a thread.
    func waitWithoutBlocking() async {
        await withCheckedContinuation { continuation in notify(queue: .global()) { continuation.resume() } }
    }
}

// MARK: - A simulated upstream and a cache filled from it

/// A clock that stands still until a test moves it, so tiles expire without any sleeping.
final class TestClock: Sendable {
    /// A whole second (HTTP dates have no fractions, so `Expires` lifetimes come out exact).
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    private let current = Mutex(TestClock.start)

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

extension FetchPolicy {
    /// Short timeouts and waits, so that a fault costs a second or two rather than the
    /// seconds real servers are allowed.
    static func fastTest(
        maxAttempts: Int = 3, maxConnectionsPerHost: Int = 2, userAgent: String = FetchPolicy.defaultUserAgent,
        totalTimeout: Duration = .seconds(2), fetchDeadline: Duration = .seconds(10)
    ) -> FetchPolicy {
        FetchPolicy(
            userAgent: userAgent, maxConnectionsPerHost: maxConnectionsPerHost, connectTimeout: .seconds(1), totalTimeout: totalTimeout,
            maxAttempts: maxAttempts, retryBackoff: .milliseconds(50), fetchDeadline: fetchDeadline
        )
    }
}

/// The tiles the simulated upstream serves. Each is one solid colour of its own, different for
/// every tile and every version of it, and never the missing-tile grey, so that one pixel of a
/// decoded tile tells which tile, and which version of it, the store holds.
enum SimulatedTiles {
    static func colour(for tile: TileID, version: Int = 1) -> Colour {
        // Red is always even and green always odd, so the two never match as in grey.
        Colour(
            redLevel: UInt8(truncatingIfNeeded: (tile.x * 37 + version * 51) * 2),
            greenLevel: UInt8(truncatingIfNeeded: (tile.y * 53 + version * 71) * 2 + 1),
            blueLevel: UInt8(truncatingIfNeeded: tile.z * 11 + version * 29)
        )
    }

    static func png(for tile: TileID, version: Int = 1) throws -> Data {
        try solidTilePNG(colour(for: tile, version: version))
    }

    /// A tile as large as a real one (about 12 KB): 4-pixel squares in pseudo-random colours,
    /// which compress about as badly as a drawn map, different for every tile.
    static func detailedPNG(for tile: TileID) throws -> Data {
        var state = UInt64(truncatingIfNeeded: (tile.z * 1_000_003 + tile.x) * 1_000_033 + tile.y)
        var pixels = [UInt32](repeating: 0, count: 256 * 256)
        for squareY in 0..<64 {
            for squareX in 0..<64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let colour = Colour(
                    redLevel: UInt8(truncatingIfNeeded: state >> 40), greenLevel: UInt8(truncatingIfNeeded: state >> 48),
                    blueLevel: UInt8(truncatingIfNeeded: state >> 56)
                )
                let word = RasterImage.premultipliedWord(colour)
                for y in squareY * 4..<squareY * 4 + 4 {
                    for x in squareX * 4..<squareX * 4 + 4 { pixels[y * 256 + x] = word }
                }
            }
        }
        return try pixels.withUnsafeBytes { buffer in
            try PNGCodec.encode(pixels: buffer.baseAddress!, width: 256, height: 256, stride: 256 * 4, opaque: true)
        }
    }
}

/// The style (tile source) a test points at the simulator.
struct SimulatedStyle: Sendable {
    /// Appended to the URL template, such as "?apikey={apikey}".
    var query = ""
    var apiKeyEnv: String?
    var userAgent: String?
    /// The upstream, when it is not the world's simulator (such as a port nobody listens on).
    var baseURL: String?

    /// The style for tiles at `\(baseURL)/{z}/{x}/{y}.png`, parsed as any style file would be.
    func source(defaultBaseURL: String) throws -> TileSource {
        var fields: [String: Any] = [
            "name": "sim", "title": "Simulated upstream", "url": "\(baseURL ?? defaultBaseURL)/{z}/{x}/{y}.png\(query)",
            "minZoom": 0, "maxZoom": 19, "attribution": "© simulated contributors",
        ]
        if let apiKeyEnv { fields["apiKeyEnv"] = apiKeyEnv }
        if let userAgent { fields["userAgent"] = userAgent }
        let json = try JSONSerialization.data(withJSONObject: fields, options: [.withoutEscapingSlashes, .sortedKeys])
        return try TileSource(json: json, documentName: "sim.json")
    }
}

/// One test's world: a simulated upstream on 127.0.0.1, a style pointing at it, an MBTiles cache
/// in a temporary directory, a clock the test moves, and a TileStore filling the cache from the
/// upstream over real HTTP. The upstream serves `SimulatedTiles` for every "/z/x/y.png" unless a
/// test says otherwise. Everything is torn down when the test lets go of the world.
final class UpstreamWorld: Sendable {
    let upstream: UpstreamSimulator
    let source: TileSource
    let clock: TestClock
    let fetcher: TileFetcher
    let store: TileStore
    let directory: URL

    /// - Parameters:
    ///   - tileHeaders: response headers sent with every simulated tile.
    ///   - fullCache: the store's writes fail as on a full disk (other connections, such as
    ///     `seedExpiredCopy`'s, can still write).
    init(
        policy: FetchPolicy = .fastTest(), style: SimulatedStyle = SimulatedStyle(), userAgentOverridden: Bool = false,
        environment: [String: String] = [:], capacity: CacheCapacity? = nil, tileHeaders: [(String, String)] = [],
        fullCache: Bool = false
    ) throws {
        upstream = try UpstreamSimulator()
        upstream.setDefaultHandler { path in
            guard let tile = tileID(atUpstreamPath: path), let png = try? SimulatedTiles.png(for: tile) else { return nil }
            return .png(png, headers: tileHeaders)
        }
        source = try style.source(defaultBaseURL: upstream.baseURL)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("TileStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = TestClock()
        self.clock = clock
        fetcher = TileFetcher(policy: policy, userAgentOverridden: userAgentOverridden, environment: environment)
        let cache = try MBTilesCache(creatingIfNeeded: directory.appendingPathComponent("sim.mbtiles").path)
        if fullCache { try cache.fillUp() }
        store = TileStore(
            source: source, cache: MBTilesBackend(cache), fetcher: fetcher, capacity: capacity, clock: { clock.now }
        )
    }

    deinit {
        // The transfer thread stops by itself once the fetcher is gone.
        upstream.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var cachePath: String { store.cacheName }

    /// The requests the upstream received for `tile`, in order.
    func requests(for tile: TileID) -> [RecordedRequest] {
        upstream.requests.filter { $0.path == upstreamPath(tile) }
    }

    /// Applies `fault` to the next `times` requests for `tile`.
    func inject(_ fault: Fault, for tile: TileID, times: Int = 1) {
        upstream.inject(fault, for: upstreamPath(tile), times: times)
    }

    /// The cache file read through a connection of its own, as another process would see it.
    func reader() throws -> MBTilesCache {
        try MBTilesCache(openingExisting: cachePath)
    }

    /// What the cache file holds for `tile`: its bytes and its freshness row.
    func cached(_ tile: TileID) throws -> (bytes: Data?, freshness: TileFreshness?) {
        let reader = try reader()
        return (try reader.tileData(for: tile), try reader.lookup(tile, at: Date()).stored?.freshness)
    }

    /// Writes an expired copy of `tile` (fetched eight days ago, out of date since yesterday)
    /// straight into the cache file, and returns its bytes. Its colour is that of `version`.
    @discardableResult
    func seedExpiredCopy(of tile: TileID, version: Int = 0) throws -> Data {
        let bytes = try SimulatedTiles.png(for: tile, version: version)
        let now = clock.now, day: TimeInterval = 24 * 3600
        let freshness = TileFreshness(etag: nil, lastModified: nil, expiresAt: now - day, fetchedAt: now - 8 * day)
        try MBTilesCache(openingExisting: cachePath, readOnly: false).store(bytes, for: tile, freshness: freshness)
        return bytes
    }

    /// The tile as a frame drawing from the cache alone would have it: the store over the file,
    /// with no upstream, so that looking never fetches.
    func drawnFromCache(_ tile: TileID) async throws -> DrawnTile {
        await TileStore(source: source, cache: MBTilesBackend(try reader()), clock: { [clock] in clock.now }).drawn(tile)
    }

    /// Checks that the cache holds exactly `bytes` for `tile` and that the store hands those
    /// pixels to a frame. (How a frame draws what the store hands it is MapRenderTests' concern.)
    func expectCached(_ tile: TileID, bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try cached(tile).bytes == bytes, "the cache should hold the expected bytes for \(tile)", sourceLocation: sourceLocation)
        let lookup = try await drawnFromCache(tile)
        let expected = try PNGCodec.decode(bytes).pixel(x: 128, y: 128)
        #expect(lookup.missingTile == nil, "\(lookup.missingTile.map(\.description) ?? "")", sourceLocation: sourceLocation)
        #expect(lookup.image?.pixel(x: 128, y: 128) == expected, "the store should hand out \(tile)'s pixels", sourceLocation: sourceLocation)
    }

    /// Checks that the cache holds nothing for `tile` (no bytes, no freshness row) and that the
    /// store reports it missing, which a frame draws as plain grey.
    func expectNothingCached(_ tile: TileID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let cached = try cached(tile)
        #expect(cached.bytes == nil && cached.freshness == nil, "nothing should be stored for \(tile)", sourceLocation: sourceLocation)
        #expect(try await drawnFromCache(tile).missingTile?.tile == tile, "\(tile) should be reported missing", sourceLocation: sourceLocation)
    }
}
