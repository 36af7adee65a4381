import MapGeometry
import MapRender
import Payloads
import PhoneScreen

/// Tests' shorthand for a scene of the app's overlays alone, named one by one, as the scene
/// builder (`SceneBuilder`) would lay them out: in the spec's z-order (`Scene.Overlays.layers`),
/// with no map objects and no layers over the chrome.
extension Scene {
    public init(
        viewport: Viewport = .iPhone, style: String = "osm", camera: CameraSpec,
        start: Coordinate? = nil, finish: Coordinate? = nil, route: RouteLine? = nil,
        photos: [Photo] = [], location: LocationFix? = nil, transit: TransitMap? = nil, attribution: AttributionMode = .current,
        emphasisedStage: EmphasisedStage? = nil, loading: String? = nil, itineraryList: ItineraryList? = nil,
        departureBoard: DepartureBoard? = nil, chrome: PhoneChrome? = nil
    ) {
        let overlays = Overlays(
            start: start, finish: finish, route: route, photos: photos, location: location, transit: transit,
            attribution: attribution, emphasisedStage: emphasisedStage, loading: loading, itineraryList: itineraryList,
            departureBoard: departureBoard
        )
        self.init(viewport: viewport, style: style, camera: camera, layers: overlays.layers, chrome: chrome)
    }
}
