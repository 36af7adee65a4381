/// `stops.txt`: stops and platforms, stations, entrances, and the generic nodes and boarding areas
/// that pathways use.
enum StopTable {
    /// What the stops table gives the feed.
    struct Stops {
        /// The stops, stations and entrances, which all have a position.
        var located: [String: GTFSStop] = [:]
        /// The `location_type` of every location that is not a stop or platform a vehicle calls
        /// at: stations (1), entrances (2), generic nodes (3) and boarding areas (4).
        var otherLocationTypes: [String: Int] = [:]
    }

    static let locationTypeNames = [1: "a station", 2: "an entrance or exit", 3: "a generic node", 4: "a boarding area"]

    static func read(_ table: inout TableReader) throws(GTFSError) -> Stops {
        let header = table.header
        let id = try header.required("stop_id")
        let name = try header.required("stop_name")
        let latitude = try header.required("stop_lat")
        let longitude = try header.required("stop_lon")
        let locationType = header.optional("location_type")
        let parent = header.optional("parent_station")
        var stops = Stops()
        var seen: Set<String> = []
        while let row = try table.next() {
            let stopID = try row.required(id)
            guard seen.insert(stopID).inserted else {
                throw row.error(id, "\(row.quoted(stopID)) is already used by an earlier row; allowed once")
            }
            let type = try row.integer(locationType, in: 0...4) ?? 0
            if type != 0 {
                stops.otherLocationTypes[stopID] = type
            }
            // Generic nodes and boarding areas need neither a name nor a position, and nothing
            // MapFrame draws refers to them.
            if type == 3 || type == 4 {
                _ = try row.coordinate(latitude: latitude, longitude: longitude)
                continue
            }
            let stopName = try row.required(name)
            guard let coordinate = try row.coordinate(latitude: latitude, longitude: longitude) else {
                throw row.error(latitude, "is empty; a position is required for \(locationTypeNames[type] ?? "a stop")")
            }
            stops.located[stopID] = GTFSStop(id: stopID, name: stopName, coordinate: coordinate, parentStation: row.text(parent))
        }
        return stops
    }
}
