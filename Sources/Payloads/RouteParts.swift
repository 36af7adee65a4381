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
}
