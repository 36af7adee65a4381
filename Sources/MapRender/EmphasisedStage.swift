import MapGeometry

/// The itinerary's emphasised stage (app spec 6.6): its points, drawn over the route, and its
/// place in the journey, shown as an "11/12" counter.
public struct EmphasisedStage: Hashable, Sendable, Codable {
    /// The stage's number, counting from 1.
    public var number: Int
    /// How many stages the journey has.
    public var count: Int
    public var points: [Coordinate]

    public init(number: Int, count: Int, points: [Coordinate]) {
        self.number = number
        self.count = count
        self.points = points
    }

    /// The counter shown above the map, such as "11/12".
    public var counter: String { "\(number)/\(count)" }
}
