import Foundation

/// The 127-byte header that starts a PMTiles version 3 archive: where its sections lie, how its
/// directories and tiles are compressed, what its tiles are, and the area and zooms they cover.
/// Integers are little-endian; longitudes and latitudes are degrees times 10,000,000.
///
/// Reading checks that the archive is one MapFrame can draw from, each refusal naming the field,
/// its value and what is allowed: the magic `PMTiles` and version 3; directories and metadata
/// uncompressed or gzip; tiles uncompressed, and PNG, JPEG or WebP (or of no stated type, when
/// each tile is told by its bytes); the header and root directory within the first 16,384 bytes;
/// and every section inside the file.
public struct PMTilesHeader: Sendable, Equatable {
    /// The header's size in bytes.
    public static let size = 127
    /// The bytes the header and the root directory must fit in, so that a reader gets both at once.
    public static let rootLimit = 16_384

    /// Where a section lies in the file, in bytes.
    public struct Section: Sendable, Equatable {
        public var offset: UInt64
        public var length: UInt64

        public init(offset: UInt64, length: UInt64) {
            self.offset = offset
            self.length = length
        }

        /// Whether the section ends within a file of `size` bytes.
        func fits(in size: UInt64) -> Bool {
            let (end, overflow) = offset.addingReportingOverflow(length)
            return !overflow && end <= size
        }

        /// Whether `length` bytes at `offset` inside the section lie wholly within it.
        func holds(offset inner: UInt64, length innerLength: UInt64) -> Bool {
            let (end, overflow) = inner.addingReportingOverflow(innerLength)
            return !overflow && end <= length
        }
    }

    /// How directories and metadata (`internalCompression`) or tiles (`tileCompression`) are
    /// compressed, by the header's numbers.
    public enum Compression: UInt8, Sendable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }

    /// What the tiles are, by the header's numbers.
    public enum TileType: UInt8, Sendable {
        case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5, mlt = 6
    }

    public var rootDirectory: Section
    public var metadata: Section
    public var leafDirectories: Section
    public var tileData: Section
    /// Tiles addressed, runs counted out; 0 when not known.
    public var addressedTileCount: UInt64
    /// Directory entries that point to tiles; 0 when not known.
    public var tileEntryCount: UInt64
    /// Distinct tile contents stored; 0 when not known.
    public var tileContentCount: UInt64
    /// Whether the tile data is in tile-number order.
    public var isClustered: Bool
    public var internalCompression: Compression
    public var tileCompression: Compression
    public var tileType: TileType
    public var minZoom: UInt8
    public var maxZoom: UInt8
    /// West, south, east and north, in degrees times 10,000,000.
    public var minLonE7: Int32, minLatE7: Int32, maxLonE7: Int32, maxLatE7: Int32
    public var centerZoom: UInt8
    public var centerLonE7: Int32, centerLatE7: Int32

    public init(
        rootDirectory: Section, metadata: Section, leafDirectories: Section, tileData: Section,
        addressedTileCount: UInt64, tileEntryCount: UInt64, tileContentCount: UInt64, isClustered: Bool,
        internalCompression: Compression, tileCompression: Compression, tileType: TileType, minZoom: UInt8, maxZoom: UInt8,
        minLonE7: Int32, minLatE7: Int32, maxLonE7: Int32, maxLatE7: Int32, centerZoom: UInt8, centerLonE7: Int32, centerLatE7: Int32
    ) {
        self.rootDirectory = rootDirectory
        self.metadata = metadata
        self.leafDirectories = leafDirectories
        self.tileData = tileData
        self.addressedTileCount = addressedTileCount
        self.tileEntryCount = tileEntryCount
        self.tileContentCount = tileContentCount
        self.isClustered = isClustered
        self.internalCompression = internalCompression
        self.tileCompression = tileCompression
        self.tileType = tileType
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minLonE7 = minLonE7
        self.minLatE7 = minLatE7
        self.maxLonE7 = maxLonE7
        self.maxLatE7 = maxLatE7
        self.centerZoom = centerZoom
        self.centerLonE7 = centerLonE7
        self.centerLatE7 = centerLatE7
    }

    private static let magic = Array("PMTiles".utf8)

    // MARK: - Reading

    /// Reads and checks the header of an archive of `fileSize` bytes from its first bytes (all
    /// of them, or the first 127).
    public init(reading bytes: Data, fileSize: UInt64) throws(PMTilesError) {
        let start = [UInt8](bytes.prefix(Self.size))
        guard !start.isEmpty, Self.magic.starts(with: start.prefix(Self.magic.count)) else { throw PMTilesError(Self.notPMTiles(start)) }
        guard start.count == Self.size else {
            throw PMTilesError("the file is \(fileSize) bytes, shorter than the \(Self.size)-byte PMTiles header")
        }
        try Self.checkVersion(start[7])
        func integer<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
            start[offset..<offset + MemoryLayout<T>.size].reversed().reduce(T.zero) { $0 << 8 | T(truncatingIfNeeded: $1) }
        }
        func section(_ offset: Int) -> Section { Section(offset: integer(offset, as: UInt64.self), length: integer(offset + 8, as: UInt64.self)) }
        rootDirectory = section(8)
        metadata = section(24)
        leafDirectories = section(40)
        tileData = section(56)
        addressedTileCount = integer(72, as: UInt64.self)
        tileEntryCount = integer(80, as: UInt64.self)
        tileContentCount = integer(88, as: UInt64.self)
        isClustered = start[96] == 1
        internalCompression = try Self.compression(start[97], field: "internal compression (directories and metadata)", allowed: [.none, .gzip])
        tileCompression = try Self.compression(start[98], field: "tile compression", allowed: [.none])
        tileType = try Self.tileType(start[99])
        minZoom = start[100]
        maxZoom = start[101]
        minLonE7 = integer(102, as: Int32.self)
        minLatE7 = integer(106, as: Int32.self)
        maxLonE7 = integer(110, as: Int32.self)
        maxLatE7 = integer(114, as: Int32.self)
        centerZoom = start[118]
        centerLonE7 = integer(119, as: Int32.self)
        centerLatE7 = integer(123, as: Int32.self)
        try checkSections(fileSize: fileSize)
    }

    /// What a file that does not start with the magic starts with instead.
    private static func notPMTiles(_ start: [UInt8]) -> String {
        if start.starts(with: Array("PM".utf8)), start.count >= 4, start[2] == 2 || start[2] == 1, start[3] == 0 {
            return "it is a PMTiles version \(start[2]) archive; allowed version 3 (`pmtiles convert` upgrades it)"
        }
        guard !start.isEmpty else { return "the file is empty; a PMTiles archive starts with \"PMTiles\"" }
        let shown = start.prefix(16)
        let isText = shown.allSatisfy { (0x20...0x7E).contains($0) }
        let text = isText ? "\"\(String(decoding: shown, as: UTF8.self))\"" : "the bytes " + shown.map { String(format: "%02X", $0) }.joined(separator: " ")
        return "it starts with \(text)\(start.count > 16 ? "…" : ""), not \"PMTiles\""
    }

    /// Version 3 alone. The byte is a number: an ASCII "3" (0x33) is refused with its own words,
    /// since an archive whose writer misread the header is not one whose offsets to follow (the
    /// `pmtiles` package's reader refuses it too).
    private static func checkVersion(_ version: UInt8) throws(PMTilesError) {
        guard version != 3 else { return }
        if version == UInt8(ascii: "3") {
            throw PMTilesError("its version byte is 0x33, the character \"3\" rather than the number 3; allowed the byte 0x03 (the archive's writer wrote the header wrongly)")
        }
        throw PMTilesError("its version is \(version); allowed 3")
    }

    private static func compression(_ value: UInt8, field: String, allowed: [Compression]) throws(PMTilesError) -> Compression {
        let names: [Compression: String] = [.unknown: "unknown", .none: "none", .gzip: "gzip", .brotli: "brotli", .zstd: "zstd"]
        let allowedText = allowed.map { "\($0.rawValue) (\(names[$0]!))" }.joined(separator: " or ")
        guard let compression = Compression(rawValue: value) else {
            throw PMTilesError("its \(field) is \(value), which PMTiles does not define; allowed \(allowedText)")
        }
        guard allowed.contains(compression) else { throw PMTilesError("its \(field) is \(value) (\(names[compression]!)); allowed \(allowedText)") }
        return compression
    }

    private static func tileType(_ value: UInt8) throws(PMTilesError) -> TileType {
        let allowed = "2 (PNG), 3 (JPEG), 4 (WebP), or 0 (not stated: each tile is told by its bytes)"
        switch TileType(rawValue: value) {
        case .unknown, .png, .jpeg, .webp:
            return TileType(rawValue: value)!
        case .mvt:
            throw PMTilesError("its tile type is 1 (MVT vector tiles), which MapFrame cannot draw; allowed raster tiles: \(allowed)")
        case .mlt:
            throw PMTilesError("its tile type is 6 (MLT vector tiles), which MapFrame cannot draw; allowed raster tiles: \(allowed)")
        case .avif:
            throw PMTilesError("its tile type is 5 (AVIF), which MapFrame cannot decode; allowed \(allowed)")
        case nil:
            throw PMTilesError("its tile type is \(value), which PMTiles does not define; allowed \(allowed)")
        }
    }

    /// Every section inside the file, and the root directory within the first 16,384 bytes.
    private func checkSections(fileSize: UInt64) throws(PMTilesError) {
        let sections = [("root directory", rootDirectory), ("metadata", metadata), ("leaf directories", leafDirectories), ("tile data", tileData)]
        for (name, section) in sections where !section.fits(in: fileSize) {
            throw PMTilesError("its \(name) (\(section.length) bytes at offset \(section.offset)) runs past the end of the \(fileSize)-byte file")
        }
        guard rootDirectory.length > 0 else { throw PMTilesError("its root directory is 0 bytes; a directory holds at least one entry") }
        guard rootDirectory.offset >= UInt64(Self.size), rootDirectory.offset + rootDirectory.length <= UInt64(Self.rootLimit) else {
            throw PMTilesError("its root directory (\(rootDirectory.length) bytes at offset \(rootDirectory.offset)) is not within bytes \(Self.size) to \(Self.rootLimit), after the header, as version 3 requires")
        }
    }

    // MARK: - Writing

    /// The header's 127 bytes.
    public func encoded() -> Data {
        var bytes = Data(Self.magic)
        bytes.append(3)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for section in [rootDirectory, metadata, leafDirectories, tileData] {
            append(section.offset)
            append(section.length)
        }
        append(addressedTileCount)
        append(tileEntryCount)
        append(tileContentCount)
        bytes.append(contentsOf: [isClustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue, minZoom, maxZoom])
        for value in [minLonE7, minLatE7, maxLonE7, maxLatE7] { append(value) }
        bytes.append(centerZoom)
        append(centerLonE7)
        append(centerLatE7)
        return bytes
    }
}
