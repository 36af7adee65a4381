import Foundation
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Wording

/// The journey planner screen (spec 6.3-6.9) as a value: the markers, the planned route, the
/// camera and any running geolocation, changed only by events.
///
/// Every event carries the time it happens, in seconds; the model never reads a clock. Events
/// return an `EventOutcome` saying whether they were accepted and, if not, why. The map moves
/// only when the user pans or zooms, when a route is planned, when a placefinder result is
/// chosen, and when a geolocation fix falls outside the panel.
public struct JourneyPlanner: Hashable, Sendable, Codable {
    /// The closest a finish may be to the start, in metres (`MIN_START_FINISH_DISTANCE`).
    public static let minimumStartFinishMetres = 100.0
    /// What the app said when a finish was too close to the start (v1 `showStartFinishAlert`).
    public static let finishTooCloseMessage = "Move the map to set a finish point further away."
    /// Why "Plan route" is refused before both markers are set.
    public static let planNeedsBothMarkers = "Set a start and a finish before planning a route"
    /// How long after a pan or zoom a tap is still taken as part of the gesture, in seconds.
    public static let tapDelay: TimeInterval = 0.2

    /// Times closer than this are equal, so that scripted decimal times behave as written.
    static let timeTolerance: TimeInterval = 1e-6

    public private(set) var map: MapPanel
    public private(set) var start: Coordinate?
    public private(set) var finish: Coordinate?
    /// The planned route; when set, both markers are set too.
    public private(set) var journey: Journey?
    /// The running geolocation, if any.
    public private(set) var geolocation: Geolocation?
    /// When the user last panned or zoomed.
    public private(set) var lastMapMoveTime: TimeInterval?

    /// The cleared initial state, looking through `map`.
    public init(map: MapPanel) {
        self.map = map
    }

    /// Which step of the three-taps flow the planner is at.
    public var phase: PlannerPhase {
        PlannerPhase(hasStart: start != nil, hasFinish: finish != nil, hasRoute: journey != nil)
    }

    /// The commentary panel's text.
    public var commentary: Phrase { phase.commentary }

    /// The toolbar buttons that are enabled: the phase's, and zooming while it does something.
    public var enabledButtons: [ToolbarButton] { phase.enabledButtons + map.enabledZoomButtons }

    // MARK: - Events

    /// A tap at a point in the map panel's logical pixels sets the next marker there. Ignored
    /// within `tapDelay` of a pan or zoom, and once both markers are set.
    public mutating func tap(atX x: Double, y: Double, at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        if let lastMapMoveTime, time - lastMapMoveTime < Self.tapDelay - Self.timeTolerance {
            return .refused("Tap ignored: less than 0.2 s after the map moved")
        }
        guard let role = nextMarker else { return .refused("Tap ignored: the start and finish are already set") }
        return setMarker(role, at: map.coordinate(atX: x, y: y))
    }

    /// The user drags the map by `dx`, `dy` logical pixels. Cancels geolocation.
    public mutating func pan(dx: Double, dy: Double, at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        map.pan(dx: dx, dy: dy)
        userMovedMap(at: time)
        return .accepted
    }

    /// One zoom level closer. Cancels geolocation.
    public mutating func zoomIn(at time: TimeInterval) -> EventOutcome {
        zoom(by: 1, at: time)
    }

    /// One zoom level wider. Cancels geolocation.
    public mutating func zoomOut(at time: TimeInterval) -> EventOutcome {
        zoom(by: -1, at: time)
    }

    /// Removes the finish, or else the start. Disabled once a route is planned.
    public mutating func stepBack(at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard enabledButtons.contains(.stepBack) else { return .refused("Step-back is disabled") }
        let removed: MarkerRole = finish != nil ? .finish : .start
        switch removed {
        case .finish: finish = nil
        case .start: start = nil
        }
        if geolocation?.followedMarker == removed { geolocation?.followedMarker = nil }
        return .accepted
    }

    /// The geolocation button: starts listening for fixes.
    public mutating func startGeolocation(at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard enabledButtons.contains(.geolocate) else { return .refused("Geolocation is disabled") }
        if geolocation == nil { geolocation = Geolocation(startTime: time) }
        return .accepted
    }

    /// A geolocation pulse. It moves the location ring; sets the next marker if one is needed
    /// (the marker then follows later pulses); and centres the camera on the fix, at a zoom
    /// from its accuracy, only if the fix is outside the panel.
    public mutating func receiveLocation(_ fix: LocationFix, at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard var geolocation else { return .refused("Geolocation is not running") }
        geolocation.receive(fix, at: time)
        if !map.shows(fix.coordinate) {
            map.center(on: fix.coordinate, zoom: fix.cameraZoom)
        }
        var outcome = EventOutcome.accepted
        if let role = geolocation.followedMarker ?? nextMarker {
            outcome = setMarker(role, at: fix.coordinate)
            if outcome.accepted { geolocation.followedMarker = role }
        }
        self.geolocation = geolocation
        return outcome
    }

    /// A placefinder result was chosen: the camera centres on it and the next marker goes there.
    public mutating func choosePlace(_ place: GeocoderResult, at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard enabledButtons.contains(.placefinder), let role = nextMarker else {
            return .refused("The placefinder is disabled")
        }
        geolocation = nil
        map.center(on: place.coordinate)
        return setMarker(role, at: place.coordinate)
    }

    /// Moves the map to show `items` (a transit journey shown over the planner), with
    /// `padding` logical pixels to spare.
    public mutating func showOnMap(_ items: [FitItem], padding: Double = MapDefaults.fitPadding) {
        map.fit(items, padding: padding)
    }

    /// "Plan route": shows `journey`, moves the markers to its ends and fits the camera to the
    /// route and both markers, each marker with the pixels it draws beyond its point, leaving
    /// `padding` logical pixels to the panel's edges.
    public mutating func plan(
        _ journey: Journey, markerMargins: EdgeInsets = Theme.cycleStreets.markerExtent, padding: Double = MapDefaults.fitPadding,
        at time: TimeInterval
    ) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard phase == .readyToPlan else { return .refused(Self.planNeedsBothMarkers) }
        geolocation = nil
        self.journey = journey
        start = journey.startCoordinate
        finish = journey.finishCoordinate
        map.fit([
            FitItem(bounds: journey.routeLine.bounds),
            FitItem(bounds: GeoBounds(point: journey.startCoordinate), pixelMargins: markerMargins),
            FitItem(bounds: GeoBounds(point: journey.finishCoordinate), pixelMargins: markerMargins),
        ], padding: padding)
        return .accepted
    }

    /// "New route": back to the cleared initial state, leaving the map where it is.
    public mutating func newRoute(at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard phase == .planned else { return .refused("There is no route to clear") }
        journey = nil
        start = nil
        finish = nil
        geolocation = nil
        return .accepted
    }

    /// Time passes with no event; a geolocation whose switch-off time has come stops.
    public mutating func advance(to time: TimeInterval) {
        stopGeolocationIfDue(at: time)
    }

    // MARK: - Rules

    /// The marker a tap, fix or place would set: the start, then the finish, then none.
    private var nextMarker: MarkerRole? {
        if start == nil { return .start }
        if finish == nil { return .finish }
        return nil
    }

    /// Sets a marker unless it would be within `minimumStartFinishMetres` of the other one.
    private mutating func setMarker(_ role: MarkerRole, at coordinate: Coordinate) -> EventOutcome {
        let other = role == .start ? finish : start
        if let other, other.distance(to: coordinate) < Self.minimumStartFinishMetres {
            return .refused(Self.finishTooCloseMessage)
        }
        switch role {
        case .start: start = coordinate
        case .finish: finish = coordinate
        }
        return .accepted
    }

    private mutating func zoom(by levels: Int, at time: TimeInterval) -> EventOutcome {
        stopGeolocationIfDue(at: time)
        guard map.zoom(by: levels) else {
            return .refused(levels > 0 ? "Already at the closest zoom" : "Already at the widest zoom")
        }
        userMovedMap(at: time)
        return .accepted
    }

    /// A user pan or zoom accepts any geolocation result so far and ends the geolocation.
    private mutating func userMovedMap(at time: TimeInterval) {
        lastMapMoveTime = time
        geolocation = nil
    }

    private mutating func stopGeolocationIfDue(at time: TimeInterval) {
        if geolocation?.hasSwitchedOff(by: time) == true { geolocation = nil }
    }
}
