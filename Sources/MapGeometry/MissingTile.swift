import Foundation

/// A tile that could not be drawn, and why. The frame shows it as plain grey.
public struct MissingTile: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The cache has no such tile (and it was not fetched: offline, or no upstream).
        case notCached
        /// The upstream says it has no such tile (404), recently enough to believe it.
        case notFoundUpstream
        /// The upstream could not supply it; the message is safe to show.
        case fetchFailed(String)
        /// The cache holds bytes that are not a decodable image.
        case undecodable(String)
        /// The cache could not be read.
        case unreadable(String)
        /// The tile was fetched but could not be written to the cache (the disk is full, say).
        case notStored(String)

        /// Whether trying to get the tile failed: its fetch, or storing what was fetched. Any
        /// other missing tile was never there to be had: not cached while offline, not on the
        /// upstream, or unreadable or undecodable in the cache.
        public var isFailure: Bool {
            switch self {
            case .fetchFailed, .notStored: return true
            case .notCached, .notFoundUpstream, .undecodable, .unreadable: return false
            }
        }
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
        case .notFoundUpstream: return "\(tile) (not found upstream)"
        case .fetchFailed(let message): return "\(tile) (fetch failed: \(message))"
        case .undecodable(let message): return "\(tile) (undecodable: \(message))"
        case .unreadable(let message): return "\(tile) (unreadable: \(message))"
        case .notStored(let message): return "\(tile) (not stored: \(message))"
        }
    }
}
