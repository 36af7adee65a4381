import MapGeometry

/// A route as a line through points in travel order: what a journey, a GPX file and a GeoJSON
/// LineString all become, so that anything drawing a route can take any of the three.
public struct RouteLine: Hashable, Sendable, Codable {
    /// The fewest points a route line may have.
    public static let minimumPoints = 2
    /// The most: far more than any real route needs, few enough that every route tile can draw it.
    public static let maximumPoints = 100_000

    /// The points in travel order; always at least `minimumPoints`.
    public let coordinates: [Coordinate]

    /// A line through `coordinates`; nil when there are fewer than `minimumPoints`.
    public init?(_ coordinates: [Coordinate]) {
        guard coordinates.count >= Self.minimumPoints else { return nil }
        self.coordinates = coordinates
    }

    /// Checks the point count against `minimumPoints` and `maximumPoints`, naming `field` in
    /// the error.
    static func checked(_ coordinates: [Coordinate], field: String) throws(PayloadError) -> RouteLine {
        guard coordinates.count <= maximumPoints else {
            throw .tooManyPoints(field: field, count: coordinates.count, maximum: maximumPoints)
        }
        guard let line = RouteLine(coordinates) else {
            throw .tooFewPoints(field: field, count: coordinates.count, minimum: minimumPoints)
        }
        return line
    }

    public var first: Coordinate { coordinates[0] }
    public var last: Coordinate { coordinates[coordinates.count - 1] }

    /// The smallest box holding the whole line.
    public var bounds: GeoBounds { GeoBounds(containing: coordinates) ?? GeoBounds(point: first) }
}
