import MapRender

/// Which of its states the geolocation button's spinning arrow shows (app spec 6.8): the app
/// turned it through 8 states, 45 degrees apart, while a geolocation ran.
public struct GeolocationSpinner: Hashable, Sendable, Codable {
    /// How many states one turn has.
    public static let stateCount = 8
    /// How long each state shows: one turn a second.
    public static let secondsPerState = 0.125

    /// The state shown, 0 to `stateCount - 1`; 0 points the arrow's head straight up.
    public var state: Int

    public init(state: Int) {
        self.state = ((state % Self.stateCount) + Self.stateCount) % Self.stateCount
    }

    /// The state shown `seconds` after the geolocation started.
    public init(secondsRunning seconds: Double) {
        self.init(state: Int((seconds / Self.secondsPerState + 1e-6).rounded(.down)))
    }

    /// How far the arrow has turned clockwise, in degrees: 45 a state.
    public var degrees: Double { Double(state) * 360 / Double(Self.stateCount) }
}

/// The geolocation button's spinning arrow (app spec 6.8): a circular arrow drawn in place of
/// the location arrow while a geolocation runs. Sizes are logical pixels.
public struct GeolocationSpinnerStyle: Hashable, Sendable {
    /// The arrow's circle.
    public var radius = 7.0
    public var lineWidth = 2.2
    /// How much of the circle the arrow's shaft covers, in degrees.
    public var sweepDegrees = 290.0
    /// The arrowhead's length along the circle and its half-width across it.
    public var headLength = 5.0
    public var headHalfWidth = 4.0

    public static let cycleStreets = GeolocationSpinnerStyle()
}

extension GeolocationSpinnerStyle: ThemedStyle {
    /// The same in every theme; it is drawn in the chrome's glyph colour.
    public static func value(in theme: Theme.Name) -> GeolocationSpinnerStyle { .cycleStreets }
}
