import Foundation

/// A service day's date, as GTFS writes it in `calendar.txt` (`20240315`) and as requests write
/// it (`2024-03-15`). Only dates of the Gregorian calendar from year 1900 to 2999 are taken, which
/// covers every timetable.
public struct GTFSDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The date, or nil when it is not one (a 30 February, a month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1900...2999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads GTFS's `YYYYMMDD`; nil for anything else.
    public init?(gtfs text: Substring) {
        let digits = text.utf8
        guard digits.count == 8, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let value = Int(text) else { return nil }
        self.init(year: value / 10_000, month: value / 100 % 100, day: value % 100)
    }

    /// Reads ISO 8601's `YYYY-MM-DD`, as scenes and queries write a date; nil for anything else.
    public init?(iso text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2 else { return nil }
        self.init(gtfs: parts[0] + parts[1] + parts[2])
    }

    public static func < (a: GTFSDate, b: GTFSDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// Days since 1 January 1970 (negative before it), for counting and weekdays.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> GTFSDate {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Within 1900-2999 for every date a timetable reaches; clamped rather than trapping.
        return GTFSDate(year: year, month: month, day: day) ?? self
    }

    /// The day of the week, Monday first: 0 is Monday, 6 Sunday.
    public var weekday: Int {
        // 1 January 1970 was a Thursday.
        ((dayNumber % 7) + 7 + 3) % 7
    }

    /// `2024-03-15`.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// The moment a service day's times count from, in seconds since 1970 (UTC): noon less 12
    /// hours in `timeZone`, as GTFS defines it, which is midnight except on the days clocks change.
    public func serviceDayStart(in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: Double(dayNumber * 86_400 + 43_200))
        return Int(noon.timeIntervalSince1970) - 43_200
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
