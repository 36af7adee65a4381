/// `trips.txt`: each journey a vehicle makes along a route.
enum TripTable {
    /// `services` are those the calendar names; nil when the feed has no calendar, and a trip's
    /// `service_id` cannot be checked.
    static func read(
        _ table: inout TableReader, routes: [String: GTFSRoute], hasShapes: Bool, services: Set<String>?
    ) throws(GTFSError) -> [String: GTFSTrip] {
        let header = table.header
        let route = try header.required("route_id")
        let service = try header.required("service_id")
        let id = try header.required("trip_id")
        let headsign = header.optional("trip_headsign")
        let shape = header.optional("shape_id")
        var trips: [String: GTFSTrip] = [:]
        while let row = try table.next() {
            let trip = GTFSTrip(
                id: try row.required(id), routeID: try row.required(route), serviceID: try row.required(service), headsign: row.text(headsign),
                shapeID: row.text(shape)
            )
            if let services, !services.contains(trip.serviceID) {
                throw row.error(
                    service, "\(row.quoted(trip.serviceID)) is in neither calendar.txt nor calendar_dates.txt; allowed the service_id of a row of either"
                )
            }
            guard routes[trip.routeID] != nil else {
                throw row.error(route, "\(row.quoted(trip.routeID)) is not in routes.txt; allowed the route_id of a row of routes.txt")
            }
            if let shape, let shapeID = trip.shapeID, !hasShapes {
                throw row.error(shape, "\(row.quoted(shapeID)) names a shape, and the feed has no shapes.txt; allowed empty without shapes.txt")
            }
            guard trips.updateValue(trip, forKey: trip.id) == nil else {
                throw row.error(id, "\(row.quoted(trip.id)) is already used by an earlier row; allowed once")
            }
        }
        return trips
    }
}
