import ArgumentParser
import FixtureTiles
import Foundation
import MapGeometry
import TileStore

/// `mapframe fixtures`: generates deterministic map-like tiles into an MBTiles file.
struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Generate made-up map tiles into an MBTiles file, for offline demos and tests.",
        discussion: """
            The same arguments always produce the same tiles. Running it again on an existing file adds or replaces tiles.
            Without --bbox and --zoom it builds the demo area: central Cambridge at zoom 12-17, and zoom 18 around the example route.
            """
    )

    @Option(help: ArgumentHelp("The area, west,south,east,north in degrees (default: the demo area).", valueName: "W,S,E,N"))
    var bbox: BoundingBoxArgument?

    @Option(help: ArgumentHelp("The zoom levels, such as 12-16 or 15 (required with --bbox).", valueName: "min-max"))
    var zoom: ZoomLevelsArgument?

    @Option(help: ArgumentHelp("The MBTiles file to write (created if missing).", valueName: "file.mbtiles"))
    var output: String

    @Option(help: ArgumentHelp("The look of the tiles: osm or opencyclemap.", valueName: "style"))
    var style = "osm"

    /// More tiles than this is almost certainly a mistake in --bbox or --zoom.
    static let maxTiles = 200_000

    func validate() throws {
        guard StyleCatalog.builtin[style] != nil else {
            throw ValidationError("--style: '\(style)' is not allowed; expected one of \(StyleCatalog.builtin.names.joined(separator: ", "))")
        }
        if (bbox == nil) != (zoom == nil) {
            throw ValidationError("--bbox and --zoom go together; give both, or neither for the demo area")
        }
    }

    func run() throws {
        guard let bbox, let zoom else {
            let written = try DemoFixtures.build(style: style, into: output)
            print("\(output): wrote \(written) \(style) fixture tiles for the demo area")
            return
        }
        let builder = FixtureCacheBuilder(style: style, bounds: bbox.bounds, zoomLevels: zoom.levels)
        let count = builder.tiles.count
        guard count <= Self.maxTiles else {
            throw InputError(description: "--bbox and --zoom cover \(count) tiles; allowed at most \(Self.maxTiles)")
        }
        let written = try builder.build(into: output, attribution: DemoFixtures.attribution)
        print("\(output): wrote \(written) \(style) fixture tiles at zoom \(zoom.levels.lowerBound)-\(zoom.levels.upperBound)")
    }
}

/// `W,S,E,N` in degrees.
struct BoundingBoxArgument: ExpressibleByArgument {
    let bounds: GeoBounds

    init?(argument: String) {
        let numbers = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3],
              (-180...180).contains(west), (-180...180).contains(east), west < east,
              WebMercator.inputLatitudeRange.contains(south), WebMercator.inputLatitudeRange.contains(north), south < north
        else { return nil }
        bounds = GeoBounds(south: south, west: west, north: north, east: east)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `MIN-MAX` or a single zoom level.
struct ZoomLevelsArgument: ExpressibleByArgument {
    let levels: ClosedRange<Int>

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil,
              low >= 0, high <= 24, low <= high
        else { return nil }
        levels = low...high
    }
}
