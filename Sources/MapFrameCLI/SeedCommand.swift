import ArgumentParser
import FramePipeline
import Foundation
import MapGeometry
import Synchronization
import TileStore

/// `mapframe seed`: fills a cache with every tile of an area ahead of use.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fetch every tile of an area into the cache, skipping tiles that are cached and fresh.",
        discussion: """
            Seeding is resumable: run it again and it fetches only what is missing or expired.
            It refuses tile.openstreetmap.org, whose usage policy forbids bulk downloading.
            """
    )

    @Option(help: ArgumentHelp("The style whose tiles to fetch.", valueName: "style"))
    var style: String

    @Option(help: ArgumentHelp("The area, west,south,east,north in degrees.", valueName: "W,S,E,N"))
    var bbox: BoundingBoxArgument

    @Option(help: ArgumentHelp("The zoom levels, such as 12-16.", valueName: "min-max"))
    var zoom: ZoomLevelsArgument

    @Option(help: ArgumentHelp("How many tiles to fetch at once (1-16; also the connections per host).", valueName: "n"))
    var concurrency = FetchPolicy.defaultMaxConnectionsPerHost

    @Flag(name: .customLong("dry-run"), help: "Count the tiles and how many are already fresh, without fetching.")
    var dryRun = false

    @OptionGroup var cacheOptions: CacheOptions

    /// More tiles than this is almost certainly a mistake in --bbox or --zoom.
    static let maxTiles = 1_000_000

    func validate() throws {
        guard (1...16).contains(concurrency) else { throw ValidationError("--concurrency: \(concurrency) is outside 1...16") }
        if cacheOptions.offline { throw ValidationError("--offline: seeding fetches tiles, so it cannot be offline") }
    }

    func run() async throws {
        let catalog = try cacheOptions.catalog()
        guard let source = catalog[style] else {
            throw InputError(description: "--style: '\(style)' is not allowed; expected one of \(catalog.names.joined(separator: ", "))")
        }
        guard !source.isOpenStreetMapTileServer else {
            throw InputError(description: """
                --style: \(style) is served by tile.openstreetmap.org, whose tile usage policy forbids bulk downloading \
                and pre-seeding (https://operations.osmfoundation.org/policies/tiles/). Tiles of this style are fetched \
                only as frames need them. Seed from your own tile server instead (--style-file).
                """)
        }
        let outOfRange = zoom.levels.filter { !source.tileSet.zoomRange.contains(Double($0)) }
        guard outOfRange.isEmpty else {
            throw InputError(description: "--zoom: \(outOfRange.first!) is outside the \(style) style's zoom range \(source.tileSet.zoomRange)")
        }
        // The source's tiles that draw those zooms: for 512 px tiles, one zoom shallower.
        let tileZooms = Set(zoom.levels.map { source.tileSet.grid.tileZoom(forDeviceZoom: Double($0)) }).sorted()
        let count = tileZooms.reduce(0) { $0 + TileID.covering(bbox.bounds, zoom: $1).count }
        guard count <= Self.maxTiles else {
            throw InputError(description: "--bbox and --zoom cover \(count) tiles; allowed at most \(Self.maxTiles)")
        }
        let tiles = tileZooms.lazy.flatMap { TileID.covering(bbox.bounds, zoom: $0) }
        let location = try cacheOptions.location()
        if case .archive(let path) = location, !dryRun {
            throw InputError(description: "--cache: \(path) is a PMTiles archive, which MapFrame only reads; seed an MBTiles file, then write an archive from it with `mapframe cache copy`")
        }
        let cachePath = location.path(for: source.name)
        if dryRun {
            // Counting writes nothing: a cache file that does not exist yet holds no fresh tiles.
            let fresh = cachePath.map { FileManager.default.fileExists(atPath: $0) } ?? true
                ? try await cacheOptions.withPipeline(fetching: false) { pipeline in
                    await (try await pipeline.store(for: source)).freshTileCount(in: Array(tiles))
                }
                : 0
            let forMapZooms = source.tileSet.grid.zoomOffset > 0
                ? " (\(source.tileSet.tileSize) px tiles, for map zoom \(zoom.levels.lowerBound)-\(zoom.levels.upperBound))" : ""
            print("\(style): \(count) tiles at zoom \(tileZooms.first!)-\(tileZooms.last!)\(forMapZooms); \(fresh) cached and fresh, \(count - fresh) to fetch")
            return
        }
        // Seeding is how a cache file comes to be, so a --cache file is created here if missing.
        try await location.createFileIfMissing()
        let progress = SeedProgress(total: count)
        try await cacheOptions.withPipeline(maxConnectionsPerHost: concurrency) { pipeline in
            let store = try await pipeline.store(for: source)
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for tile in tiles {
                    if running == concurrency {
                        await group.next()
                        running -= 1
                    }
                    // A tile that cannot be stored is thrown away: ask the upstream for no more.
                    guard store.writeFailure == nil else { break }
                    group.addTask { progress.record(await store.tile(tile).fill, tile: tile) }
                    running += 1
                    progress.printIfDue()
                }
            }
            if let failure = store.writeFailure {
                progress.printSummary()
                throw CommandFailure(description: Self.stopped(by: failure, cache: location.path(for: source.name) ?? location.description, stored: progress.stored))
            }
        }
        progress.printSummary()
        if progress.failures > 0 { throw ExitCode.failure }
    }

    /// Why a seed stopped early: the cache could not be written.
    static func stopped(by failure: CacheError, cache: String, stored: Int) -> String {
        let cause = switch failure {
        case .sqlite(_, _, _, .diskFull), .archiveWrite(_, _, _, true): "the disk holding \(cache) is full"
        case .unavailable: "\(cache) is unavailable"
        default: "\(cache) cannot be written"
        }
        return "seed stopped: \(cause), so no more tiles were fetched. The \(stored) tiles stored before that are kept; "
            + "run seed again to fetch the rest once that is put right. (\(failure))"
    }
}

/// Counts a seed's results and shows its progress (`ProgressPrinter`).
final class SeedProgress: Sendable {
    private struct Counts {
        var done = 0
        var report = TileFillReport()
        /// The first few tiles that failed or are missing, each line saying which.
        var firstFailures: [String] = []
    }

    private let total: Int
    private let printer: ProgressPrinter
    private let counts = Mutex(Counts())

    init(total: Int, printer: ProgressPrinter = ProgressPrinter()) {
        self.total = total
        self.printer = printer
    }

    var failures: Int { counts.withLock { $0.report.failed } }

    /// Tiles fetched and stored so far.
    var stored: Int { counts.withLock { $0.report.fetched } }

    func record(_ fill: TileFill, tile: TileID) {
        counts.withLock { counts in
            counts.done += 1
            counts.report.count(fill)
            if case .missing(let missing) = fill, counts.firstFailures.count < 5 {
                counts.firstFailures.append((missing.reason.isFailure ? "failed: " : "missing: ") + missing.description)
            }
        }
    }

    func printIfDue() {
        printer.printIfDue { counts.withLock { render($0) } }
    }

    func printSummary() {
        let (line, failures) = counts.withLock { (render($0), $0.firstFailures) }
        printer.printFinal(line)
        for failure in failures { FileHandle.standardError.write(Data("\(failure)\n".utf8)) }
    }

    private func render(_ counts: Counts) -> String {
        let fraction = total == 0 ? 1 : Double(counts.done) / Double(total)
        return printer.line(prefix: "seed: ", fraction: fraction, summary: "\(counts.done)/\(total) tiles: \(counts.report)")
    }
}
