import Foundation

/// One entry of a PMTiles directory: a run of tiles with the same bytes, or a leaf directory.
public struct PMTilesEntry: Sendable, Equatable {
    /// The first tile's number (`PMTilesTileID`), or the first number a leaf directory holds.
    public var tileID: UInt64
    /// Where the bytes start: in the tile data section for tiles, in the leaf directory section
    /// for a leaf directory.
    public var offset: UInt64
    /// How many bytes there are; never 0.
    public var length: UInt32
    /// How many consecutive tile numbers, from `tileID`, have these bytes; 0 for a leaf directory.
    public var runLength: UInt32

    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }

    /// Whether the entry points to a leaf directory rather than to tiles.
    public var isLeaf: Bool { runLength == 0 }

    /// One past the last tile number the entry covers (the first, for a leaf directory). A
    /// decoded directory's entries never pass 2^64 - 1.
    public var endID: UInt64 { tileID + UInt64(runLength) }

    /// What an entry takes in memory, for bounding the directories held.
    static let memoryCost = MemoryLayout<PMTilesEntry>.stride
}

/// A PMTiles directory, decoded: its entries in ascending tile-number order. On disk (before any
/// compression) it is a varint count, then four columns of varints: each tile number less the
/// one before, the run lengths, the lengths, then the offsets, each written as 0 when the entry's
/// bytes follow the previous entry's, else as the offset plus 1.
public struct PMTilesDirectory: Sendable, Equatable {
    public var entries: [PMTilesEntry]

    public init(entries: [PMTilesEntry]) {
        self.entries = entries
    }

    /// What the directory takes in memory.
    var memoryCost: Int { entries.count * PMTilesEntry.memoryCost }

    // MARK: - Decoding

    /// Reads a directory's uncompressed bytes, checking everything: at least one entry, and no
    /// more than the bytes can hold (4 bytes an entry at least, so a count claiming billions costs
    /// nothing); tile numbers ascending, runs that do not overlap the next entry; lengths from 1 to
    /// 2^32 - 1; no offset that "follows" a first entry; and nothing left over.
    public static func decode(_ bytes: Data) throws(PMTilesError) -> PMTilesDirectory {
        var reader = VarintReader(bytes)
        let count = try reader.next("the entry count")
        guard count > 0 else { throw PMTilesError("a directory holds no entries; at least one is required") }
        guard count <= UInt64(bytes.count / 4) else {
            throw PMTilesError("a directory of \(bytes.count) bytes claims \(count) entries; each takes at least 4 bytes")
        }
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var tileID: UInt64 = 0
        for index in entries.indices {
            let delta = try reader.next("entry \(index)'s tile number")
            guard index == 0 || delta > 0 else { throw PMTilesError("entry \(index) repeats the tile number \(tileID); they must ascend") }
            let (sum, overflow) = tileID.addingReportingOverflow(delta)
            guard !overflow else { throw PMTilesError("entry \(index)'s tile number passes 2^64") }
            tileID = sum
            entries[index].tileID = tileID
        }
        for index in entries.indices {
            entries[index].runLength = try reader.next32("entry \(index)'s run length")
        }
        for index in entries.indices {
            let length = try reader.next32("entry \(index)'s length")
            guard length > 0 else { throw PMTilesError("entry \(index) has length 0; a tile or leaf directory has at least 1 byte") }
            entries[index].length = length
        }
        for index in entries.indices {
            let written = try reader.next("entry \(index)'s offset")
            if written == 0 {
                guard index > 0 else { throw PMTilesError("entry 0's offset is written as following the entry before it, and there is none") }
                let previous = entries[index - 1]
                let (offset, overflow) = previous.offset.addingReportingOverflow(UInt64(previous.length))
                guard !overflow else { throw PMTilesError("entry \(index)'s offset passes 2^64") }
                entries[index].offset = offset
            } else {
                entries[index].offset = written - 1
            }
        }
        guard reader.isAtEnd else { throw PMTilesError("\(reader.remaining) bytes follow the directory's last entry") }
        for index in entries.indices where !entries[index].isLeaf {
            let (end, overflow) = entries[index].tileID.addingReportingOverflow(UInt64(entries[index].runLength))
            guard !overflow else { throw PMTilesError("entry \(index)'s run of \(entries[index].runLength) tiles from \(entries[index].tileID) passes 2^64") }
            guard index + 1 == entries.count || end <= entries[index + 1].tileID else {
                throw PMTilesError("entry \(index)'s run of \(entries[index].runLength) tiles from \(entries[index].tileID) overlaps entry \(index + 1) at \(entries[index + 1].tileID)")
            }
        }
        return PMTilesDirectory(entries: entries)
    }

    // MARK: - Encoding

    /// The directory's uncompressed bytes.
    public func encoded() -> Data {
        var bytes = Data()
        bytes.reserveCapacity(entries.count * 6 + 10)
        Self.appendVarint(UInt64(entries.count), to: &bytes)
        var previousID: UInt64 = 0
        for entry in entries {
            Self.appendVarint(entry.tileID - previousID, to: &bytes)
            previousID = entry.tileID
        }
        for entry in entries { Self.appendVarint(UInt64(entry.runLength), to: &bytes) }
        for entry in entries { Self.appendVarint(UInt64(entry.length), to: &bytes) }
        for (index, entry) in entries.enumerated() {
            let follows = index > 0 && entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length)
            Self.appendVarint(follows ? 0 : entry.offset + 1, to: &bytes)
        }
        return bytes
    }

    /// Appends `value` as a varint: seven bits a byte, least significant first, the top bit set
    /// on every byte but the last.
    static func appendVarint(_ value: UInt64, to bytes: inout Data) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    // MARK: - Finding

    /// The entry that holds tile number `id`: the tiles' entry whose run covers it, or the leaf
    /// directory whose range it falls in (the last entry at or before it). Nil when neither.
    public func entry(for id: UInt64) -> PMTilesEntry? {
        index(for: id).map { entries[$0] }
    }

    /// The index of `entry(for:)`'s entry.
    func index(for id: UInt64) -> Int? {
        guard let index = lastIndex(atOrBefore: id) else { return nil }
        return entries[index].isLeaf || id < entries[index].endID ? index : nil
    }

    /// The index of the last entry whose tile number is at most `id`.
    func lastIndex(atOrBefore id: UInt64) -> Int? {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// The tile numbers the leaf directory of entry `index` may hold: from its tile number to
    /// the next entry's.
    func leafRange(at index: Int) -> (start: UInt64, end: UInt64?) {
        (entries[index].tileID, index + 1 < entries.count ? entries[index + 1].tileID : nil)
    }
}

/// Reads varints from a directory's bytes, refusing one cut short or past 64 bits.
struct VarintReader {
    private let bytes: Data
    private var index: Data.Index

    init(_ bytes: Data) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }
    var remaining: Int { bytes.endIndex - index }

    /// The next varint; `what` names it in the error.
    mutating func next(_ what: String) throws(PMTilesError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < bytes.endIndex else { throw PMTilesError("the directory ends inside \(what)") }
            let byte = bytes[index]
            index += 1
            // The tenth byte holds the 64th bit alone.
            guard shift < 63 || byte <= 1 else { throw PMTilesError("\(what) is a varint longer than 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// The next varint, which must fit in 32 bits.
    mutating func next32(_ what: String) throws(PMTilesError) -> UInt32 {
        let value = try next(what)
        guard let narrow = UInt32(exactly: value) else { throw PMTilesError("\(what) is \(value); allowed up to \(UInt32.max)") }
        return narrow
    }
}
