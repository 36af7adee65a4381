import MapGeometry
import MapRender
import Payloads
import PhoneScreen

/// Which screen of the app a frame shows.
public enum Screen: String, Hashable, Sendable, Codable {
    case planner, photomap, itinerary, itineraryList, photo, departures
}

/// Everything a renderer needs to draw one frame of a screen, and nothing it must work out.
public struct ScreenState: Hashable, Sendable, Codable {
    public var screen: Screen
    public var camera: Camera
    public var start: Coordinate?
    public var finish: Coordinate?
    public var routeLine: RouteLine?
    /// The geolocation fix to draw the location ring around.
    public var locationRing: LocationFix?
    /// The photo pins.
    public var photos: [Photo]
    /// The itinerary stage drawn with emphasis.
    public var emphasisedStage: EmphasisedStage?
    /// A public-transport journey over the planner's map.
    public var transit: TransitMap?
    /// The journey planner's commentary panel text; nil on other screens.
    public var commentary: String?
    public var enabledButtons: [ToolbarButton]
    /// The modal dialog over the whole screen; nil when none is open.
    public var dialog: AlertDialog?
    /// The loading indicator's word while something loads; nil when nothing does.
    public var loading: String?
    /// The geolocation button's spinning arrow while a geolocation runs.
    public var geolocationSpinner: GeolocationSpinner?
    /// The itinerary's list of stages, which covers the map.
    public var itineraryList: ItineraryList?
    /// A photo opened from the Photomap, which covers the screen below the status bar.
    public var photoView: PhotoView?
    /// A stop's departure board, which covers the map.
    public var departureBoard: DepartureBoard?

    /// A journey planner frame.
    public init(_ planner: JourneyPlanner) {
        screen = .planner
        camera = planner.map.camera
        start = planner.start
        finish = planner.finish
        routeLine = planner.journey?.routeLine
        locationRing = planner.geolocation?.fix
        photos = []
        emphasisedStage = nil
        commentary = planner.commentary
        enabledButtons = planner.enabledButtons
    }

    /// A Photomap frame.
    public init(_ photomap: Photomap) {
        screen = .photomap
        camera = photomap.map.camera
        photos = photomap.visiblePhotos
        enabledButtons = photomap.enabledButtons
    }

    /// The itinerary's list of `journey`'s stages, with `selected` highlighted; `camera` is
    /// where the map behind it looks.
    public init(listing journey: Journey, selected: Int?, camera: Camera) {
        screen = .itineraryList
        self.camera = camera
        photos = []
        itineraryList = journey.itineraryList(selected: selected)
        enabledButtons = []
    }

    /// An itinerary stage frame: the route and its ends, with one stage emphasised.
    public init(_ itinerary: ItineraryStageView) {
        screen = .itinerary
        camera = itinerary.map.camera
        start = itinerary.journey.startCoordinate
        finish = itinerary.journey.finishCoordinate
        routeLine = itinerary.journey.routeLine
        photos = []
        emphasisedStage = itinerary.emphasisedStage
        enabledButtons = itinerary.enabledButtons
    }
}
