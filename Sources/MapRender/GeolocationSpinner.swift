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
