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

    /// A photo's pin.
    public struct Photo: Hashable, Sendable {
        public var id: Int
        public var coordinate: Coordinate
        public var caption: String?

        public init(id: Int, coordinate: Coordinate, caption: String? = nil) {
            self.id = id
            self.coordinate = coordinate
            self.caption = caption
        }
    }

    /// A geolocation fix and its accuracy in metres.
    public struct Location: Hashable, Sendable {
        public var coordinate: Coordinate
        public var accuracy: Double

        public init(coordinate: Coordinate, accuracy: Double) {
            self.coordinate = coordinate
            self.accuracy = accuracy
        }
    }

    public var viewport: Viewport
    public var style: String
    public var camera: CameraSpec
    public var start: Coordinate?
    public var finish: Coordinate?
    public var route: [Coordinate]
    public var photos: [Photo]
    public var location: Location?
    public var attribution: AttributionMode

    public init(
        viewport: Viewport = .iPhone, style: String = "osm", camera: CameraSpec,
        start: Coordinate? = nil, finish: Coordinate? = nil, route: [Coordinate] = [],
        photos: [Photo] = [], location: Location? = nil, attribution: AttributionMode = .current
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
    }
}
