import MapGeometry

/// An expire list, one line at a time: the tiles whose data changed, as osm2pgsql writes them
/// (`--expire-tiles`, `--expire-output`) and mod_tile's `render_expired` reads them, one tile a
/// line as `z/x/y`, rows counted from the north. Also taken: a range of columns, rows or both,
/// `z/x1-x2/y1-y2` (`15/16370-16373/10896`), both ends included; blank lines; and spaces, tabs
/// or a carriage return around a line. Anything else on a line is refused, naming what is
/// allowed: no signs, no fractions, no comments, no fourth part.
public enum ExpiryList {
    /// The longest line read: the longest a tile can be written is 47 characters, a zoom 30
    /// range in both parts.
    public static let maxLineLength = 100

    /// What a line may be, for messages.
    public static let allowed = "allowed z/x/y, such as 15/16370/10896, or ranges z/x1-x2/y1-y2, in whole numbers"

    /// The tiles a line names, or nil for a blank line; throws why a line names none.
    public static func block(inLine line: Substring) throws(ExpiryLineProblem) -> TileBlock? {
        let isPadding: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        var text = line.drop(while: isPadding)
        while let last = text.last, isPadding(last) { text = text.dropLast() }
        guard !text.isEmpty else { return nil }
        guard text.count <= maxLineLength else { throw .tooLong }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let zoom = number(parts[0]), let columns = range(parts[1]), let rows = range(parts[2]) else {
            throw .notATile
        }
        guard zoom <= TileID.maxZoom else { throw .zoomOutside(zoom) }
        let last = TileID.tilesPerSide(zoom: zoom) - 1
        for (axis, span) in [("x", columns), ("y", rows)] {
            guard span.lower <= span.upper else { throw .backwards(axis: axis, span.lower, span.upper) }
            guard span.upper <= last else { throw .outside(axis: axis, span.upper, last: last, zoom: zoom) }
        }
        return TileBlock(zoom: zoom, columns: columns.lower...columns.upper, rows: rows.lower...rows.upper)
    }

    /// `n` or `n1-n2`, as written (not yet checked to run forwards).
    private static func range(_ text: Substring) -> (lower: Int, upper: Int)? {
        let ends = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let lower = number(ends[0]) else { return nil }
        guard ends.count == 2 else { return (lower, lower) }
        return number(ends[1]).map { (lower, $0) }
    }

    /// A whole number of ASCII digits, at most 10 of them (2^30 has 10).
    private static func number(_ text: Substring) -> Int? {
        guard (1...10).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }
}

/// Why a line of an expire list names no tile; the description says what is allowed.
public enum ExpiryLineProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case notATile
    case tooLong
    case zoomOutside(Int)
    /// A range whose first end is past its last.
    case backwards(axis: String, Int, Int)
    /// A column or row past the last at its zoom.
    case outside(axis: String, Int, last: Int, zoom: Int)

    public var description: String {
        switch self {
        case .notATile: "not a tile; \(ExpiryList.allowed)"
        case .tooLong: "longer than \(ExpiryList.maxLineLength) characters; \(ExpiryList.allowed), one a line"
        case .zoomOutside(let zoom): "zoom \(zoom) is outside 0-\(TileID.maxZoom)"
        case .backwards(let axis, let first, let last): "\(axis) \(first)-\(last) runs backwards; allowed \(axis)1-\(axis)2 with \(axis)1 no greater than \(axis)2"
        case .outside(let axis, let value, let last, let zoom): "\(axis) \(value) is outside 0-\(last), the tiles at zoom \(zoom)"
        }
    }
}
