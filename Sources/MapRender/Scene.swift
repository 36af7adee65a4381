import MapGeometry
import Payloads

/// Everything one frame shows: the map's style and camera, and the layers drawn over the tiles.
public struct Scene: Hashable, Sendable {
    /// How the camera is chosen.
    public enum CameraSpec: Hashable, Sendable {
        /// A given centre and zoom.
        case fixed(Camera)
        /// Fit every layer's fit items (markers, route, photos, location), with `padding`
        /// logical pixels to spare (`MapDefaults.fitPadding` unless a scene says otherwise).
        case fitAll(padding: Double)
        /// Fit `bounds`, with `padding` logical pixels to spare, whatever the layers cover.
        case fitBounds(GeoBounds, padding: Double)
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
    /// The overlays, bottom to top, each making its painter. A new kind of overlay is a painter
    /// that is its own `SceneLayer`, put here at its place in the z-order where scenes are read.
    public var layers: [any SceneLayer]
    /// The status bar, toolbar and tab bar around the map panel; nil draws the map panel alone.
    public var chrome: PhoneChrome?
    /// Drawn over the whole frame, chrome included, after the map panel, bottom to top: a
    /// view that covers the map (the photo view) and a modal dialog over everything.
    public var screenLayers: [any SceneLayer] = []
    /// How everything is drawn; the CycleStreets look unless a scene names another.
    public var theme: Theme = .cycleStreets

    /// A scene with the given layers, bottom to top.
    public init(viewport: Viewport = .iPhone, style: String = "osm", camera: CameraSpec, layers: [any SceneLayer], chrome: PhoneChrome? = nil) {
        self.viewport = viewport
        self.style = style
        self.camera = camera
        self.layers = layers
        self.chrome = chrome
    }

    /// A scene of the app's overlays, layered in the spec's z-order (`Overlays.layers`).
    public init(
        viewport: Viewport = .iPhone, style: String = "osm", camera: CameraSpec,
        start: Coordinate? = nil, finish: Coordinate? = nil, route: RouteLine? = nil,
        photos: [Photo] = [], location: LocationFix? = nil, transit: TransitMap? = nil, attribution: AttributionMode = .current,
        emphasisedStage: EmphasisedStage? = nil, loading: String? = nil, itineraryList: ItineraryList? = nil, chrome: PhoneChrome? = nil
    ) {
        let overlays = Overlays(
            start: start, finish: finish, route: route, photos: photos, location: location, transit: transit,
            attribution: attribution, emphasisedStage: emphasisedStage, loading: loading, itineraryList: itineraryList
        )
        self.init(viewport: viewport, style: style, camera: camera, layers: overlays.layers, chrome: chrome)
    }

    /// The app's overlays by name. `layers` puts them in the z-order of SPEC.md section 1,
    /// bottom to top: location ring, a transit journey, photo pins, start and finish markers,
    /// route line, the itinerary's emphasised stage over it, attribution, the transit sentence
    /// above it, the stage counter or the loading indicator at the top of the panel, and the
    /// itinerary's list over all of them.
    public struct Overlays: Hashable, Sendable {
        public var start: Coordinate?
        public var finish: Coordinate?
        /// The planned route, every part of it; nil when there is none.
        public var route: RouteLine?
        public var photos: [Photo]
        public var location: LocationFix?
        /// A public-transport journey, drawn above the location ring and below the markers,
        /// with its sentence above the attribution.
        public var transit: TransitMap?
        public var attribution: AttributionMode
        /// The itinerary stage drawn with emphasis. Not part of the scene file format; scripts set it.
        public var emphasisedStage: EmphasisedStage?
        /// The loading indicator's word while something loads; nil when nothing does. Scripts set it.
        public var loading: String?
        /// The itinerary's list of stages, covering the map. Scripts set it.
        public var itineraryList: ItineraryList?

        public init(
            start: Coordinate? = nil, finish: Coordinate? = nil, route: RouteLine? = nil, photos: [Photo] = [],
            location: LocationFix? = nil, transit: TransitMap? = nil, attribution: AttributionMode = .current,
            emphasisedStage: EmphasisedStage? = nil, loading: String? = nil, itineraryList: ItineraryList? = nil
        ) {
            self.start = start
            self.finish = finish
            self.route = route
            self.photos = photos
            self.location = location
            self.transit = transit
            self.attribution = attribution
            self.emphasisedStage = emphasisedStage
            self.loading = loading
            self.itineraryList = itineraryList
        }

        /// The overlays as layers, bottom to top.
        public var layers: [any SceneLayer] {
            var layers: [any SceneLayer] = []
            if let location { layers.append(LocationRingPainter(fix: location)) }
            if let transit { layers.append(TransitPainter(map: transit)) }
            layers += photos.map(PhotoPinPainter.init(photo:)) as [any SceneLayer]
            if let start { layers.append(WispMarkerPainter(coordinate: start, role: .start)) }
            if let finish { layers.append(WispMarkerPainter(coordinate: finish, role: .finish)) }
            if let route { layers.append(RoutePainter(route: route)) }
            if let emphasisedStage { layers.append(StageEmphasisPainter(stage: emphasisedStage)) }
            if attribution != .hidden { layers.append(AttributionLayer(attribution)) }
            if let sentence = transit?.sentence { layers.append(TransitCaptionLayer(sentence: sentence, attribution: attribution)) }
            if let emphasisedStage { layers.append(StageCounterPainter(stage: emphasisedStage)) }
            if let loading { layers.append(LoadingIndicatorPainter(label: loading)) }
            if let itineraryList { layers.append(ItineraryListPainter(list: itineraryList)) }
            return layers
        }

        /// Whether `layer` is drawn over the map objects of a request (`MapObject`): the
        /// attribution, and the text and views the app puts over the map.
        static func isOverMapObjects(_ layer: any SceneLayer) -> Bool {
            layer is AttributionLayer || layer is TransitCaptionLayer || layer is StageCounterPainter || layer is LoadingIndicatorPainter
                || layer is ItineraryListPainter
        }

        /// Whether `layer` is one of the kinds these overlays make.
        static func makes(_ layer: any SceneLayer) -> Bool {
            layer is LocationRingPainter || layer is TransitPainter || layer is TransitCaptionLayer || layer is PhotoPinPainter || layer is WispMarkerPainter || layer is RoutePainter
                || layer is StageEmphasisPainter || layer is AttributionLayer || layer is StageCounterPainter || layer is LoadingIndicatorPainter
                || layer is ItineraryListPainter
        }
    }

    /// The app's overlays as the layers show them. Setting them lays the app's overlays out
    /// afresh in the spec's z-order, with any layers of other kinds (`MapObject`), in their
    /// order, over the map's overlays and under the attribution and what the app draws over it.
    public var overlays: Overlays {
        get {
            var overlays = Overlays(attribution: .hidden)
            for layer in layers {
                switch layer {
                case let ring as LocationRingPainter: overlays.location = ring.fix
                case let transit as TransitPainter: overlays.transit = transit.map
                case let pin as PhotoPinPainter: overlays.photos.append(pin.photo)
                case let marker as WispMarkerPainter where marker.role == .start: overlays.start = marker.coordinate
                case let marker as WispMarkerPainter: overlays.finish = marker.coordinate
                case let route as RoutePainter: overlays.route = route.route
                case let stage as StageEmphasisPainter: overlays.emphasisedStage = stage.stage
                case let attribution as AttributionLayer: overlays.attribution = attribution.mode
                case let indicator as LoadingIndicatorPainter: overlays.loading = indicator.label
                case let list as ItineraryListPainter: overlays.itineraryList = list.list
                default: break
                }
            }
            return overlays
        }
        set {
            let laid = newValue.layers, others = layers.filter { !Overlays.makes($0) }
            let over = laid.firstIndex(where: Overlays.isOverMapObjects) ?? laid.endIndex
            layers = Array(laid[..<over]) + others + Array(laid[over...])
        }
    }

    /// Adds map objects (`MapObject`) over those already there, under the attribution and
    /// what the app draws over the map.
    public mutating func addMapObjects(_ objects: [any SceneLayer]) {
        layers += objects
        overlays = overlays
    }

    /// The map panel, which the camera looks through: the frame less the chrome's bars.
    public var mapPanelViewport: Viewport {
        chrome == nil ? viewport : PhoneChrome.mapPanel(in: viewport)
    }

    /// The map panel's top edge in the frame, in logical pixels.
    public var mapPanelTop: Int { chrome == nil ? 0 : PhoneChrome.mapPanelTop }
}

extension Scene {
    public static func == (a: Scene, b: Scene) -> Bool {
        a.viewport == b.viewport && a.style == b.style && a.camera == b.camera && a.chrome == b.chrome && a.theme == b.theme
            && a.layers.map { AnyHashable($0) } == b.layers.map { AnyHashable($0) }
            && a.screenLayers.map { AnyHashable($0) } == b.screenLayers.map { AnyHashable($0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(viewport)
        hasher.combine(style)
        hasher.combine(camera)
        hasher.combine(chrome)
        hasher.combine(theme)
        for layer in layers { hasher.combine(AnyHashable(layer)) }
        for layer in screenLayers { hasher.combine(AnyHashable(layer)) }
    }
}
