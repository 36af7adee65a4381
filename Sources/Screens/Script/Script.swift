import Foundation
import FrameRequest
import MapGeometry
import MapRender
import Payloads

/// A scripted session with the app: a starting view and the steps a user (and the device)
/// take. Read one with `ScriptParser`, play it with `ScriptPlayer`.
public struct Script: Hashable, Sendable {
    /// The map style's name, such as `osm`.
    public var style: String
    /// The zooms the style offers.
    public var zoomRange: ZoomRange
    /// The starting camera; the app's fallback view when the script gives none.
    public var camera: Camera
    public var layout: ScreenLayout
    /// How every frame is drawn.
    public var theme: Theme
    /// Whether the session is the app's first run, which shows the walk-through dialogs.
    public var firstRun: Bool
    public var steps: [ScriptStep]

    public init(
        style: String, zoomRange: ZoomRange, camera: Camera, layout: ScreenLayout, theme: Theme, firstRun: Bool = false, steps: [ScriptStep]
    ) {
        self.style = style
        self.zoomRange = zoomRange
        self.camera = camera
        self.layout = layout
        self.theme = theme
        self.firstRun = firstRun
        self.steps = steps
    }
}

/// One step of a script. File references are resolved against the script's directory.
public enum ScriptStep: Hashable, Sendable {
    /// A tap in map-panel logical pixels.
    case tap(x: Double, y: Double)
    /// Time passing, in seconds.
    case wait(seconds: Double)
    /// A drag by logical pixels; the map content follows the finger.
    case pan(dx: Double, dy: Double)
    case zoomIn
    case zoomOut
    case stepBack
    /// "Plan route", answered by the API `seconds` later (0: at once).
    case plan(PlanAnswer, seconds: TimeInterval)
    /// "New route", which asks for confirmation.
    case newRoute
    /// Answers the open dialog: true presses OK, false presses Cancel.
    case confirm(Bool)
    /// A geolocation pulse; starts geolocation first when it is not running.
    case geolocate(LocationFix)
    /// Choosing result `result` (counting from 0) of a placefinder answer, XML or GeoJSON.
    case placefinder(file: URL, result: Int)
    /// The Photomap showing the photos of a Photomap answer, XML or GeoJSON, which arrives
    /// `seconds` later (0: at once).
    case photos(file: URL, seconds: TimeInterval)
    /// The itinerary's map of stage `n`, counting from 1.
    case stage(Int)
    /// Touching the pin of the photo with this number on the Photomap, which opens it.
    case photo(Int)
    /// "Done" on an open photo, back to the Photomap.
    case done
    /// The itinerary's list of stages, with stage `selected` highlighted; nil highlights the
    /// stage last shown on the itinerary's map, if any.
    case itinerary(selected: Int?)
    /// A public-transport journey shown over the planner's map, its vehicle moving on by the
    /// script clock.
    case transit(TransitRequest)
    /// A stop's departure board, covering the map.
    case departures(DeparturesRequest)
    /// Choosing row `n` of the board shown (counting from 1): the departures view of its
    /// vehicle, moving on by the script clock.
    case departure(Int)

    /// How long the step takes on the script clock: a wait's seconds, 0.1 s for anything else.
    public var duration: TimeInterval {
        if case .wait(let seconds) = self { return seconds }
        return 0.1
    }

    /// The step's name as the script and the log spell it.
    public var name: String {
        switch self {
        case .tap: "tap"
        case .wait: "wait"
        case .pan: "pan"
        case .zoomIn: "zoomIn"
        case .zoomOut: "zoomOut"
        case .stepBack: "stepBack"
        case .plan: "plan"
        case .newRoute: "newRoute"
        case .confirm: "confirm"
        case .geolocate: "geolocate"
        case .placefinder: "placefinder"
        case .photos: "photos"
        case .stage: "stage"
        case .itinerary: "itinerary"
        case .photo: "photo"
        case .done: "done"
        case .transit: "transit"
        case .departures: "departures"
        case .departure: "departure"
        }
    }
}

/// What the API answers a route request with.
public enum PlanAnswer: Hashable, Sendable {
    /// A CycleStreets journey file, XML or JSON; an error answer in it is shown as the API's error.
    case journey(URL)
    /// Nothing: the API could not be reached.
    case unreachable
}
