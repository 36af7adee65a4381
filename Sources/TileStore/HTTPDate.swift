import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// HTTP dates (RFC 9110, 5.6.7): written as IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), and
/// read in that form or the obsolete RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime
/// ("Sun Nov  6 08:49:37 1994") forms, as a recipient must.
///
/// Written by hand over the C library's `timegm` and `gmtime_r`: a `DateFormatter` built for each
/// date cost a tenth of the event loops' time in a cold fill (ICU sets up a formatter each time),
/// and the fixed English names and layout need no locale.
public enum HTTPDate {
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date in any of the three forms, or nil when it is none of them.
    public static func parse(_ text: String) -> Date? {
        let fields = text.split(whereSeparator: { " ,-:\t".contains($0) })
        guard fields.count >= 7 else { return nil }
        // asctime names the month second; the other two forms name the day of the month second.
        let isAsctime = month(fields[1]) != nil
        let numbers = isAsctime
            ? [fields[2], fields[6], fields[3], fields[4], fields[5]]
            : [fields[1], fields[3], fields[4], fields[5], fields[6]]
        guard let monthIndex = month(isAsctime ? fields[1] : fields[2]) else { return nil }
        guard isAsctime ? fields.count == 7 : (fields.count == 8 && ["GMT", "UTC"].contains(fields[7].uppercased())) else { return nil }
        let values = numbers.compactMap { $0.allSatisfy(\.isASCII) ? Int($0) : nil }
        guard values.count == 5 else { return nil }
        var (day, year, hour, minute, second) = (values[0], values[1], values[2], values[3], values[4])
        // RFC 850's two-digit years: from 1970 on.
        if numbers[1].count == 2 { year += year < 70 ? 2000 : 1900 }
        guard (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(monthIndex)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(min(second, 59))
        let seconds = timegm(&parts)
        // A day past the month's end (31 Feb) comes back as another month: not a date.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(monthIndex) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The date as IMF-fixdate, to the second.
    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(dayNames[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(monthNames[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }

    private static let lowercaseMonthNames = monthNames.map { $0.lowercased() }

    private static func month(_ name: Substring) -> Int? {
        let name = name.lowercased()
        return lowercaseMonthNames.firstIndex(of: name)
    }
}
