import Foundation

/// PMTiles version 3 archives written for the tests from the specification alone, sharing no
/// code with MapFrame's reader or writer: its own Hilbert numbering, varints and gzip (stored
/// deflate blocks with a CRC-32 of its own). Every header field and directory entry can be set,
/// so that a test can build both good archives and each kind of bad one.
public enum TestPMTiles {
    /// A directory entry as the specification gives it.
    public struct Entry: Sendable {
        public var tileID: UInt64
        public var offset: UInt64
        public var length: UInt32
        public var runLength: UInt32

        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }
    }

    /// The header's one-byte fields a test may change.
    public struct Options: Sendable {
        public var version: UInt8 = 3
        /// 1 (none) or 2 (gzip) for directories and metadata; any byte may be written.
        public var internalCompression: UInt8 = 2
        public var tileCompression: UInt8 = 1
        /// 2 PNG, 3 JPEG, 4 WebP, 1 MVT…
        public var tileType: UInt8 = 2
        /// Entries a leaf directory holds; nil puts every entry in the root.
        public var leafSize: Int?
        /// Bytes of zeros before the first leaf directory: enough puts the leaves beyond the
        /// first 16 KiB, which a remote reader fetches with the header and root.
        public var leafPadding: Int

        public init(
            version: UInt8 = 3, internalCompression: UInt8 = 2, tileCompression: UInt8 = 1, tileType: UInt8 = 2, leafSize: Int? = nil,
            leafPadding: Int = 0
        ) {
            self.version = version
            self.internalCompression = internalCompression
            self.tileCompression = tileCompression
            self.tileType = tileType
            self.leafSize = leafSize
            self.leafPadding = leafPadding
        }
    }

    /// An archive of `tiles` (z, x, y, bytes): identical bytes stored once, consecutive tile
    /// numbers with identical bytes one run, the tile data in tile-number order.
    public static func archive(tiles: [(z: Int, x: Int, y: Int, data: Data)], options: Options = Options()) -> Data {
        let sorted = tiles.map { (id: tileID(z: $0.z, x: $0.x, y: $0.y), data: $0.data) }.sorted { $0.id < $1.id }
        var entries: [Entry] = []
        var tileData = Data()
        var offsets: [Data: UInt64] = [:]
        for tile in sorted {
            if let last = entries.last, last.tileID + UInt64(last.runLength) == tile.id, offsets[tile.data] == last.offset {
                entries[entries.count - 1].runLength += 1
                continue
            }
            let offset = offsets[tile.data] ?? UInt64(tileData.count)
            if offsets[tile.data] == nil {
                offsets[tile.data] = offset
                tileData.append(tile.data)
            }
            entries.append(Entry(tileID: tile.id, offset: offset, length: UInt32(tile.data.count), runLength: 1))
        }
        return archive(entries: entries, tileData: tileData, options: options)
    }

    /// An archive of the given entries (split into leaves when `options.leafSize` says) and tile
    /// data, with the metadata `{"name":"test"}`. Nothing is checked: entries may point anywhere.
    public static func archive(entries: [Entry], tileData: Data, options: Options = Options(), rootEntries: [Entry]? = nil, leaves: Data = Data()) -> Data {
        var root: [Entry]
        var leafBytes = leaves
        if let rootEntries {
            root = rootEntries
        } else if let leafSize = options.leafSize {
            root = []
            leafBytes.append(Data(count: options.leafPadding))
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leaf = compressed(directory(Array(entries[start..<min(start + leafSize, entries.count)])), options)
                root.append(Entry(tileID: entries[start].tileID, offset: UInt64(leafBytes.count), length: UInt32(leaf.count), runLength: 0))
                leafBytes.append(leaf)
            }
        } else {
            root = entries
        }
        let rootBytes = compressed(directory(root), options)
        let metadata = compressed(Data(#"{"name":"test"}"#.utf8), options)
        var header = Data("PMTiles".utf8)
        header.append(options.version)
        var offset: UInt64 = 127
        for length in [rootBytes.count, metadata.count, leafBytes.count, tileData.count] {
            append(offset, to: &header)
            append(UInt64(length), to: &header)
            offset += UInt64(length)
        }
        let tileEntries = entries.filter { $0.runLength > 0 }
        append(UInt64(tileEntries.reduce(0) { $0 + Int($1.runLength) }), to: &header)
        append(UInt64(tileEntries.count), to: &header)
        append(UInt64(Set(tileEntries.map(\.offset)).count), to: &header)
        header.append(contentsOf: [1, options.internalCompression, options.tileCompression, options.tileType, 0, 20])
        for value: Int32 in [-1_800_000_000, -850_000_000, 1_800_000_000, 850_000_000] { append(UInt32(bitPattern: value), to: &header) }
        header.append(0)
        append(UInt32(0), to: &header)
        append(UInt32(0), to: &header)
        precondition(header.count == 127)
        return header + rootBytes + metadata + leafBytes + tileData
    }

    /// A directory's bytes before compression: the count, then the columns.
    public static func directory(_ entries: [Entry]) -> Data {
        var bytes = Data()
        varint(UInt64(entries.count), to: &bytes)
        var last: UInt64 = 0
        for entry in entries {
            varint(entry.tileID - last, to: &bytes)
            last = entry.tileID
        }
        for entry in entries { varint(UInt64(entry.runLength), to: &bytes) }
        for entry in entries { varint(UInt64(entry.length), to: &bytes) }
        for (index, entry) in entries.enumerated() {
            let follows = index > 0 && entries[index - 1].offset + UInt64(entries[index - 1].length) == entry.offset
            varint(follows ? 0 : entry.offset + 1, to: &bytes)
        }
        return bytes
    }

    /// A tile's number: the tiles of the zooms above, then its distance along the zoom's
    /// Hilbert curve (the classic xy-to-d walk from the largest quadrant down).
    public static func tileID(z: Int, x: Int, y: Int) -> UInt64 {
        let n = 1 << z
        var (x, y) = (x, y)
        var d = 0
        var s = n / 2
        while s > 0 {
            let rx = (x & s) > 0 ? 1 : 0
            let ry = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x
                    y = n - 1 - y
                }
                (x, y) = (y, x)
            }
            s /= 2
        }
        var base: UInt64 = 0
        for zoom in 0..<z { base += UInt64(1) << (2 * UInt64(zoom)) }
        return base + UInt64(d)
    }

    /// `bytes` as gzip: stored deflate blocks, a CRC-32 and the size.
    public static func gzip(_ bytes: Data) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            out.append(end == bytes.count ? 1 : 0)
            let length = UInt16(end - start)
            append(length, to: &out)
            append(~length, to: &out)
            out.append(bytes[bytes.startIndex + start..<bytes.startIndex + end])
            start = end
        } while start < bytes.count
        append(crc32(bytes), to: &out)
        append(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        return out
    }

    private static func compressed(_ bytes: Data, _ options: Options) -> Data {
        options.internalCompression == 2 ? gzip(bytes) : bytes
    }

    private static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func varint(_ value: UInt64, to bytes: inout Data) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
