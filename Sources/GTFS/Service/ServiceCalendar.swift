import Foundation

/// Which services run on which dates: `calendar.txt` (weekdays within a range of dates) and
/// `calendar_dates.txt` (a service added or removed on one date), either alone or both, as the
/// GTFS reference allows. A feed served by `calendar_dates.txt` alone lists every date a service
/// runs.
public struct ServiceCalendar: Sendable {
    /// A row of `calendar.txt`: the weekdays a service runs, from `start` to `end` inclusive.
    struct Weekly: Sendable {
        /// Bit 0 is Monday, bit 6 Sunday.
        var weekdays: UInt8
        var start: GTFSDate
        var end: GTFSDate
    }

    private var weekly: [String: Weekly] = [:]
    /// `calendar_dates.txt`, by service: the days (`GTFSDate.dayNumber`) it is added on, and those
    /// it is removed on.
    private var added: [String: Set<Int>] = [:]
    private var removed: [String: Set<Int>] = [:]

    /// Whether the feed has neither file, and so says nothing about which days trips run.
    public var isEmpty: Bool { weekly.isEmpty && added.isEmpty && removed.isEmpty }

    /// Every `service_id` either file names.
    public var serviceIDs: Set<String> {
        Set(weekly.keys).union(added.keys).union(removed.keys)
    }

    /// Whether `service` runs on `date`: a date `calendar_dates.txt` adds or removes for it is as
    /// that says; any other follows `calendar.txt`.
    public func runs(_ service: String, on date: GTFSDate) -> Bool {
        let day = date.dayNumber
        if added[service]?.contains(day) == true { return true }
        if removed[service]?.contains(day) == true { return false }
        guard let week = weekly[service] else { return false }
        return week.start <= date && date <= week.end && week.weekdays & (1 << UInt8(date.weekday)) != 0
    }

    mutating func addWeekly(_ service: String, _ week: Weekly) -> Bool {
        weekly.updateValue(week, forKey: service) == nil
    }

    /// Records an exception; false when the service already has one on that date.
    mutating func addException(_ service: String, on date: GTFSDate, adds: Bool) -> Bool {
        let day = date.dayNumber
        guard added[service]?.contains(day) != true, removed[service]?.contains(day) != true else { return false }
        if adds { added[service, default: []].insert(day) } else { removed[service, default: []].insert(day) }
        return true
    }
}

/// `calendar.txt` and `calendar_dates.txt`, read whole when the feed opens.
enum CalendarTables {
    static let weekdayColumns = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    static func readWeekly(_ table: inout TableReader, into calendar: inout ServiceCalendar) throws(GTFSError) {
        let header = table.header
        let service = try header.required("service_id")
        var days: [Column] = []
        for name in weekdayColumns { days.append(try header.required(name)) }
        let start = try header.required("start_date")
        let end = try header.required("end_date")
        while let row = try table.next() {
            let serviceID = try row.required(service)
            var mask: UInt8 = 0
            for (bit, column) in days.enumerated() {
                guard let value = try row.integer(column, in: 0...1) else { throw row.error(column, "is empty; allowed 0 or 1") }
                if value == 1 { mask |= 1 << UInt8(bit) }
            }
            let first = try row.date(start), last = try row.date(end)
            guard first <= last else {
                throw row.error(end, "\(last.gtfs) is before the start_date \(first.gtfs); allowed \(first.gtfs) or later")
            }
            guard calendar.addWeekly(serviceID, .init(weekdays: mask, start: first, end: last)) else {
                throw row.error(service, "\(row.quoted(serviceID)) is already used by an earlier row; allowed once")
            }
        }
    }

    static func readExceptions(_ table: inout TableReader, into calendar: inout ServiceCalendar) throws(GTFSError) {
        let header = table.header
        let service = try header.required("service_id")
        let date = try header.required("date")
        let type = try header.required("exception_type")
        while let row = try table.next() {
            let serviceID = try row.required(service)
            let day = try row.date(date)
            guard let exception = try row.integer(type, in: 1...2) else { throw row.error(type, "is empty; allowed 1 (added) or 2 (removed)") }
            guard calendar.addException(serviceID, on: day, adds: exception == 1) else {
                throw row.error(date, "\(day.gtfs) is given for the service \(row.quoted(serviceID)) by an earlier row; allowed once a service")
            }
        }
    }
}

extension GTFSDate {
    /// As GTFS writes it: `20240315`.
    var gtfs: String { String(format: "%04d%02d%02d", year, month, day) }
}

extension TableRow {
    /// A date written `YYYYMMDD`, which must be given.
    func date(_ column: Column) throws(GTFSError) -> GTFSDate {
        guard let text = text(column) else { throw error(column, "is empty; a date is required") }
        guard let date = GTFSDate(gtfs: text[...]) else { throw error(column, "\(quoted(text)) is not a date; allowed YYYYMMDD, such as 20240315") }
        return date
    }
}
