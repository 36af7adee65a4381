import Foundation
import MapRender
import PhoneScreen

/// The app's modal dialogs (app spec 6.4-6.11), and every word they say: all dialog wording
/// lives here, in British English and Sentence case.
///
/// The spec gives the situations, not the words (its screenshots are not in its text), so the
/// wording is MapFrame's own: short and plain.
public enum DialogKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// "Plan route" was pressed and the route is being requested (6.4, 6.5).
    case routeRequested
    /// The CycleStreets API answered with an error, or could not be reached (6.5).
    case routeError
    /// "New route" asks before clearing the route (6.7).
    case newRoute
    /// Geolocation or the placefinder put the finish too near the start (6.8, 6.10).
    case finishTooNear
    /// The first-run walk-through (6.11): the welcome, then start set, finish set, two after
    /// the first route and one after the second.
    case welcome, startSet, finishSet, firstRoute, itinerary, secondRoute

    public var title: String {
        switch self {
        case .routeRequested: "Planning route"
        case .routeError: "Route not planned"
        case .newRoute: "New route"
        case .finishTooNear: "Finish too near"
        case .welcome: "Welcome to CycleStreets"
        case .startSet: "Start set"
        case .finishSet: "Finish set"
        case .firstRoute: "Your route"
        case .itinerary: "Itinerary"
        case .secondRoute: "Saved routes"
        }
    }

    /// The message; a route error shows the API's own message instead (`routeErrorMessage`).
    public var message: String {
        switch self {
        case .routeRequested: "Asking CycleStreets for a route."
        case .routeError: Self.unreachableMessage
        case .newRoute: "Clear this route and start again?"
        case .finishTooNear: "The finish is too near the start, so it has not been set."
        case .welcome: "Plan a cycle route by tapping the map: first your start, then your finish."
        case .startSet: "Your start is set. Now tap the map to set your finish."
        case .finishSet: "Your finish is set. Press Plan route to get your route."
        case .firstRoute: "The purple line is your route. Pan and zoom the map to follow it."
        case .itinerary: "The Itinerary tab lists your route stage by stage."
        case .secondRoute: "Every route you plan is kept in My saved routes, under More."
        }
    }

    /// What a route error says when the API could not be reached at all.
    public static let unreachableMessage = "CycleStreets could not be reached. Check your connection and try again."

    /// The buttons, left to right: none while a route is requested, Cancel and OK to confirm.
    public var buttons: [String] {
        switch self {
        case .routeRequested, .finishTooNear: []
        case .newRoute: [Self.cancel, Self.ok]
        default: [Self.ok]
        }
    }

    public static let ok = "OK"
    public static let cancel = "Cancel"

    /// How long the dialog stays before it goes by itself, in seconds of script time; nil for
    /// a dialog that waits to be answered (or, while a route is requested, for the answer).
    public var closesAfter: TimeInterval? {
        self == .finishTooNear ? 3 : nil
    }

    /// Whether the dialog belongs to the first-run walk-through, shown once at most.
    public var isWalkThrough: Bool {
        switch self {
        case .welcome, .startSet, .finishSet, .firstRoute, .itinerary, .secondRoute: true
        case .routeRequested, .routeError, .newRoute, .finishTooNear: false
        }
    }

    /// The dialog as the screen draws it, with `message` in place of the usual one.
    public func dialog(message: String? = nil) -> AlertDialog {
        AlertDialog(title: title, message: message ?? self.message, buttons: buttons, showsSpinner: self == .routeRequested)
    }
}
