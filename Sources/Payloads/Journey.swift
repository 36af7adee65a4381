import MapGeometry

/// A planned cycle route as the CycleStreets API returns it, in `journey.xml` or `journey.json`.
public struct Journey: Hashable, Sendable, Codable {
    /// The name of the start point, such as a street.
    public var startName: String
    /// The name of the finish point.
    public var finishName: String
    /// The whole route from start to finish, in one part.
    public var routeLine: RouteLine
    /// The route's length in metres.
    public var lengthMetres: Int
    /// The expected riding time in seconds.
    public var timeSeconds: Int
    /// The routing plan, such as `balanced`, `fastest`, `quietest` or `shortest`.
    public var plan: String
    /// The cycling speed the time assumes, in km/h.
    public var speedKmh: Int
    /// The stages, in travel order; never empty.
    public var segments: [JourneySegment]
    /// The points the journey was planned through, in order: the start, any points on the way
    /// and the finish. Empty when the answer lists none.
    public var waypoints: [Coordinate]
    /// The route's number at CycleStreets (its `itinerary`), when the answer gives it.
    public var routeNumber: Int?

    public init(
        startName: String, finishName: String, routeLine: RouteLine, lengthMetres: Int, timeSeconds: Int,
        plan: String, speedKmh: Int, segments: [JourneySegment], waypoints: [Coordinate] = [], routeNumber: Int? = nil
    ) {
        self.startName = startName
        self.finishName = finishName
        self.routeLine = routeLine
        self.lengthMetres = lengthMetres
        self.timeSeconds = timeSeconds
        self.plan = plan
        self.speedKmh = speedKmh
        self.segments = segments
        self.waypoints = waypoints
        self.routeNumber = routeNumber
    }

    /// Where the start marker goes: the first point of the route, as the app placed it.
    public var startCoordinate: Coordinate { routeLine.first }
    /// Where the finish marker goes: the last point of the route.
    public var finishCoordinate: Coordinate { routeLine.last }
}

/// One stage of a journey: a stretch along one street or path.
public struct JourneySegment: Hashable, Sendable, Codable {
    /// The street or path name.
    public var name: String
    /// The stage's length in metres.
    public var distanceMetres: Int
    /// The stage's riding time in seconds.
    public var timeSeconds: Int
    /// The turn onto this stage, such as `turn left`; empty for the first stage.
    public var turn: String
    /// The compass bearing at the stage's start, in degrees.
    public var startBearing: Int
    /// The kind of way, such as `Minor road` or `Cycle track`.
    public var provisionName: String
    /// The stage's points in travel order; never empty.
    public var points: [Coordinate]

    public init(
        name: String, distanceMetres: Int, timeSeconds: Int, turn: String, startBearing: Int,
        provisionName: String, points: [Coordinate]
    ) {
        self.name = name
        self.distanceMetres = distanceMetres
        self.timeSeconds = timeSeconds
        self.turn = turn
        self.startBearing = startBearing
        self.provisionName = provisionName
        self.points = points
    }
}
