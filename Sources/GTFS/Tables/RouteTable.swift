/// `routes.txt`: the lines, such as "Tram 7", with their type and colours.
enum RouteTable {
    /// `route_type` values: the basic types of the GTFS reference and the extended types.
    static let allowedTypes = Set(0...7).union([11, 12]).union(100...1799)

    static func read(_ table: inout TableReader, agencies: [GTFSAgency]) throws(GTFSError) -> [String: GTFSRoute] {
        let header = table.header
        let id = try header.required("route_id")
        // A feed with several agencies says which runs each route.
        let agency = agencies.count > 1 ? try header.required("agency_id") : header.optional("agency_id")
        let shortName = header.optional("route_short_name")
        let longName = header.optional("route_long_name")
        let type = try header.required("route_type")
        let colour = header.optional("route_color")
        let textColour = header.optional("route_text_color")
        guard let someName = shortName ?? longName else {
            throw GTFSError(
                file: header.file, line: 1, column: "route_short_name",
                message: "the header has neither route_short_name nor route_long_name; one of them is required"
            )
        }
        let agencyIDs = Set(agencies.map(\.id))
        var routes: [String: GTFSRoute] = [:]
        while let row = try table.next() {
            let routeID = try row.required(id)
            guard let routeType = try row.integer(type, in: 0...1799) else { throw row.error(type, "is empty; a value is required") }
            guard allowedTypes.contains(routeType) else {
                throw row.error(type, "\(routeType) is not a route type; allowed 0 to 7, 11, 12, or an extended type from 100 to 1799")
            }
            let route = GTFSRoute(
                id: routeID, shortName: row.text(shortName), longName: row.text(longName), type: routeType,
                colour: try row.colour(colour), textColour: try row.colour(textColour), agencyID: row.text(agency)
            )
            guard route.shortName != nil || route.longName != nil else {
                throw row.error(someName, "is empty and so is the other route name; allowed route_short_name, route_long_name or both")
            }
            if let agency {
                let agencyID = row.text(agency)
                if agencies.count > 1, agencyID == nil {
                    throw row.error(agency, "is empty; a value is required when the feed has more than one agency")
                }
                if let agencyID, !agencyIDs.contains(agencyID) {
                    throw row.error(agency, "\(row.quoted(agencyID)) is not in agency.txt; allowed the agency_id of a row of agency.txt")
                }
            }
            guard routes.updateValue(route, forKey: routeID) == nil else {
                throw row.error(id, "\(row.quoted(routeID)) is already used by an earlier row; allowed once")
            }
        }
        return routes
    }
}
