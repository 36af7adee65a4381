/// `shapes.txt`: the paths vehicles take, which may run to millions of points in a large feed.
/// One pass checks every row and keeps only the shapes asked for.
enum ShapeTable {
    static func read(_ table: inout TableReader, keeping ids: Set<String>) throws(GTFSError) -> [String: [GTFSShapePoint]] {
        let header = table.header
        let id = try header.required("shape_id")
        let latitude = try header.required("shape_pt_lat")
        let longitude = try header.required("shape_pt_lon")
        let sequence = try header.required("shape_pt_sequence")
        let distance = header.optional("shape_dist_traveled")
        var kept: [String: [(point: GTFSShapePoint, line: Int)]] = [:]
        while let row = try table.next() {
            let shapeID = try row.required(id)
            guard let coordinate = try row.coordinate(latitude: latitude, longitude: longitude) else {
                throw row.error(latitude, "is empty; a position is required")
            }
            guard let sequenceNumber = try row.integer(sequence, in: 0...Int.max) else { throw row.error(sequence, "is empty; a value is required") }
            let distanceTravelled = try row.number(distance, in: 0...Double.infinity)
            guard ids.contains(shapeID) else { continue }
            let point = GTFSShapePoint(shapeID: shapeID, sequence: sequenceNumber, coordinate: coordinate, distanceTravelled: distanceTravelled)
            kept[shapeID, default: []].append((point, row.line))
        }
        var shapes: [String: [GTFSShapePoint]] = [:]
        for shapeID in ids {
            guard let points = kept[shapeID]?.sorted(by: { $0.point.sequence < $1.point.sequence }) else {
                throw GTFSError(file: header.file, column: id.name, message: "has no rows for the shape \(shapeID), which trips.txt names; allowed the shape_id of a row of shapes.txt")
            }
            for (previous, point) in zip(points, points.dropFirst()) where previous.point.sequence == point.point.sequence {
                throw GTFSError(
                    file: header.file, line: point.line, column: sequence.name,
                    message: "\(point.point.sequence) is used on line \(previous.line) for the same shape; allowed once per shape"
                )
            }
            shapes[shapeID] = points.map(\.point)
        }
        return shapes
    }
}
