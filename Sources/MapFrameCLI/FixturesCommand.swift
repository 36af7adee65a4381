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
        discussion: "The same arguments always produce the same tiles. Running it again on an existing file adds or replaces tiles."
    )

    @Option(help: ArgumentHelp("The area, west,south,east,north in degrees.", valueName: "W,S,E,N"))
    var bbox: BoundingBoxArgument

    @Option(help: ArgumentHelp("The zoom levels, such as 12-16 or 15.", valueName: "min-max"))
    var zoom: ZoomLevelsArgument

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
    }

    func run() throws {
        let builder = FixtureCacheBuilder(style: style, bounds: bbox.bounds, zoomLevels: zoom.levels)
        let count = builder.tiles.count
        guard count <= Self.maxTiles else {
            throw InputError(description: "--bbox and --zoom cover \(count) tiles; allowed at most \(Self.maxTiles)")
        }
        let attribution = "MapFrame fixture tiles: a made-up town, not real map data"
        let written = try builder.build(into: output, attribution: attribution)
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
              (-85.0511...85.0511).contains(south), (-85.0511...85.0511).contains(north), south < north
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
