import Foundation
import Synchronization

/// A GTFS feed, a folder or a `.zip`, as the GTFS reference describes it. Opening it reads
/// `agency.txt`, `routes.txt`, `trips.txt`, `stops.txt`, and where the feed has them
/// `calendar.txt`, `calendar_dates.txt` and `frequencies.txt`, whole and checks them;
/// `stop_times.txt` and `shapes.txt`, which may hold millions of rows, are read a pass at a time
/// for the trips and shapes a journey needs, or the calls a departure board needs.
///
/// A zipped feed's files are extracted into a private temporary folder, removed when the feed is
/// released, once the sizes the zip declares for them are within limits. The files are taken not
/// to change while the feed is open: trips already read are kept, and so are shapes (`RowMemory`),
/// so a server drawing the same journeys again does not read them again.
public final class GTFSFeed: Sendable {
    /// The agencies, in the order of `agency.txt`.
    public let agencies: [GTFSAgency]
    /// The routes by `route_id`.
    public let routes: [String: GTFSRoute]
    /// The trips by `trip_id`.
    public let trips: [String: GTFSTrip]
    /// The stops, stations and entrances by `stop_id`. Generic nodes and boarding areas
    /// (`location_type` 3 and 4), which need no position, are left out.
    public let stops: [String: GTFSStop]
    /// Which services run on which dates; empty when the feed has neither calendar file.
    public let calendar: ServiceCalendar
    /// The frequency-based trips' periods, by `trip_id`, each trip's in order.
    public let frequencies: [String: [GTFSFrequency]]
    /// The platforms of each station, by the station's `stop_id`.
    public let platforms: [String: [String]]

    let files: FeedFiles
    private let rememberedTrips = Mutex(RowMemory<GTFSStopTime>())
    private let rememberedShapes = Mutex(RowMemory<GTFSShapePoint>())
    private let locations: StopTable.Stops

    private init(
        files: FeedFiles, agencies: [GTFSAgency], routes: [String: GTFSRoute], trips: [String: GTFSTrip], locations: StopTable.Stops,
        calendar: ServiceCalendar, frequencies: [String: [GTFSFrequency]]
    ) {
        self.files = files
        self.agencies = agencies
        self.routes = routes
        self.trips = trips
        self.locations = locations
        self.calendar = calendar
        self.frequencies = frequencies
        stops = locations.located
        var platforms: [String: [String]] = [:]
        for stop in locations.located.values.sorted(by: { $0.id < $1.id }) {
            if let station = stop.parentStation { platforms[station, default: []].append(stop.id) }
        }
        self.platforms = platforms
    }

    /// The time zone the feed's times keep: its agencies', which GTFS requires to be one.
    public var timeZone: TimeZone {
        TimeZone(identifier: agencies[0].timezone) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// Opens the feed at `url`: a folder, or a `.zip` with the files at its root or inside one
    /// top folder. Reads and checks `agency.txt`, `routes.txt`, `trips.txt` and `stops.txt`; checks
    /// that `stop_times.txt` exists and has its required columns.
    public static func open(at url: URL) throws(GTFSError) -> GTFSFeed {
        try open(at: url, limits: .standard)
    }

    /// `open(at:)` with other limits, for tests.
    static func open(at url: URL, limits: FeedLimits) throws(GTFSError) -> GTFSFeed {
        let files = try FeedFiles(at: url, limits: limits)
        var agencyTable = try files.open(.agency)
        let agencies = try AgencyTable.read(&agencyTable)
        var routeTable = try files.open(.routes)
        let routes = try RouteTable.read(&routeTable, agencies: agencies)
        var calendar = ServiceCalendar()
        if files.contains(.calendar) {
            var table = try files.open(.calendar)
            try CalendarTables.readWeekly(&table, into: &calendar)
        }
        if files.contains(.calendarDates) {
            var table = try files.open(.calendarDates)
            try CalendarTables.readExceptions(&table, into: &calendar)
        }
        let hasCalendar = files.contains(.calendar) || files.contains(.calendarDates)
        var tripTable = try files.open(.trips)
        let trips = try TripTable.read(&tripTable, routes: routes, hasShapes: files.contains(.shapes), services: hasCalendar ? calendar.serviceIDs : nil)
        var frequencies: [String: [GTFSFrequency]] = [:]
        if files.contains(.frequencies) {
            var table = try files.open(.frequencies)
            frequencies = try FrequencyTable.read(&table, trips: trips)
        }
        var stopTable = try files.open(.stops)
        let locations = try StopTable.read(&stopTable)
        _ = try StopTimeTable.Columns(files.open(.stopTimes).header)
        return GTFSFeed(files: files, agencies: agencies, routes: routes, trips: trips, locations: locations, calendar: calendar, frequencies: frequencies)
    }

    /// The calls of the trips `ids`, each trip's in `stop_sequence` order, from one pass over
    /// `stop_times.txt`. Every row is checked (its format, and that its trip and stop exist), so a
    /// bad row anywhere is an error naming its line. Each trip asked for must have at least two
    /// calls, timed at the first and last, and times that never go back.
    public func stopTimes(ofTrips ids: Set<String>) throws(GTFSError) -> [String: [GTFSStopTime]] {
        if !ids.isEmpty, let known = rememberedTrips.withLock({ $0.rows(of: ids) }) { return known }
        var table = try files.open(.stopTimes)
        let read = try StopTimeTable.read(&table, keeping: ids, trips: trips, stops: locations)
        rememberedTrips.withLock { $0.remember(read) }
        return read
    }

    /// The calls of the trips `tripIDs` at the stops `stopIDs`, in the order of `stop_times.txt`,
    /// from one pass that checks every row as `stopTimes(ofTrips:)` does and keeps only these
    /// calls and each trip's ends.
    public func calls(at stopIDs: Set<String>, ofTrips tripIDs: Set<String>) throws(GTFSError) -> [GTFSStopCall] {
        var table = try files.open(.stopTimes)
        return try StopCallTable.read(&table, at: stopIDs, ofTrips: tripIDs, trips: trips, stops: locations)
    }

    /// The points of the shapes `ids`, each shape's in `shape_pt_sequence` order, from one pass
    /// over `shapes.txt`; empty when the feed has no `shapes.txt`.
    public func shapes(_ ids: Set<String>) throws(GTFSError) -> [String: [GTFSShapePoint]] {
        guard files.contains(.shapes) else { return [:] }
        if !ids.isEmpty, let known = rememberedShapes.withLock({ $0.rows(of: ids) }) { return known }
        var table = try files.open(.shapes)
        let read = try ShapeTable.read(&table, keeping: ids)
        rememberedShapes.withLock { $0.remember(read) }
        return read
    }
}

/// The rows of the trips (or shapes) a feed has read, by id, kept until they hold `maxRows` rows
/// in all, when they are forgotten together: enough for the journeys a server draws again and
/// again, bounded whatever the trips hold.
struct RowMemory<Row: Sendable>: Sendable {
    static var maxRows: Int { 200_000 }
    private var rows: [String: [Row]] = [:]
    private var count = 0

    /// Every id's rows, when all of them are kept; nil otherwise.
    func rows(of ids: Set<String>) -> [String: [Row]]? {
        var found: [String: [Row]] = [:]
        for id in ids {
            guard let kept = rows[id] else { return nil }
            found[id] = kept
        }
        return found
    }

    mutating func remember(_ read: [String: [Row]]) {
        for (id, kept) in read where rows[id] == nil {
            if count + kept.count > Self.maxRows {
                rows = [:]
                count = 0
            }
            guard kept.count <= Self.maxRows else { continue }
            rows[id] = kept
            count += kept.count
        }
    }
}
