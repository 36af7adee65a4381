import Foundation

/// `agency.txt`: who runs the feed's routes.
enum AgencyTable {
    static func read(_ table: inout TableReader) throws(GTFSError) -> [GTFSAgency] {
        let id = table.header.optional("agency_id")
        let name = try table.header.required("agency_name")
        let url = try table.header.required("agency_url")
        let timezone = try table.header.required("agency_timezone")
        var agencies: [GTFSAgency] = []
        while let row = try table.next() {
            let zone = try row.required(timezone)
            guard TimeZone(identifier: zone) != nil else {
                throw row.error(timezone, "\(row.quoted(zone)) is not a time zone; allowed an IANA time zone name such as Europe/Stockholm")
            }
            let agency = GTFSAgency(id: row.text(id) ?? "", name: try row.required(name), timezone: zone)
            _ = try row.required(url)
            if let first = agencies.first, first.id.isEmpty || agency.id.isEmpty {
                throw GTFSError(
                    file: row.file, line: row.line, column: id?.name ?? "agency_id",
                    message: "a feed with more than one agency must give each an agency_id; allowed a non-empty agency_id on every row"
                )
            }
            if let id, agencies.contains(where: { $0.id == agency.id }) {
                throw row.error(id, "\(row.quoted(agency.id)) is already used by an earlier row; allowed once")
            }
            agencies.append(agency)
        }
        guard !agencies.isEmpty else {
            throw GTFSError(file: table.header.file, message: "has no agencies; at least one is required")
        }
        return agencies
    }
}
