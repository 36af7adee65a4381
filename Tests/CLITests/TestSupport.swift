import FixtureTiles
import Foundation
import MapFrameTestSupport
import ImageCodec
import MapGeometry
import MapRender
// The test servers and their client (ServerTestSupport), for every file of these tests.
@_exported import ServerTestSupport
import Synchronization
import Testing
import UpstreamSimulator

/// A fresh directory for one test, with helpers to write inputs and run `mapframe` in it.
struct Workspace {
    let directory: URL

    /// Runs `body` in a new empty workspace, removed afterwards.
    static func with<T>(_ body: (Workspace) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory("workspace")
        defer { directory.remove() }
        return try await body(Workspace(directory: directory.url))
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Writes a file, creating folders on the way; returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    /// Runs `mapframe` to completion; `environment` sets (or, with nil, removes) variables.
    func mapframe(_ arguments: String..., environment: [String: String?] = [:]) async throws -> CommandResult {
        try await runProgram(MapframeExecutable.url(), arguments, in: directory, environment: environment)
    }

    func mapframe(_ arguments: [String], environment: [String: String?] = [:]) async throws -> CommandResult {
        try await runProgram(MapframeExecutable.url(), arguments, in: directory, environment: environment)
    }

    /// Starts `mapframe` in the background.
    func startMapframe(_ arguments: [String], environment: [String: String?] = [:]) throws -> ChildProcess {
        try ChildProcess.start(MapframeExecutable.url(), arguments, in: directory, environment: environment)
    }

    /// Builds fixture tiles covering the test scenes (zoom 16 and, for scale 2, 17) into
    /// `tiles.mbtiles` and returns its path.
    func buildFixtures() async throws -> String {
        let result = try await mapframe("fixtures", "--bbox", "0.136,52.201,0.147,52.210", "--zoom", "16-17", "--output", path("tiles.mbtiles"))
        try #require(result.status == 0, "mapframe fixtures failed: \(result)")
        return path("tiles.mbtiles")
    }

    /// Decodes a PNG the CLI wrote.
    func image(_ name: String) throws -> RasterImage {
        try PNGCodec.decode(contents(name))
    }
}

/// Scene files for the tests: Cambridge at zoom 16, inside the fixture area.
enum Scenes {
    static let camera = #""camera": {"center": {"lat": 52.2055, "lon": 0.1414}, "zoom": 16}"#

    /// A scene with a fixed camera and the given extra top-level fields.
    static func scene(_ extraFields: String = "") -> String {
        "{\(camera)\(extraFields.isEmpty ? "" : ", " + extraFields)}"
    }

    static let withMarkers = scene(#""start": {"lat": 52.2055, "lon": 0.1414}, "finish": {"lat": 52.2075, "lon": 0.1425}"#)

    /// `count` route positions as JSON array items.
    static func routePositions(_ count: Int) -> String {
        (0..<count).map { "[0.\(1400 + $0 % 50), 52.2055]" }.joined(separator: ",")
    }
}

/// The XYZ tile under a coordinate, by the slippy-map formula, and its MBTiles (TMS) row.
func slippyTile(latitude: Double, longitude: Double, zoom: Int) -> (x: Int, y: Int, tmsRow: Int) {
    let side = Double(1 << zoom)
    let x = Int(((longitude + 180) / 360 * side).rounded(.down))
    let y = Int(((1 - asinh(tan(latitude * .pi / 180)) / .pi) / 2 * side).rounded(.down))
    return (x, y, (1 << zoom) - 1 - y)
}

extension CommandResult {
    /// Standard error's lines less what cache files' tiles said of themselves as they were opened
    /// ("cache PATH: format png, from a tile's bytes …"): the frames' and seeds' reports.
    var reportLines: [String] { errorLines.filter { !$0.hasPrefix("cache ") } }
}

/// The grey of a missing tile (SPEC.md section 1).
let missingGrey = Colour(redLevel: 128, greenLevel: 128, blueLevel: 128)

/// Whether a line is `snapshot`'s tile report for a frame: "<scene> -> <path ending in output>:
/// N tiles: <counts>", with `grey` tiles drawn grey (failed and missing), listed after
/// "; drawn grey: " when there are any.
func isTileReport(_ line: String, scene: String, output: String, grey: Int) -> Bool {
    guard line.hasPrefix("\(scene) -> "), line.range(of: "\(output): ") != nil, let counts = FillCounts(line: line) else { return false }
    return counts.failed + counts.missing == grey && line.contains("; drawn grey: ") == (grey > 0)
}

// MARK: - A local tile server

extension UpstreamSimulator {
    /// Answers every request without a response of its own with this status and a text body.
    func answerEveryRequest(status: Int) {
        setDefaultHandler { _ in
            SimulatedResponse(status: status, headers: [("Content-Type", "text/plain")], body: Data("no tiles today\n".utf8))
        }
    }
}

extension Workspace {
    /// Writes a style file `<name>.style.json` whose tiles come from `upstream`, with `query`
    /// after the tile path, the API key in `apiKeyEnv` and tiles `tileSize` px square; returns its path.
    @discardableResult
    func writeStyle(
        named name: String = "local", upstream: UpstreamSimulator, query: String = "", apiKeyEnv: String? = nil, tileSize: Int = 256
    ) throws -> String {
        let key = apiKeyEnv.map { #", "apiKeyEnv": "\#($0)""# } ?? ""
        return try write(
            #"{"name": "\#(name)", "url": "\#(upstream.baseURL)/{z}/{x}/{y}.png\#(query)", "minZoom": 0, "maxZoom": 19, "tileSize": \#(tileSize), "attribution": "Local"\#(key)}"#,
            to: "\(name).style.json"
        )
    }
}

/// An area to seed: `--bbox` and `--zoom`, and the tiles they cover.
struct SeedArea {
    /// West,south,east,north, as `--bbox` takes it.
    let bbox: String
    let zooms: ClosedRange<Int>

    var arguments: [String] { ["--bbox", bbox, "--zoom", "\(zooms.lowerBound)-\(zooms.upperBound)"] }

    /// Every tile the area covers, by MapGeometry's own count.
    var tiles: Set<TileID> {
        let edges = bbox.split(separator: ",").map { Double($0)! }
        let bounds = GeoBounds(south: edges[1], west: edges[0], north: edges[3], east: edges[2])
        return Set(zooms.flatMap { TileID.covering(bounds, zoom: $0) })
    }
}

/// The tile counts in a seed progress line ("seed: 40/64 tiles: 0 cached, 40 fetched, …") or a
/// snapshot report line ("scene.json -> out.png: 9 tiles: 0 cached, 9 fetched, …").
struct FillCounts: Equatable, CustomStringConvertible {
    /// The area's or frame's tile count.
    var tiles: Int
    var cached = 0, fetched = 0, revalidated = 0, stale = 0, failed = 0, missing = 0

    init(tiles: Int, cached: Int = 0, fetched: Int = 0, revalidated: Int = 0, stale: Int = 0, failed: Int = 0, missing: Int = 0) {
        (self.tiles, self.cached, self.fetched, self.revalidated, self.stale, self.failed, self.missing) =
            (tiles, cached, fetched, revalidated, stale, failed, missing)
    }

    /// Nil when the line holds no complete counts.
    init?(line: some StringProtocol) {
        let pattern = #/(\d+) tiles: (\d+) cached, (\d+) fetched, (\d+) revalidated, (\d+) stale, (\d+) failed, (\d+) missing/#
        guard let match = String(line).firstMatch(of: pattern) else { return nil }
        let numbers = [match.1, match.2, match.3, match.4, match.5, match.6, match.7].map { Int($0)! }
        self.init(
            tiles: numbers[0], cached: numbers[1], fetched: numbers[2], revalidated: numbers[3], stale: numbers[4], failed: numbers[5],
            missing: numbers[6]
        )
    }

    /// Whether every tile is counted once: the counts add up to the tiles.
    var addsUp: Bool { cached + fetched + revalidated + stale + failed + missing == tiles }

    var description: String {
        "\(tiles) tiles: \(cached) cached, \(fetched) fetched, \(revalidated) revalidated, \(stale) stale, \(failed) failed, \(missing) missing"
    }
}

/// What an MBTiles cache holds, read by `IndependentSQLite` (not MapFrame's own SQLite code),
/// each tile's bytes decoded with PNGCodec.
struct CacheContents {
    /// SQLite's `PRAGMA integrity_check`: "ok" for a sound file.
    var integrity: String
    var tiles: Set<TileID> = []
    /// Stored tiles with no row in mapframe_tile_state.
    var tilesWithoutState: Set<TileID> = []
    /// Stored tiles whose bytes do not decode as PNG.
    var undecodable: Set<TileID> = []

    static func read(_ path: String) async throws -> CacheContents {
        let integrity = try await IndependentSQLite.query(path, "PRAGMA integrity_check").map { $0.joined() }.joined(separator: " | ")
        var contents = CacheContents(integrity: integrity)
        let rows = try await IndependentSQLite.query(path, """
            SELECT t.zoom_level, t.tile_column, t.tile_row, s.zoom_level IS NOT NULL, hex(t.tile_data)
            FROM tiles t LEFT JOIN mapframe_tile_state s USING (zoom_level, tile_column, tile_row)
            """)
        for row in rows {
            let tile = TileID(z: Int(row[0])!, x: Int(row[1])!, tmsRow: Int(row[2])!)
            contents.tiles.insert(tile)
            if row[3] == "0" { contents.tilesWithoutState.insert(tile) }
            if (try? PNGCodec.decode(IndependentSQLite.bytes(ofHex: row[4]))) == nil { contents.undecodable.insert(tile) }
        }
        return contents
    }
}
