import Foundation

/// The eight compass points, said as words: a screen reader says "south-west", never a number
/// of degrees.
public enum CompassPoint: String, CaseIterable, Sendable {
    case north, northEast = "north-east", east, southEast = "south-east"
    case south, southWest = "south-west", west, northWest = "north-west"

    /// The point nearest `bearing`, in degrees clockwise from north (any value; it wraps).
    public init(bearing: Double) {
        let step = 360.0 / Double(Self.allCases.count)
        let wrapped = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        self = Self.allCases[Int((wrapped / step).rounded()) % Self.allCases.count]
    }
}

/// Distances and times as a screen reader should say them, in British English: metres and
/// kilometres, minutes and hours.
public enum SpokenMeasure {
    /// "10 metres" to "990 metres" by tens, then "1.2 kilometres" by tenths, and whole
    /// kilometres from 10 km.
    public static func distance(metres: Double) -> String {
        let tens = Int((metres / 10).rounded()) * 10
        if tens < 1000 { return tens == 0 ? "less than 5 metres" : "\(tens) metres" }
        let kilometres = metres / 1000
        if kilometres >= 9.95 { return "\(Int(kilometres.rounded())) kilometres" }
        let tenths = (kilometres * 10).rounded() / 10
        return tenths == 1 ? "1 kilometre" : String(format: "%.1f kilometres", tenths)
    }

    /// "1 minute", "25 minutes", "1 hour 5 minutes"; whole minutes, at least one.
    public static func duration(seconds: Int) -> String {
        let minutes = max(1, Int((Double(seconds) / 60).rounded()))
        func plural(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }
        guard minutes >= 60 else { return plural(minutes, "minute") }
        let rest = minutes % 60
        return plural(minutes / 60, "hour") + (rest == 0 ? "" : " " + plural(rest, "minute"))
    }

    /// "a, b and c".
    public static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}

/// A view that is a table, such as a departure board, as a screen reader should hear it: its
/// size, then each row with each cell after its column's title.
public enum SpokenTable {
    /// "A table of 6 rows and 4 columns: Line, Destination, Departs, Minutes to go".
    public static func shape(rows: Int, columns: [String]) -> String {
        "A table of \(rows) \(rows == 1 ? "row" : "rows") and \(columns.count) columns: \(columns.joined(separator: ", "))"
    }

    /// "Row 1: Line, Tram 7; Destination, Castle Hill; …".
    public static func row(_ number: Int, cells: [String], columns: [String]) -> String {
        "Row \(number): " + zip(columns, cells).map { "\($0), \($1)" }.joined(separator: "; ")
    }

    /// "Departures from Parker's Piece at 08:41: a table of 6 rows, with 1 disturbance".
    public static func short(_ title: String, rows: Int, notices: Int) -> String {
        "\(title): a table of \(rows) \(rows == 1 ? "row" : "rows")" + (notices > 0 ? ", with \(disturbances(notices))" : "")
    }

    /// "1 disturbance", "2 disturbances".
    public static func disturbances(_ count: Int) -> String { count == 1 ? "1 disturbance" : "\(count) disturbances" }
}
