import MapGeometry

/// How a frame looks: the style values every painter draws with, handed to painters at draw
/// time (`DrawingContext.theme`) rather than fixed when they are built. A scene carries its
/// theme (`Scene.theme`).
///
/// `Theme.cycleStreets` is the CycleStreets app's look (SPEC.md section 2) and the default.
/// `Theme.highContrast` and `Theme.categories` are the others scenes, scripts and the server
/// may name (`Theme.Name`). A variant changes only what it names:
///
/// ```swift
/// var scene = Scene(camera: .fitAll(padding: 24), route: route)
/// scene.theme.route.colour = Colour(red: 1, green: 0.2, blue: 0.2)
/// renderer.render(scene, tileSet: tileSet, tiles: tiles)
/// ```
public struct Theme: Hashable, Sendable {
    // One line per kind of thing drawn; a new overlay kind adds its style here, defaulting
    // to its CycleStreets values.
    public var basemap: BasemapStyle = .tiles
    public var route: RouteStyle = .cycleStreets
    public var startMarker: WispMarkerStyle = .start
    public var finishMarker: WispMarkerStyle = .finish
    public var photoPin: PhotoPinStyle = .cycleStreets
    public var locationRing: LocationRingStyle = .cycleStreets
    public var attribution: AttributionStyle = .map
    public var stageEmphasis: StageEmphasisStyle = .cycleStreets
    public var stageCounter: StageCounterStyle = .cycleStreets
    public var transit: TransitStyle = .cycleStreets
    public var chrome: PhoneChromeStyle = .cycleStreets
    public var dialog: AlertDialogStyle = .cycleStreets
    public var loadingIndicator: LoadingIndicatorStyle = .cycleStreets
    public var geolocationSpinner: GeolocationSpinnerStyle = .cycleStreets
    public var itineraryList: ItineraryListStyle = .cycleStreets
    public var photoView: PhotoViewStyle = .cycleStreets
    /// How the map objects a request brings with their own colours and sizes (`MapObject`) are
    /// drawn: what the theme asks of all of them, which each reads for itself.
    public var mapObjects: MapObjectLook = .asRequested
    /// Whether edges and text are smoothed. Without, every pixel is exactly one of the colours
    /// drawn, so a frame can be read back colour by colour.
    public var antialiasing = true

    /// The CycleStreets look; change the fields that differ.
    public init() {}

    /// The CycleStreets iPhone app's look.
    public static let cycleStreets = Theme()

    /// How far either journey marker reaches from its point, in logical pixels: what a camera
    /// fitted to the markers must leave room for.
    public var markerExtent: EdgeInsets {
        let start = startMarker.extent, finish = finishMarker.extent
        return EdgeInsets(
            top: max(start.top, finish.top), left: max(start.left, finish.left),
            bottom: max(start.bottom, finish.bottom), right: max(start.right, finish.right)
        )
    }

    /// The themes a scene, a script or a server request may name.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case cycleStreets = "cyclestreets"
        case highContrast = "high-contrast"
        case categories

        public var theme: Theme {
            switch self {
            case .cycleStreets: .cycleStreets
            case .highContrast: .highContrast
            case .categories: .categories
            }
        }

        /// The names, as messages list what is allowed: "cyclestreets, high-contrast, categories".
        public static let allowed = allCases.map(\.rawValue).joined(separator: ", ")
    }
}
