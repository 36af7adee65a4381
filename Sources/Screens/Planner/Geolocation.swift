import Foundation
import MapGeometry
import MapRender
import PhoneScreen

/// A running geolocation: from the button press until it switches itself off after a fix, or
/// the user moves the map.
public struct Geolocation: Hashable, Sendable, Codable {
    /// The latest pulse; nil until the first arrives. The location ring is drawn around it.
    public private(set) var fix: LocationFix?
    /// The marker this geolocation set, which follows later pulses.
    public internal(set) var followedMarker: MarkerRole?
    /// When listening stops, set by each pulse from its quality; nil before the first pulse.
    public private(set) var switchOffTime: TimeInterval?
    /// When the button was pressed, which sets the spinning arrow's state at any later time.
    public let startTime: TimeInterval

    public init(startTime: TimeInterval) {
        self.startTime = startTime
    }

    /// The button's spinning arrow at `time`.
    public func spinner(at time: TimeInterval) -> GeolocationSpinner {
        GeolocationSpinner(secondsRunning: time - startTime)
    }

    /// Whether the latest fix is good enough to count as a success.
    public var succeeded: Bool { fix?.quality.isSuccess ?? false }

    /// Whether listening has stopped by `time`.
    public func hasSwitchedOff(by time: TimeInterval) -> Bool {
        guard let switchOffTime else { return false }
        return time >= switchOffTime
    }

    /// Records a pulse and restarts the switch-off timer from its quality.
    mutating func receive(_ fix: LocationFix, at time: TimeInterval) {
        self.fix = fix
        switchOffTime = time + fix.quality.switchOffDelay
    }
}

/// Which of the two journey markers.
public enum MarkerRole: String, Hashable, Sendable, Codable {
    case start, finish
}
