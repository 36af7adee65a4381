import Foundation
import MapGeometry

/// A PMTiles version 3 archive of raster tiles, read: its header and root directory read and
/// checked as it opens, leaf directories read when a tile needs them and kept within a budget of
/// bytes, and tiles read one at a time. Every directory entry is checked against the section it
/// points into as the directory is read, so nothing is read from outside the file whatever the
/// archive declares, and no directory or tile larger than its limit is read at all. Every method
/// blocks on the file: call them on the storage threads, as `PMTilesBackend` does.
public final class PMTilesArchive: Sendable {
    public let header: PMTilesHeader
    private let bytes: any PMTilesBytes
    private let root: PMTilesDirectory
    /// Leaf directories read, by their offset in the leaf section.
    private let leaves = LRUCache<UInt64, PMTilesDirectory>(
        capacity: PMTilesArchive.leafBudget.count, maxBytes: PMTilesArchive.leafBudget.bytes, cost: { $0.memoryCost }
    )

    /// The largest directory read, compressed or not: 8 MiB holds some 2 million entries, ten
    /// times the leaves of a planet-wide archive.
    static let maxDirectoryBytes = 8 << 20
    /// Leaf directories kept decoded: 4 MiB (some 170,000 entries), in at most 256 directories.
    static let leafBudget = (count: 256, bytes: 4 << 20)
    /// Directories read on the way to a tile: the root and up to three levels of leaves.
    static let maxDepth = 4
    /// The largest tile read, as for MBTiles.
    public static let maxTileBytes = MBTilesCache.maxTileBytes

    /// Opens an archive, reading and checking its header and root directory. Blocks.
    public init(_ bytes: any PMTilesBytes) throws(PMTilesError) {
        self.bytes = bytes
        header = try PMTilesHeader(reading: bytes.read(offset: 0, length: Int(min(bytes.size, UInt64(PMTilesHeader.size)))), fileSize: bytes.size)
        root = try Self.directory(in: header.rootDirectory, of: bytes, header: header, what: "the root directory")
    }

    // MARK: - Tiles

    /// The entry holding `tile`'s bytes, or nil when the archive has no such tile. Blocks.
    public func entry(for tile: TileID) throws(PMTilesError) -> PMTilesEntry? {
        guard tile.isValid else { return nil }
        let id = PMTilesTileID.id(of: tile)
        var directory = root
        for depth in 1...Self.maxDepth {
            guard let index = directory.index(for: id) else { return nil }
            guard directory.entries[index].isLeaf else { return directory.entries[index] }
            guard depth < Self.maxDepth else { break }
            directory = try leaf(at: index, of: directory)
        }
        throw PMTilesError("its directories nest deeper than \(Self.maxDepth) levels on the way to tile \(tile)")
    }

    /// The bytes an entry of tiles points to. Blocks.
    public func data(of entry: PMTilesEntry) throws(PMTilesError) -> Data {
        try bytes.read(offset: header.tileData.offset + entry.offset, length: Int(entry.length))
    }

    /// Calls `body` with each entry of tiles in tile-number order, from the one that holds tile
    /// number `start` or the first after it, until `body` returns false. Leaf directories are read
    /// through the budget as the walk reaches them. Blocks.
    public func forEachTileEntry(from start: UInt64 = 0, _ body: (PMTilesEntry) throws(PMTilesError) -> Bool) throws(PMTilesError) {
        _ = try walk(root, from: start, depth: 1, body)
    }

    /// Walks one directory; false once `body` has said to stop.
    private func walk(
        _ directory: PMTilesDirectory, from start: UInt64, depth: Int, _ body: (PMTilesEntry) throws(PMTilesError) -> Bool
    ) throws(PMTilesError) -> Bool {
        // The last entry at or before `start` may hold it (a run, or a leaf's range); those before cannot.
        let first = directory.lastIndex(atOrBefore: start) ?? 0
        for (index, entry) in directory.entries.enumerated().dropFirst(first) {
            if entry.isLeaf {
                guard depth < Self.maxDepth else { throw PMTilesError("its directories nest deeper than \(Self.maxDepth) levels") }
                guard try walk(leaf(at: index, of: directory), from: start, depth: depth + 1, body) else { return false }
            } else if entry.endID > start {
                guard try body(entry) else { return false }
            }
        }
        return true
    }

    // MARK: - Directories

    /// The leaf directory entry `index` of `parent` points to, from the budget or read now. Its
    /// entries must lie within the tile numbers its entry gives it (from its own to the next
    /// entry's), so that a walk meets every tile in ascending order and a lookup finds each.
    private func leaf(at index: Int, of parent: PMTilesDirectory) throws(PMTilesError) -> PMTilesDirectory {
        let entry = parent.entries[index]
        let what = "the leaf directory at offset \(entry.offset)"
        let directory: PMTilesDirectory
        if let held = leaves.value(for: entry.offset) {
            directory = held
        } else {
            let section = PMTilesHeader.Section(offset: header.leafDirectories.offset + entry.offset, length: UInt64(entry.length))
            directory = try Self.directory(in: section, of: bytes, header: header, what: what)
            leaves.insert(directory, for: entry.offset)
        }
        let (start, end) = parent.leafRange(at: index)
        let (first, last) = (directory.entries.first!, directory.entries.last!)
        guard first.tileID >= start, end.map({ last.endID <= $0 && last.tileID < $0 }) ?? true else {
            throw PMTilesError(
                "\(what) holds tile numbers \(first.tileID) to \(last.endID), outside the range its entry gives it, from \(start)\(end.map { " to \($0)" } ?? " on")"
            )
        }
        return directory
    }

    /// Reads, decompresses, decodes and checks the directory in `section`: each entry must point
    /// inside the section it names (leaf directories or tile data), at no more than the limit.
    private static func directory(
        in section: PMTilesHeader.Section, of bytes: any PMTilesBytes, header: PMTilesHeader, what: String
    ) throws(PMTilesError) -> PMTilesDirectory {
        guard section.length <= UInt64(maxDirectoryBytes) else {
            throw PMTilesError("\(what) is \(section.length) bytes; allowed up to \(maxDirectoryBytes)")
        }
        var raw = try bytes.read(offset: section.offset, length: Int(section.length))
        if header.internalCompression == .gzip {
            raw = try Gzip.decompress(raw, limit: maxDirectoryBytes, what: what)
        }
        let directory: PMTilesDirectory
        do throws(PMTilesError) {
            directory = try PMTilesDirectory.decode(raw)
        } catch {
            throw PMTilesError("\(what): \(error.description)")
        }
        for (index, entry) in directory.entries.enumerated() {
            let (target, name) = entry.isLeaf ? (header.leafDirectories, "leaf directories") : (header.tileData, "tile data")
            guard target.holds(offset: entry.offset, length: UInt64(entry.length)) else {
                throw PMTilesError("\(what): entry \(index) points to \(entry.length) bytes at offset \(entry.offset), outside the \(target.length) bytes of \(name)")
            }
        }
        return directory
    }
}
