import Foundation
import ImageCodec
import MapGeometry
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes a PMTiles version 3 archive of raster tiles, as `mapframe cache copy` makes one: tiles
/// are added a page at a time in any order, then `finish` writes the archive whole. It is
/// clustered (tile data in tile-number order), identical tiles are stored once, consecutive
/// identical tiles are one run, directories are gzip-compressed (with leaf directories when the
/// root would not fit in the first 16,384 bytes), and the JSON metadata gives the name,
/// attribution, format, zooms and bounds. The archive is written under a temporary name in its
/// folder and renamed into place once whole, so a failure never leaves part of one under its
/// name. The file work runs on the storage threads.
///
/// Memory holds some 16 bytes a tile and 80 a distinct content while the tiles come, and some
/// 50 more a tile as it finishes (the tiles sorted, the directory entries): a million distinct
/// tiles take some 150 MB.
public final class PMTilesWriter: Sendable {
    public let path: String
    private let building: Mutex<Building>

    /// What `finish` wrote.
    public struct Summary: Sendable, Equatable {
        /// Tiles addressed.
        public var tiles: Int
        /// Distinct contents stored.
        public var contents: Int
        /// Directory entries of tiles (a run is one).
        public var entries: Int
        public var leafDirectories: Int
        /// The archive's size.
        public var bytes: UInt64
    }

    private struct Building: ~Copyable {
        var contents: PMTilesContents?
        var tiles: [PMTilesLayout.Tile] = []
        /// The tile formats seen, by their bytes; nil for bytes of no known image format.
        var formats: Set<ImageHeader.Format?> = []
    }

    /// Makes the temporary file for the tiles' contents. Blocks.
    private init(path: String) throws(CacheError) {
        self.path = path
        building = Mutex(Building(contents: try PMTilesContents(folder: Self.folder(of: path), archivePath: path)))
    }

    /// Starts an archive to be written at `path`. Nothing appears under that name until `finish`.
    public static func create(_ path: String) async throws(CacheError) -> PMTilesWriter {
        try await onStorageThreads(cache: path) { () throws(CacheError) in try PMTilesWriter(path: path) }
    }

    /// Adds tiles; a tile added again replaces its earlier bytes. Their freshness is not kept:
    /// an archive's tiles never expire.
    public func add(_ records: [StoredTileRecord]) async throws(CacheError) {
        let path = path
        try await onStorageThreads(cache: path) { () throws(CacheError) in
            try self.building.withLock { (building: inout Building) throws(CacheError) in
                guard let contents = building.contents else { preconditionFailure("tiles added to a finished archive") }
                for record in records {
                    let data = record.stored.data
                    guard record.tile.isValid, (1...Int(UInt32.max)).contains(data.count) else {
                        throw CacheError.archiveWrite(
                            path: path, operation: "add tile \(record.tile)", message: "a tile must lie on the map and hold 1 to \(UInt32.max) bytes", diskFull: false
                        )
                    }
                    let content = try contents.add(data)
                    if Int(content) == contents.contents.count - 1 { building.formats.insert(try? ImageHeader.read(data).format) }
                    building.tiles.append(PMTilesLayout.Tile(id: PMTilesTileID.id(of: record.tile), content: content))
                }
            }
        }
    }

    /// Writes the archive, with `name` and `attribution` in its metadata, and renames it into
    /// place, replacing any file of that name. An archive of no tiles is refused.
    public func finish(name: String, attribution: String) async throws(CacheError) -> Summary {
        let path = path
        return try await onStorageThreads(cache: path) { () throws(CacheError) in
            try self.building.withLock { (building: inout Building) throws(CacheError) -> Summary in
                guard let contents = building.contents else { preconditionFailure("an archive finished twice") }
                defer { building.contents = nil }
                guard !building.tiles.isEmpty else {
                    throw CacheError.archiveWrite(path: path, operation: "write the archive", message: "there are no tiles to write", diskFull: false)
                }
                let tiles = Self.latestOfEach(building.tiles)
                building.tiles = []
                return try Self.write(tiles, contents: contents, formats: building.formats, name: name, attribution: attribution, to: path)
            }
        }
    }

    /// The tiles in tile-number order, each number once: the last added of those that share one.
    private static func latestOfEach(_ tiles: [PMTilesLayout.Tile]) -> [PMTilesLayout.Tile] {
        var order = Array(tiles.indices)
        order.sort { tiles[$0].id != tiles[$1].id ? tiles[$0].id < tiles[$1].id : $0 < $1 }
        var kept: [PMTilesLayout.Tile] = []
        kept.reserveCapacity(order.count)
        for index in order {
            if kept.last?.id == tiles[index].id { kept[kept.count - 1] = tiles[index] } else { kept.append(tiles[index]) }
        }
        return kept
    }

    private static func write(
        _ tiles: [PMTilesLayout.Tile], contents: PMTilesContents, formats: Set<ImageHeader.Format?>, name: String, attribution: String, to path: String
    ) throws(CacheError) -> Summary {
        let layout = PMTilesLayout.entries(for: tiles, lengths: contents.contents.map(\.length))
        let directories = PMTilesLayout.directories(for: layout.entries)
        let area = TilesetArea(tiles)
        let format = formats.count == 1 ? formats.first! : nil
        let metadata = Gzip.compress(metadataJSON(name: name, attribution: attribution, format: format, area: area))
        var offset = UInt64(PMTilesHeader.size)
        func section(_ length: Int) -> PMTilesHeader.Section {
            defer { offset += UInt64(length) }
            return PMTilesHeader.Section(offset: offset, length: UInt64(length))
        }
        let header = PMTilesHeader(
            rootDirectory: section(directories.root.count), metadata: section(metadata.count), leafDirectories: section(directories.leaves.count),
            tileData: section(Int(layout.dataLength)), addressedTileCount: UInt64(tiles.count), tileEntryCount: UInt64(layout.entries.count),
            tileContentCount: UInt64(layout.contentOrder.count), isClustered: true, internalCompression: .gzip, tileCompression: .none,
            tileType: format.map(tileType) ?? .unknown, minZoom: UInt8(area.minZoom), maxZoom: UInt8(area.maxZoom),
            minLonE7: e7(area.bounds.west), minLatE7: e7(area.bounds.south), maxLonE7: e7(area.bounds.east), maxLatE7: e7(area.bounds.north),
            centerZoom: UInt8(area.minZoom), centerLonE7: e7((area.bounds.west + area.bounds.east) / 2),
            centerLatE7: e7((area.bounds.south + area.bounds.north) / 2)
        )
        let file = try PartialFile(besides: path)
        do {
            var output = file.output
            try output.append(header.encoded())
            try output.append(directories.root)
            try output.append(metadata)
            try output.append(directories.leaves)
            for content in layout.contentOrder { try output.append(contents.bytes(of: content)) }
            try output.flush()
            try file.commit()
        } catch {
            file.abandon()
            throw error
        }
        return Summary(
            tiles: tiles.count, contents: layout.contentOrder.count, entries: layout.entries.count,
            leafDirectories: directories.leafCount, bytes: offset
        )
    }

    private static func tileType(_ format: ImageHeader.Format) -> PMTilesHeader.TileType {
        switch format {
        case .png: .png
        case .jpeg: .jpeg
        case .webp: .webp
        }
    }

    private static func e7(_ degrees: Double) -> Int32 { Int32((degrees * 10_000_000).rounded()) }

    /// The metadata: strings, as the convention has them, with sorted keys.
    private static func metadataJSON(name: String, attribution: String, format: ImageHeader.Format?, area: TilesetArea) -> Data {
        var fields: [String: String] = [
            "name": name, "attribution": attribution, "type": "baselayer",
            "minzoom": String(area.minZoom), "maxzoom": String(area.maxZoom),
            "bounds": [area.bounds.west, area.bounds.south, area.bounds.east, area.bounds.north].map { String(format: "%.6f", $0) }.joined(separator: ","),
        ]
        fields["format"] = format?.mbtilesName
        // Strings in a dictionary of strings always serialise.
        return try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }

    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}

/// The zooms and area of a tileset's tiles: the bounds are those of its deepest zoom's tiles,
/// as MBTiles metadata gives them.
private struct TilesetArea {
    var minZoom: Int
    var maxZoom: Int
    var bounds: GeoBounds

    /// `tiles` in tile-number order, so zooms ascend, and not empty.
    init(_ tiles: [PMTilesLayout.Tile]) {
        minZoom = PMTilesTileID.zoom(of: tiles.first!.id)!
        maxZoom = PMTilesTileID.zoom(of: tiles.last!.id)!
        var (west, east, north, south) = (Int.max, Int.min, Int.max, Int.min)
        for tile in tiles.reversed() {
            guard tile.id >= PMTilesTileID.firstID(ofZoom: maxZoom), let deep = PMTilesTileID.tile(for: tile.id) else { break }
            (west, east, north, south) = (min(west, deep.x), max(east, deep.x), min(north, deep.y), max(south, deep.y))
        }
        let northWest = TileID(z: maxZoom, x: west, y: north).bounds
        let southEast = TileID(z: maxZoom, x: east, y: south).bounds
        bounds = GeoBounds(south: southEast.south, west: northWest.west, north: northWest.north, east: southEast.east)
    }
}
