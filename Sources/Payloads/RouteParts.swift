import MapGeometry

extension RouteLine {
    /// One part's points, refused when there are fewer than `minimumPointsPerPart`, naming
    /// `field` (the part's path in the payload).
    static func checkedPart(_ points: [Coordinate], field: String) throws(PayloadError) -> [Coordinate] {
        guard points.count >= minimumPointsPerPart else {
            throw .tooFewPoints(field: field, count: points.count, minimum: minimumPointsPerPart)
        }
        return points
    }

    /// A route of `parts`, each already through `checkedPart`, in travel order. Refuses no parts
    /// at all, and more than `maximumPoints` over all of them together, naming `field`.
    static func checked(parts: [[Coordinate]], field: String) throws(PayloadError) -> RouteLine {
        let total = parts.reduce(0) { $0 + $1.count }
        guard total <= maximumPoints else { throw .tooManyPoints(field: field, count: total, maximum: maximumPoints) }
        guard let route = RouteLine(parts: parts) else {
            throw .tooFewPoints(field: field, count: total, minimum: minimumPointsPerPart)
        }
        return route
    }

    /// A route of one part, checked as `checkedPart` and `checked(parts:field:)` check.
    static func checked(_ points: [Coordinate], field: String) throws(PayloadError) -> RouteLine {
        try checked(parts: [checkedPart(points, field: field)], field: field)
    }

    /// Pieces that follow on from one another, such as a route's legs or a leg's steps, as one
    /// part: each piece's first point is left out where it repeats the last point of the piece
    /// before, as it does where one leg ends and the next begins.
    static func joined(_ pieces: [[Coordinate]]) -> [Coordinate] {
        var points: [Coordinate] = []
        points.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces {
            if let last = points.last, piece.first == last {
                points += piece.dropFirst()
            } else {
                points += piece
            }
        }
        return points
    }
}
