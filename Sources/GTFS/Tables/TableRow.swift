import ImageCodec
import MapGeometry

/// One row of a table and the line it starts on, read as typed values. A value that does not
/// parse is an error naming the file, the line, the column, the value and what is allowed.
struct TableRow {
    let file: String
    let line: Int
    let fields: [String]

    /// An error about this row's `column`.
    func error(_ column: Column, _ message: String) -> GTFSError {
        GTFSError(file: file, line: line, column: column.name, message: message)
    }

    /// The column's text; nil when the header lacks the column or the field is empty.
    func text(_ column: Column?) -> String? {
        guard let column, !fields[column.index].isEmpty else { return nil }
        return fields[column.index]
    }

    /// The column's text, which must not be empty.
    func required(_ column: Column) throws(GTFSError) -> String {
        guard let text = text(column) else { throw error(column, "is empty; a value is required") }
        return text
    }

    /// A whole number in `range`; nil when empty.
    func integer(_ column: Column?, in range: ClosedRange<Int>) throws(GTFSError) -> Int? {
        guard let column, let text = text(column) else { return nil }
        let allowed = range.upperBound == .max ? "\(range.lowerBound) or more" : "\(range.lowerBound) to \(range.upperBound)"
        guard let value = Int(text) else { throw error(column, "\(quoted(text)) is not a whole number; allowed \(allowed)") }
        guard range.contains(value) else { throw error(column, "\(value) is out of range; allowed \(allowed)") }
        return value
    }

    /// A decimal number in `range`, such as `57.7089` or `-11.97`; nil when empty.
    func number(_ column: Column?, in range: ClosedRange<Double>) throws(GTFSError) -> Double? {
        guard let column, let text = text(column) else { return nil }
        let allowed = range.upperBound == .infinity ? "\(Self.format(range.lowerBound)) or more" : "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        // Swift also reads "nan", "inf" and hexadecimal, which GTFS does not write.
        guard text.utf8.allSatisfy(Self.isDecimal), let value = Double(text), value.isFinite else {
            throw error(column, "\(quoted(text)) is not a number; allowed \(allowed)")
        }
        guard range.contains(value) else { throw error(column, "\(text) is out of range; allowed \(allowed)") }
        return value
    }

    /// A time of day; nil when empty.
    func time(_ column: Column) throws(GTFSError) -> GTFSTime? {
        guard let text = text(column) else { return nil }
        guard let time = GTFSTime(parsing: text[...]) else {
            throw error(column, "\(quoted(text)) is not a time; allowed H:MM:SS, hours past 24 for trips after midnight")
        }
        return time
    }

    /// A colour; nil when empty.
    func colour(_ column: Column?) throws(GTFSError) -> Colour? {
        guard let column, let text = text(column) else { return nil }
        guard let colour = Colour(hexDigits: text[...]) else {
            throw error(column, "\(quoted(text)) is not a colour; allowed six hexadecimal digits such as 00A1DE")
        }
        return colour
    }

    /// A position from two columns, both given or both empty; nil when both are empty.
    func coordinate(latitude: Column, longitude: Column) throws(GTFSError) -> Coordinate? {
        let latitudeValue = try number(latitude, in: -90...90)
        let longitudeValue = try number(longitude, in: -180...180)
        switch (latitudeValue, longitudeValue) {
        case let (latitudeValue?, longitudeValue?):
            return Coordinate(latitude: latitudeValue, longitude: longitudeValue)
        case (nil, nil):
            return nil
        case (nil, _?):
            throw error(latitude, "is empty while \(longitude.name) is given; allowed both or neither")
        case (_?, nil):
            throw error(longitude, "is empty while \(latitude.name) is given; allowed both or neither")
        }
    }

    /// A value as errors show it, in quotes and cut short when long.
    func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? text.prefix(40) + "…" : text[...]
        return "\"\(shown)\""
    }

    /// Whether `byte` may appear in a decimal number: a digit, a sign, a point or an exponent.
    private static func isDecimal(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
