/// A route: one or more lines, each through its points in travel order. A journey, a GPX
/// track, a GeoJSON line, a scene's route and a stored route are all one of these, so anything
/// that draws, fits or stores a route takes every format alike.
///
/// Most routes have one part. A route has several when its source has gaps, such as a GPX
/// track with several segments or a GeoJSON MultiLineString: each part is drawn as its own line
/// (nothing joins the end of one to the start of the next), and fitting, bounds and tiles treat
/// the parts together as one route.
///
/// ```swift
/// let route = RouteLine(parts: [[a, b, c], [d, e]])!
/// route.first        // a, where the start marker goes
/// route.last         // e, where the finish marker goes
/// route.pointCount   // 5
/// ```
public struct RouteLine: Hashable, Sendable, Codable {
    /// The fewest points a part may have: a line needs two.
    public static let minimumPointsPerPart = 2
    /// The most points over all parts together: far more than any real route needs, few enough
    /// that every route tile can draw it.
    public static let maximumPoints = 100_000

    /// The parts in travel order, each with at least `minimumPointsPerPart` points, and at most
    /// `maximumPoints` over all of them.
    public let parts: [[Coordinate]]

    /// A route of `parts`; nil when there are none, when a part has fewer than
    /// `minimumPointsPerPart` points, or when there are more than `maximumPoints` in all.
    public init?(parts: [[Coordinate]]) {
        guard !parts.isEmpty, parts.allSatisfy({ $0.count >= Self.minimumPointsPerPart }),
              parts.reduce(0, { $0 + $1.count }) <= Self.maximumPoints else { return nil }
        self.parts = parts
    }

    /// A route of one part through `coordinates`; nil as for `init(parts:)`.
    public init?(_ coordinates: [Coordinate]) {
        self.init(parts: [coordinates])
    }

    /// Where the route starts: the first point of its first part.
    public var first: Coordinate { parts[0][0] }
    /// Where the route ends: the last point of its last part.
    public var last: Coordinate { parts[parts.count - 1][parts[parts.count - 1].count - 1] }

    /// The points of every part, in travel order.
    public var points: FlattenSequence<[[Coordinate]]> { parts.joined() }

    /// How many points the parts hold together.
    public var pointCount: Int { parts.reduce(0) { $0 + $1.count } }

    /// The smallest box holding every part.
    public var bounds: GeoBounds { GeoBounds(containing: points) ?? GeoBounds(point: first) }

    /// Decodes `parts`, refusing any the initialiser would.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let parts = try container.decode([[Coordinate]].self, forKey: .parts)
        guard let route = RouteLine(parts: parts) else {
            throw DecodingError.dataCorruptedError(
                forKey: .parts, in: container,
                debugDescription: "a route needs at least one part, \(Self.minimumPointsPerPart) points a part and at most \(Self.maximumPoints) points in all"
            )
        }
        self = route
    }
}
