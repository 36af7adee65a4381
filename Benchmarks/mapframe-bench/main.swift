// Frame benchmark: `make bench` (release build). Prints medians, and ratios against a
// baseline measured in the same run, because the machine is shared and noisy.
// `mapframe-bench gtfs` runs only the GTFS section, so that `/usr/bin/time -v` measures it alone;
// `mapframe-bench tile-floor` is scripts/bench-peers.sh's floor for composited tiles, and
// `mapframe-bench png-floor` its floor for frames.
import FixtureTiles
import Foundation
import FrameExplain
import FramePipeline
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import TileStore

/// Runs `body` `iterations` times after `warmUp` untimed runs; returns the median in milliseconds.
func medianMilliseconds(iterations: Int, warmUp: Int = 10, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<warmUp { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// `medianMilliseconds` for work that awaits.
func medianMilliseconds(iterations: Int, warmUp: Int = 10, _ body: () async throws -> Void) async rethrows -> Double {
    for _ in 0..<warmUp { try await body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    samples.sort()
    return samples[samples.count / 2]
}

func report(_ label: String, _ milliseconds: Double, baseline: Double? = nil, unit: String = "baseline") {
    var line = label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8.3f ms", milliseconds)
    if let baseline { line += String(format: "   %5.2fx \(unit)", milliseconds / baseline) }
    print(line)
}

switch CommandLine.arguments.dropFirst().first {
case "gtfs":
    try benchmarkGTFS()
    exit(0)
case "tile-floor":
    try benchmarkTileFloor(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
case "png-floor":
    try benchmarkPNGFloor(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
default:
    break
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let cachePath = directory.appendingPathComponent("osm.mbtiles").path
try DemoFixtures.build(style: "osm", into: cachePath)

// A 300-point route wandering across the frame, with start and finish markers.
let center = Coordinate(latitude: 52.2072, longitude: 0.1412)
let route = (0..<300).map { index -> Coordinate in
    let t = Double(index) / 299
    return Coordinate(latitude: center.latitude - 0.006 + 0.012 * t, longitude: center.longitude + 0.004 * sin(t * 9))
}
let scene = Scene(
    camera: .fixed(Camera(center: center, zoom: 16)), start: route.first, finish: route.last, route: RouteLine(route)
)
let source = StyleCatalog.builtin["osm"]!
let renderer = FrameRenderer()
let iterations = 300

/// A frame's tiles decoded, as the pipeline hands them to a render thread.
struct DecodedTiles: TileProviding {
    let images: [TileID: RasterImage]
    func tile(_ id: TileID) -> TileLookup { images[id].map { .image($0) } ?? .missing(MissingTile(tile: id, reason: .notCached)) }
}

// Baseline: decode the frame's tiles from their PNG bytes, and encode one frame.
let reader = try MBTilesCache(openingExisting: cachePath)
let frameTiles = FrameRenderer.geometry(for: scene, tileSet: source.tileSet).tilePlacements(in: source.tileSet.grid).map(\.tile)
let tileBytes = try frameTiles.map { try reader.tileData(for: $0)! }
let store = DecodedTiles(images: Dictionary(uniqueKeysWithValues: try zip(frameTiles, tileBytes).map { ($0, try PNGCodec.decode($1)) }))
let firstFrame = renderer.render(scene, tileSet: source.tileSet, tiles: store)
let decodeAndEncode = try medianMilliseconds(iterations: iterations) {
    for bytes in tileBytes { _ = try PNGCodec.decode(bytes) }
    _ = try firstFrame.canvas.pngData(opaque: true)
}
let decodeOnly = try medianMilliseconds(iterations: iterations) {
    for bytes in tileBytes { _ = try PNGCodec.decode(bytes) }
}

// The render thread's part: tiles in hand, decoded.
let composite = medianMilliseconds(iterations: iterations) {
    _ = renderer.render(scene, tileSet: source.tileSet, tiles: store)
}
let frame = try medianMilliseconds(iterations: iterations) {
    _ = try renderer.render(scene, tileSet: source.tileSet, tiles: store).canvas.pngData(opaque: true)
}
// The path `snapshot` and the server take: each tile from decoded memory, else the cache, then
// drawing and encoding on a render thread.
let pipeline = FramePipeline(FramePipeline.Configuration(catalog: .builtin, cacheLocation: .file(cachePath)))
let pipelined = try await medianMilliseconds(iterations: iterations) {
    _ = try await pipeline.render(scene, as: .png)
}
await pipeline.shutdown()

print("MapFrame frame benchmark: 320x480, \(route.count)-point route, 2 markers, \(tileBytes.count) tiles, warm tile cache")
print("medians of \(iterations) runs")
report("baseline: decode \(tileBytes.count) tiles + encode one PNG", decodeAndEncode)
report("  of which decoding the tiles", decodeOnly, baseline: decodeAndEncode)
report("composite only (tiles + overlays, no PNG)", composite, baseline: decodeAndEncode)
report("frame: composite + PNG encode (target <= 2 ms)", frame, baseline: decodeAndEncode)
report("frame through the pipeline: tiles + composite + PNG", pipelined, baseline: decodeAndEncode)

print("PNG encoder settings for the same frame (ratios against the default, timed in turn with it):")
let candidates: [(String, PNGEncodingOptions)] = [
    ("run-length (default)", .fast),
    ("zlib 1, filter none", .zlib(level: 1, filters: .none)),
    ("zlib 1, filter sub", .zlib(level: 1, filters: .sub)),
    ("zlib 1, filter up", .zlib(level: 1, filters: .up)),
    ("zlib 6, filter sub", .zlib(level: 6, filters: .sub)),
    ("zlib 9, adaptive filters (compact)", .compact),
]
// Round after round, each setting encodes once, so that load from elsewhere on the machine
// falls on all of them alike.
var encodeSamples = Array(repeating: [Double](), count: candidates.count)
for round in 0..<(iterations / 3 + 5) {
    for (index, (_, options)) in candidates.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try firstFrame.canvas.pngData(opaque: true, options: options)
        // The first rounds warm up.
        if round >= 5 { encodeSamples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
    }
}
let encodeMedians = encodeSamples.map { $0.sorted()[$0.count / 2] }
for ((label, options), median) in zip(candidates, encodeMedians) {
    let size = try firstFrame.canvas.pngData(opaque: true, options: options).count
    report("  \(label), \(size / 1024) KiB", median, baseline: encodeMedians[0], unit: "default")
}

// The frame's tiles in each format a tile may come in, decoded through the one entry point.
// Round after round, each format decodes every tile once, so that load from elsewhere on the
// machine falls on all of them alike.
let decodedTiles = try tileBytes.map { try PNGCodec.decode($0) }
let formats: [(String, [Data])] = [
    ("PNG (the fixture tiles)", tileBytes),
    ("JPEG, quality 85", try decodedTiles.map { try TestImageEncoder.jpeg($0, quality: 85) }),
    ("WebP lossy, quality 80", try decodedTiles.map { try TestImageEncoder.webp($0, lossless: false, quality: 80) }),
    ("WebP lossless", try decodedTiles.map { try TestImageEncoder.webp($0, lossless: true) }),
]
var decodeSamples = Array(repeating: [Double](), count: formats.count)
for round in 0..<(iterations + 10) {
    for (index, (_, tiles)) in formats.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        for bytes in tiles { _ = try ImageDecoder.decode(bytes) }
        // The first rounds warm up.
        if round >= 10 {
            decodeSamples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 / Double(tiles.count))
        }
    }
}
let decodeMedians = decodeSamples.map { $0.sorted()[$0.count / 2] }
print("Decoding one 256 px tile, by format (the frame's \(tileBytes.count) tiles; ratios against PNG, timed in turn with it):")
for ((label, tiles), median) in zip(formats, decodeMedians) {
    let kibibytes = Double(tiles.reduce(0) { $0 + $1.count }) / Double(tiles.count) / 1024
    report("  \(label), \(String(format: "%.1f", kibibytes)) KiB", median, baseline: decodeMedians[0], unit: "PNG")
}

// Hit-testing a 100,000-point route: the grid index against testing every shape, the same
// points in the same run, a query at a time. The route winds back and forth across the frame,
// so that every cell holds segments. Points are spread over the frame by the golden ratio.
let densePoints = (0..<RouteLine.maximumPoints).map { index -> Coordinate in
    let t = Double(index) / Double(RouteLine.maximumPoints - 1)
    return Coordinate(latitude: center.latitude - 0.004 + 0.008 * t, longitude: center.longitude + 0.003 * sin(t * 400))
}
let denseScene = Scene(
    camera: .fixed(Camera(center: center, zoom: 16)), start: densePoints.first, finish: densePoints.last,
    route: RouteLine(densePoints), photos: [Photo(id: 12, coordinate: center, caption: "Cycle parking")],
    location: LocationFix(coordinate: center, accuracyMetres: 65)
)
let osm = StyleCatalog.builtin["osm"]!
let explained = ExplainedFrame(scene: denseScene, tileSet: osm.tileSet)
let buildStart = DispatchTime.now().uptimeNanoseconds
let hitIndex = explained.hitIndex(slop: 0)
let buildMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1_000_000
let queries = (0..<2000).map { index -> PixelPoint in
    let golden = 0.618_033_988_75
    return PixelPoint(
        x: (Double(index) * golden).truncatingRemainder(dividingBy: 1) * 320,
        y: (Double(index) + 0.5) / 2000 * 480
    )
}
func medianMicroseconds(_ points: [PixelPoint], _ query: (PixelPoint) -> Int?) -> (median: Double, hits: Int) {
    var samples: [Double] = [], hits = 0
    for point in points {
        let start = DispatchTime.now().uptimeNanoseconds
        if query(point) != nil { hits += 1 }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    return (samples.sorted()[samples.count / 2], hits)
}
let indexed = medianMicroseconds(queries) { hitIndex.topmost(at: $0) }
// The scan tests 100,000 segments a query, so a tenth of the points keep the run short.
let scanned = medianMicroseconds(Array(queries.prefix(200))) { HitIndex.scan(explained.elements, at: $0, slop: 0) }
let agree = queries.prefix(200).allSatisfy { hitIndex.topmost(at: $0) == HitIndex.scan(explained.elements, at: $0, slop: 0) }
print("Hit-testing a \(densePoints.count)-point route with markers, a photo and a ring (medians per query):")
print(String(format: "  grid index, %d queries, %d on an element (target < 50 µs) %8.2f µs   %.0fx faster than the scan", queries.count, indexed.hits, indexed.median, scanned.median / indexed.median))
print(String(format: "  scan of every shape, %d queries                     %8.2f µs   same answers: %@", 200, scanned.median, agree ? "yes" : "NO"))
print(String(format: "  building the index once per frame                   %8.3f ms", buildMilliseconds))
let describeSmall = medianMilliseconds(iterations: iterations) {
    _ = ExplainedFrame(scene: scene, tileSet: osm.tileSet).description()
}
let describeDense = medianMilliseconds(iterations: 20, warmUp: 2) {
    _ = ExplainedFrame(scene: denseScene, tileSet: osm.tileSet).description()
}
print("Describing a frame, elements gathered from the painters included:")
report("  \(route.count)-point route, 2 markers", describeSmall)
report("  \(densePoints.count)-point route, 2 markers, a photo, a ring", describeDense)

try benchmarkGTFS()
