// Tile cache benchmark: `make bench` (release build). Fills a cache from a local test upstream
// on 127.0.0.1 through `TileStore.tile`, the one path every frame, base tile and seed takes, and
// prints medians, with ratios against fetching the same tiles without a cache in the same run,
// because the machine is shared and noisy.
import FixtureTiles
import Foundation
import ImageCodec
import MapGeometry
import MapRender
import TileStore
import UpstreamSimulator

let tileCount = 500
let runs = 5

/// Times `body` `runs` times and returns the median in seconds.
func medianSeconds(_ body: () async throws -> Void) async rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return samples.sorted()[runs / 2]
}

func report(_ label: String, tilesPerSecond: Double, baseline: Double? = nil) {
    var line = label.padding(toLength: 56, withPad: " ", startingAt: 0) + String(format: "%9.0f tiles/s", tilesPerSecond)
    if let baseline { line += String(format: "   %5.2fx baseline", tilesPerSecond / baseline) }
    print(line)
}

// The upstream serves distinct fixture tiles, each with a day of freshness.
let area = GeoBounds(south: 52.19, west: 0.10, north: 52.225, east: 0.19)
let tiles = Array(TileID.covering(area, zoom: 17).prefix(tileCount))
let artist = FixtureTileArtist(palette: .osm)
var pngs: [String: Data] = [:]
for tile in tiles { pngs["/\(tile.z)/\(tile.x)/\(tile.y).png"] = try artist.draw(tile).pngData(opaque: true) }
let upstream = try UpstreamSimulator()
for (path, png) in pngs {
    upstream.setResponse(.png(png, headers: [("Cache-Control", "max-age=86400"), ("ETag", "\"\(path.hashValue)\"")]), for: path)
}
let source = try TileSource(json: Data("""
    {"name": "bench", "url": "\(upstream.baseURL)/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "Bench"}
    """.utf8), documentName: "bench.json")

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-cache-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
/// A store over a new, empty cache file.
func freshStore(fetcher: TileFetcher) throws -> TileStore {
    let cache = try MBTilesCache(creatingIfNeeded: directory.appendingPathComponent("cache-\(UUID().uuidString).mbtiles").path)
    return TileStore(source: source, cache: MBTilesBackend(cache), fetcher: fetcher)
}

/// Asks for every tile at once, as a burst of requests would, and returns how each was come by.
func supply(_ tiles: [TileID], from store: TileStore) async -> [TileFill] {
    await withTaskGroup(of: TileFill.self) { group in
        for tile in tiles { group.addTask { await store.tile(tile).fill } }
        return await group.reduce(into: []) { $0.append($1) }
    }
}

let fetcher = TileFetcher(policy: FetchPolicy(userAgent: "MapFrameBench/1"))

// Baseline: the same tiles over the same connections, validated but not stored.
let baseline = await medianSeconds {
    await withTaskGroup(of: Void.self) { group in
        for tile in tiles { group.addTask { _ = await fetcher.fetch(tile, from: source, validators: nil) } }
    }
}

let cold = try await medianSeconds {
    let store = try freshStore(fetcher: fetcher)
    _ = await supply(tiles, from: store)
    try await store.flush()
}

let warmStore = try freshStore(fetcher: fetcher)
_ = await supply(tiles, from: warmStore)
upstream.resetLog()
let warm = await medianSeconds { _ = await supply(tiles, from: warmStore) }
let warmRequests = upstream.requests.count
let warmOneByOne = await medianSeconds { for tile in tiles { _ = await warmStore.tile(tile) } }

// 100 concurrent requests for one tile that is not cached yet.
let coalescingStore = try freshStore(fetcher: fetcher)
let sharedTile = tiles[0]
upstream.resetLog()
let results = await supply(Array(repeating: sharedTile, count: 100), from: coalescingStore)
let sharedRequests = upstream.requestCount(for: "/\(sharedTile.z)/\(sharedTile.x)/\(sharedTile.y).png")

print("MapFrame tile cache benchmark: \(tiles.count) distinct tiles from a local upstream on 127.0.0.1, \(FetchPolicy.defaultMaxConnectionsPerHost) connections")
print("medians of \(runs) runs")
report("baseline: fetch and validate, no cache", tilesPerSecond: Double(tiles.count) / baseline)
report("cold: fetch, validate, store, all at once", tilesPerSecond: Double(tiles.count) / cold, baseline: Double(tiles.count) / baseline)
report("warm: all cached and fresh, all at once (\(warmRequests) upstream requests)", tilesPerSecond: Double(tiles.count) / warm, baseline: Double(tiles.count) / baseline)
report("warm: one tile after another", tilesPerSecond: Double(tiles.count) / warmOneByOne, baseline: Double(tiles.count) / baseline)
let (shared, cached) = (results.filter { $0 == .fetched }.count, results.filter { $0 == .cached }.count)
print("100 concurrent requests for one uncached tile: \(sharedRequests) upstream request(s) (must be 1); "
    + "\(shared) shared the fetch, \(cached) arrived after it was stored")
await fetcher.shutdown()
upstream.stop()
