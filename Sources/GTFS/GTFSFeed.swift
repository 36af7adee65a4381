import Foundation

/// A GTFS feed, a folder or a `.zip`, as the GTFS reference describes it. Opening it reads
/// `agency.txt`, `routes.txt`, `trips.txt` and `stops.txt` whole and checks them; `stop_times.txt`
/// and `shapes.txt`, which may hold millions of rows, are read a pass at a time for the trips and
/// shapes a journey needs.
///
/// A zipped feed's files are extracted into a private temporary folder, removed when the feed is
/// released.
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

    let files: FeedFiles
    private let locations: StopTable.Stops

    private init(files: FeedFiles, agencies: [GTFSAgency], routes: [String: GTFSRoute], trips: [String: GTFSTrip], locations: StopTable.Stops) {
        self.files = files
        self.agencies = agencies
        self.routes = routes
        self.trips = trips
        self.locations = locations
        stops = locations.located
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
        var tripTable = try files.open(.trips)
        let trips = try TripTable.read(&tripTable, routes: routes, hasShapes: files.contains(.shapes))
        var stopTable = try files.open(.stops)
        let locations = try StopTable.read(&stopTable)
        _ = try StopTimeTable.Columns(files.open(.stopTimes).header)
        return GTFSFeed(files: files, agencies: agencies, routes: routes, trips: trips, locations: locations)
    }

    /// The calls of the trips `ids`, each trip's in `stop_sequence` order, from one pass over
    /// `stop_times.txt`. Every row is checked (its format, and that its trip and stop exist), so a
    /// bad row anywhere is an error naming its line. Each trip asked for must have at least two
    /// calls, timed at the first and last, and times that never go back.
    public func stopTimes(ofTrips ids: Set<String>) throws(GTFSError) -> [String: [GTFSStopTime]] {
        var table = try files.open(.stopTimes)
        return try StopTimeTable.read(&table, keeping: ids, trips: trips, stops: locations)
    }

    /// The points of the shapes `ids`, each shape's in `shape_pt_sequence` order, from one pass
    /// over `shapes.txt`; empty when the feed has no `shapes.txt`.
    public func shapes(_ ids: Set<String>) throws(GTFSError) -> [String: [GTFSShapePoint]] {
        guard files.contains(.shapes) else { return [:] }
        var table = try files.open(.shapes)
        return try ShapeTable.read(&table, keeping: ids)
    }
}
