import Foundation
import ImageCodec
import MapGeometry

/// A tile that could not be drawn, and why. The frame shows it as plain grey.
public struct MissingTile: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The cache has no such tile.
        case notCached
        /// The cache holds bytes that are not a decodable image.
        case undecodable(String)
        /// The cache could not be read.
        case unreadable(String)
    }

    public var tile: TileID
    public var reason: Reason

    public init(tile: TileID, reason: Reason) {
        self.tile = tile
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .notCached: return "\(tile) (not cached)"
        case .undecodable(let message): return "\(tile) (undecodable: \(message))"
        case .unreadable(let message): return "\(tile) (unreadable: \(message))"
        }
    }
}

/// The outcome of asking for one tile.
public enum TileLookup: Sendable {
    case image(RasterImage)
    case missing(MissingTile)
}

/// Where a decoded tile came from: the cache file and the tile address.
public struct DecodedTileKey: Hashable, Sendable {
    public var cachePath: String
    public var tile: TileID
}

/// Serves decoded tiles of one source: first from memory, then from the MBTiles cache.
public final class TileStore {
    /// How many decoded tiles stay in memory by default: 128 tiles of 256 KiB each is 32 MiB,
    /// several frames' worth.
    public static let defaultMemoryCapacity = 128

    public let source: TileSource
    public let cache: MBTilesCache
    private let decodedTiles: LRUCache<DecodedTileKey, RasterImage>

    public init(source: TileSource, cache: MBTilesCache, decodedTiles: LRUCache<DecodedTileKey, RasterImage>) {
        self.source = source
        self.cache = cache
        self.decodedTiles = decodedTiles
    }

    /// The decoded tile, or why it is missing.
    public func tile(_ id: TileID) -> TileLookup {
        let key = DecodedTileKey(cachePath: cache.path, tile: id)
        if let image = decodedTiles.value(for: key) { return .image(image) }
        let data: Data
        do {
            guard let stored = try cache.tileData(for: id) else {
                return .missing(MissingTile(tile: id, reason: .notCached))
            }
            data = stored
        } catch {
            return .missing(MissingTile(tile: id, reason: .unreadable(error.description)))
        }
        do {
            let image = try PNGCodec.decode(data)
            decodedTiles.insert(image, for: key)
            return .image(image)
        } catch {
            return .missing(MissingTile(tile: id, reason: .undecodable(error.description)))
        }
    }
}
