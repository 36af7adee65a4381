import MapGeometry

/// Everything one frame shows: the map's style and camera, and the overlays on it.
public struct Scene: Hashable, Sendable {
    /// How the camera is chosen.
    public enum CameraSpec: Hashable, Sendable {
        /// A given centre and zoom.
        case fixed(Camera)
        /// Fit the markers, route, photos and location, with `padding` logical pixels to spare.
        case fitAll(padding: Double)
    }

    /// Which attribution text the box shows.
    public enum AttributionMode: Hashable, Sendable {
        case hidden
        /// The source's attribution as it is today.
        case current
        /// The text the 2010 app showed, where the style keeps it.
        case legacy
    }

    /// The whole frame: with chrome, the screen the chrome and the map panel share.
    public var viewport: Viewport
    public var style: String
    public var camera: CameraSpec
    public var start: Coordinate?
    public var finish: Coordinate?
    public var route: [Coordinate]
    public var photos: [Photo]
    public var location: LocationFix?
    public var attribution: AttributionMode
    /// The itinerary stage drawn with emphasis. Not part of the scene file format; scripts set it.
    public var emphasisedStage: EmphasisedStage?
    /// The status bar, toolbar and tab bar around the map panel; nil draws the map panel alone.
    public var chrome: PhoneChrome?

    public init(
        viewport: Viewport = .iPhone, style: String = "osm", camera: CameraSpec,
        start: Coordinate? = nil, finish: Coordinate? = nil, route: [Coordinate] = [],
        photos: [Photo] = [], location: LocationFix? = nil, attribution: AttributionMode = .current,
        emphasisedStage: EmphasisedStage? = nil, chrome: PhoneChrome? = nil
    ) {
        self.viewport = viewport
        self.style = style
        self.camera = camera
        self.start = start
        self.finish = finish
        self.route = route
        self.photos = photos
        self.location = location
        self.attribution = attribution
        self.emphasisedStage = emphasisedStage
        self.chrome = chrome
    }

    /// The map panel, which the camera looks through: the frame less the chrome's bars.
    public var mapPanelViewport: Viewport {
        chrome == nil ? viewport : PhoneChrome.mapPanel(in: viewport)
    }

    /// The map panel's top edge in the frame, in logical pixels.
    public var mapPanelTop: Int { chrome == nil ? 0 : PhoneChrome.mapPanelTop }
}
