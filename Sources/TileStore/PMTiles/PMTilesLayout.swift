import Foundation

/// How a written archive's tiles are laid out: its directory entries, the order of the contents
/// in the tile data, and the directories as stored. Pure: `PMTilesWriter` writes what it says.
enum PMTilesLayout {
    /// One tile to write: its number and the index of its content (`PMTilesContents`).
    struct Tile {
        var id: UInt64
        var content: UInt32
    }

    /// The entries for `tiles` (in ascending, distinct tile-number order) whose contents are
    /// `lengths` long: clustered, each content stored once where its first tile needs it, later
    /// tiles pointing back to it, and consecutive tiles of one content a single run.
    static func entries(for tiles: [Tile], lengths: [UInt32]) -> (entries: [PMTilesEntry], contentOrder: [UInt32], dataLength: UInt64) {
        var offsets = [UInt64](repeating: .max, count: lengths.count)
        var entries: [PMTilesEntry] = []
        var order: [UInt32] = []
        var dataLength: UInt64 = 0
        var previousContent: UInt32?
        for tile in tiles {
            if let last = entries.last, previousContent == tile.content, last.endID == tile.id, last.runLength < .max {
                entries[entries.count - 1].runLength += 1
                continue
            }
            let length = lengths[Int(tile.content)]
            if offsets[Int(tile.content)] == .max {
                offsets[Int(tile.content)] = dataLength
                order.append(tile.content)
                dataLength += UInt64(length)
            }
            entries.append(PMTilesEntry(tileID: tile.id, offset: offsets[Int(tile.content)], length: length, runLength: 1))
            previousContent = tile.content
        }
        return (entries, order, dataLength)
    }

    /// The first number of entries a leaf directory holds; doubled until the root fits.
    static let firstLeafSize = 4_096

    /// The directories for `entries`, gzip-compressed: all in the root when it fits beside the
    /// header in `PMTilesHeader.rootLimit` bytes; otherwise leaves of `firstLeafSize` entries,
    /// twice as many until the root, one entry a leaf, fits.
    static func directories(for entries: [PMTilesEntry]) -> (root: Data, leaves: Data, leafCount: Int) {
        let room = PMTilesHeader.rootLimit - PMTilesHeader.size
        let whole = Gzip.compress(PMTilesDirectory(entries: entries).encoded())
        if whole.count <= room { return (whole, Data(), 0) }
        var leafSize = firstLeafSize
        while true {
            var leaves = Data()
            var rootEntries: [PMTilesEntry] = []
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leaf = Gzip.compress(PMTilesDirectory(entries: Array(entries[start..<min(start + leafSize, entries.count)])).encoded())
                rootEntries.append(PMTilesEntry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves.append(leaf)
            }
            let root = Gzip.compress(PMTilesDirectory(entries: rootEntries).encoded())
            if root.count <= room { return (root, leaves, rootEntries.count) }
            leafSize *= 2
        }
    }
}
