import Foundation
import ImageCodec
import MapGeometry

/// What an MBTiles file says of its tiles, and where each thing was found: the tileset's name,
/// the tiles' format and size, and the zooms it holds. The metadata is taken where it speaks and
/// the tiles agree with it. Where it is silent (no entry, an empty table, no table), or names
/// a format the tiles are not in, a stored tile's own bytes are read instead: their signature
/// and header, never a pixel. What the bytes said against the metadata is kept, to be reported.
public struct TilesetDescription: Sendable, Equatable, CustomStringConvertible {
    public enum Source: String, Sendable {
        case metadata = "from the metadata"
        case fileName = "from the file name"
        case tileBytes = "from a tile's bytes"
    }

    public var name: String
    public var nameSource: Source
    /// `png`, `jpg` or `webp`, say; nil when neither the metadata nor any tile says.
    public var format: String?
    public var formatSource: Source?
    /// The metadata's `format`, when a tile's bytes say otherwise.
    public var contradictedFormat: String?
    /// The side of a tile in pixels, one of `TileSource.tileSizes`: from the metadata's `tilesize`, else
    /// from a tile's bytes; nil when neither says (an empty file).
    public var tileSize: Int?
    public var tileSizeSource: Source?
    /// The side a tile's bytes give, when it is not the metadata's `tilesize`, which drawing
    /// follows: a tile of neither that size nor twice it is refused as it is drawn.
    public var contradictingTileSide: Int?
    /// The zooms of the tiles held, shallowest first.
    public var zooms: [Int]

    public init(
        name: String, nameSource: Source, format: String? = nil, formatSource: Source? = nil, contradictedFormat: String? = nil,
        tileSize: Int? = nil, tileSizeSource: Source? = nil, contradictingTileSide: Int? = nil, zooms: [Int] = []
    ) {
        self.name = name
        self.nameSource = nameSource
        self.format = format
        self.formatSource = formatSource
        self.contradictedFormat = contradictedFormat
        self.tileSize = tileSize
        self.tileSizeSource = tileSizeSource
        self.contradictingTileSide = contradictingTileSide
        self.zooms = zooms
    }

    /// Weighs the metadata of the file at `path` against the header of one of its tiles
    /// (`sample`, nil when no tile has a known signature). A `tilesize` that is not one of
    /// `TileSource.tileSizes` refuses the file, naming the field, the value and what is allowed.
    init(path: String, metadata: [String: String], sample: ImageHeader?, zooms: [Int]) throws(CacheError) {
        self.init(name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, nameSource: .fileName, zooms: zooms)
        if let name = metadata["name"], !name.isEmpty { (self.name, nameSource) = (name, .metadata) }

        let declaredFormat = metadata["format"].flatMap { $0.isEmpty ? nil : $0 }
        if let sampled = sample?.format.mbtilesName {
            format = sampled
            if declaredFormat.map(Self.formatName) == sampled {
                formatSource = .metadata
            } else {
                formatSource = .tileBytes
                contradictedFormat = declaredFormat
            }
        } else if let declaredFormat {
            format = declaredFormat
            formatSource = .metadata
        }

        let sampledSide = sample.flatMap { $0.width == $0.height ? $0.width : nil }
        if let declared = Self.declaredTileSize(in: metadata) {
            guard let side = Int(declared.value.trimmingCharacters(in: .whitespaces)), TileSource.tileSizes.contains(side) else {
                throw CacheError.undrawable(
                    path: path, reason: "its metadata \(declared.field) is \"\(declared.value)\"; a tile must be \(TileSource.tileSizesAllowed) pixels square"
                )
            }
            tileSize = side
            tileSizeSource = .metadata
            if let sampledSide, sampledSide != side { contradictingTileSide = sampledSide }
        } else if let sampledSide, TileSource.tileSizes.contains(sampledSide) {
            tileSize = sampledSide
            tileSizeSource = .tileBytes
        }
    }

    /// The metadata entry that gives the tile size, and its value: `tilesize`, in any case, with
    /// or without an underscore (`tileSize`, `tile_size`), as tools write it.
    private static func declaredTileSize(in metadata: [String: String]) -> (field: String, value: String)? {
        metadata.sorted { $0.key < $1.key }
            .first { $0.key.lowercased().replacingOccurrences(of: "_", with: "") == "tilesize" }
            .map { ($0.key, $0.value) }
    }

    /// A metadata `format` by MBTiles' short name: MBTiles 1.3 gives a media type
    /// (`image/png`), earlier versions `png` or `jpg`.
    private static func formatName(_ declared: String) -> String {
        switch declared.trimmingCharacters(in: .whitespaces).lowercased() {
        case "png", "image/png": "png"
        case "jpg", "jpeg", "image/jpeg", "image/jpg": "jpg"
        case "webp", "image/webp": "webp"
        case let other: other
        }
    }

    /// "name: Cambridge (from the metadata); format: png (from a tile's bytes; the metadata says
    /// jpg); tile size: 512 px (from a tile's bytes)", as `cache stats` shows it.
    public var description: String {
        let format = self.format.map { "\($0) (\(formatSource?.rawValue ?? "")\(formatContradiction))" }
            ?? "unknown (no metadata entry, and no tile with a known signature)"
        let size = tileSize.map { "\($0) px (\(tileSizeSource?.rawValue ?? "")\(sizeContradiction))" }
            ?? "unknown (no metadata entry, and no tile of a size MapFrame draws)"
        return "name: \(name) (\(nameSource.rawValue)); format: \(format); tile size: \(size)"
    }

    /// What was read from a tile's bytes because the metadata was silent or wrong, and where the
    /// two disagree, as drawing reports it when the file is opened: "format png, from a tile's
    /// bytes (the metadata has none); tile size 512 px, from a tile's bytes (the metadata has
    /// none)". A tile size of 256 px, which MBTiles readers take for granted, goes without
    /// saying. Nil when there is nothing to say.
    public var readFromTiles: String? {
        var parts: [String] = []
        if let format, formatSource == .tileBytes {
            parts.append("format \(format), from a tile's bytes (\(contradictedFormat.map { "the metadata says \($0)" } ?? "the metadata has none"))")
        }
        if let tileSize, tileSizeSource == .tileBytes, tileSize != Int(WebMercator.tileSize) {
            parts.append("tile size \(tileSize) px, from a tile's bytes (the metadata has none)")
        }
        if let tileSize, let contradictingTileSide {
            parts.append("tile size \(tileSize) px, from the metadata (a tile's bytes give \(contradictingTileSide) px)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private var formatContradiction: String { contradictedFormat.map { "; the metadata says \($0)" } ?? "" }
    private var sizeContradiction: String { contradictingTileSide.map { "; a tile's bytes give \($0) px" } ?? "" }
}

extension TileSource {
    /// The source as it is drawn from a cache file whose tiles say what they are: at their tile
    /// size, where they give one, in place of the style's; and, drawn from the file alone
    /// (`fromFileAlone`, nothing fetched), from the zooms the file holds (`TileGrid`).
    public func drawn(from tileset: TilesetDescription, fromFileAlone: Bool) -> TileSource {
        var drawn = self
        drawn.tileSet.grid = TileGrid(
            tileSize: tileset.tileSize ?? tileSet.tileSize, zoomRange: tileSet.zoomRange,
            heldTileZooms: fromFileAlone ? tileset.zooms : []
        )
        return drawn
    }
}

extension ImageHeader.Format {
    /// The name MBTiles' `format` metadata gives the format.
    var mbtilesName: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }
}
