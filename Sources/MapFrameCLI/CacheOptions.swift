import ArgumentParser
import Foundation
import TileStore

/// The options that pick the tile cache, shared by every command that renders.
struct CacheOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The MBTiles file to draw tiles from, for every style.", valueName: "file.mbtiles"))
    var cache: String?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "The directory holding one <style>.mbtiles per style (default: $MAPFRAME_CACHE_DIR, else ~/.cache/mapframe).",
        valueName: "dir"
    ))
    var cacheDirectory: String?

    @Flag(help: "Never contact a tile server; draw only cached tiles.")
    var offline = false

    func validate() throws {
        if cache != nil, cacheDirectory != nil {
            throw ValidationError("--cache and --cache-dir are alternatives; give one of them")
        }
    }

    var location: CacheLocation {
        if let cache { return .file(cache) }
        return .directory(cacheDirectory ?? CacheLocation.defaultDirectory())
    }
}
