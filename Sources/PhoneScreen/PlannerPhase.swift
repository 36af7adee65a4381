import MapRender
import Wording

/// The four steps of the journey planner's three-taps flow (app spec 6.2), which decide its
/// commentary and which toolbar buttons are enabled. The planner (Screens' `JourneyPlanner`)
/// and a scene file's chrome both read them from here.
public enum PlannerPhase: String, Hashable, Sendable, Codable {
    case settingStart, settingFinish, readyToPlan, planned

    /// The phase a planner with these markers and route is in: a route means planned, both
    /// markers ready to plan, and one marker waiting for the other.
    public init(hasStart: Bool, hasFinish: Bool, hasRoute: Bool) {
        switch (hasStart || hasFinish, hasStart && hasFinish, hasRoute) {
        case (_, _, true): self = .planned
        case (_, true, false): self = .readyToPlan
        case (true, false, false): self = .settingFinish
        case (false, _, false): self = .settingStart
        }
    }

    /// The commentary panel's text.
    public var commentary: Phrase {
        switch self {
        case .settingStart: Phrase(.setStart)
        case .settingFinish: Phrase(.setFinish)
        case .readyToPlan: Phrase(.planRoute)
        case .planned: Phrase(.newRoute)
        }
    }

    /// Whether the commentary is a button: once both markers are set.
    public var commentaryIsButton: Bool { self == .readyToPlan || self == .planned }

    /// The toolbar buttons enabled in this phase, zooming aside. Geolocation is off while a
    /// route waits to be planned; the placefinder only while a marker is needed; step-back only
    /// while a marker is set and no route is planned.
    public var enabledButtons: [ToolbarButton] {
        var buttons: [ToolbarButton] = []
        if self != .readyToPlan { buttons.append(.geolocate) }
        if self == .settingStart || self == .settingFinish { buttons.append(.placefinder) }
        if self == .settingFinish || self == .readyToPlan { buttons.append(.stepBack) }
        return buttons
    }
}
