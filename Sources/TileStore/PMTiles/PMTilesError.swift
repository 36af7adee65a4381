/// What is wrong with a PMTiles archive, or why MapFrame cannot draw from it: the field, the
/// value found and what is allowed. `PMTilesArchive` names the file around it
/// (`CacheError.unusableArchive`).
public struct PMTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// Set when the bytes asked for have not been fetched yet, rather than anything being wrong:
    /// a remote archive (`RemotePMTilesArchive`) fetches this range and reads again.
    let unreadRange: ByteRange?

    /// A run of bytes in an archive.
    struct ByteRange: Sendable, Equatable {
        var offset: UInt64
        var length: Int
    }

    init(_ description: String) {
        self.description = description
        unreadRange = nil
    }

    /// The bytes at `offset` have not been fetched yet.
    static func unread(offset: UInt64, length: Int) -> PMTilesError {
        PMTilesError(description: "\(length) bytes at offset \(offset) have not been fetched", unreadRange: ByteRange(offset: offset, length: length))
    }

    private init(description: String, unreadRange: ByteRange?) {
        self.description = description
        self.unreadRange = unreadRange
    }
}
