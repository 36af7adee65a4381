import Foundation
import MapGeometry
import TileStore

/// PMTiles archives, as `--cache FILE.pmtiles` reads them: the header, the root directory and
/// every leaf directory a walk reaches, each checked against the sections it points into, and
/// the tiles read, all through `PMTilesArchive` from bytes in memory. Every entry a walk gives
/// must be of tiles, non-empty, and after the run before it, its bytes inside the tile data;
/// looking a tile up may refuse a damaged leaf but never crash. The input is also read as one directory's
/// bytes, which must encode and decode back to the same entries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let directory = try? PMTilesDirectory.decode(data) {
        precondition((try? PMTilesDirectory.decode(directory.encoded())) == directory, "a directory did not survive encoding")
    }
    guard let archive = try? PMTilesArchive(data) else { return 0 }
    var seen = 0
    var previous: UInt64?
    try? archive.forEachTileEntry { (entry: PMTilesEntry) throws(PMTilesError) -> Bool in
        precondition(!entry.isLeaf && entry.length > 0, "the walk gave \(entry)")
        precondition(previous.map { entry.tileID >= $0 } ?? true, "entries out of order: \(entry.tileID) after \(previous!)")
        previous = entry.endID
        let tile = try archive.data(of: entry)
        precondition(tile.count == Int(entry.length))
        if let id = PMTilesTileID.tile(for: entry.tileID) { _ = try archive.entry(for: id) }
        seen += 1
        return seen < 10_000
    }
    for z in 0...3 {
        for tile in TileID.covering(GeoBounds(south: -85, west: -180, north: 85, east: 180), zoom: z) {
            if let entry = try? archive.entry(for: tile) { _ = try? archive.data(of: entry) }
        }
    }
    return 0
}
