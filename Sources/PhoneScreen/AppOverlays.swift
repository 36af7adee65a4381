import MapGeometry
import MapRender
import Payloads

/// The CycleStreets app's overlays on a scene: the markers, route, photos, location ring,
/// transit journey and attribution of its map screens, and what it puts over the map (the
/// stage counter, the loading indicator and the itinerary's list), in the spec's z-order.
extension Scene {
    /// The app's overlays by name. `layers` puts them in the z-order of SPEC.md section 1,
    /// bottom to top: location ring, a transit journey, photo pins, start and finish markers,
    /// route line, the itinerary's emphasised stage over it, attribution, the transit sentence
    /// above it, the transit journey's disturbances at the top of the panel, the stage counter or
    /// the loading indicator there, and the itinerary's list or a departure board over all of them.
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
        /// A stop's departure board, covering the map.
        public var departureBoard: DepartureBoard?

        public init(
            start: Coordinate? = nil, finish: Coordinate? = nil, route: RouteLine? = nil, photos: [Photo] = [],
            location: LocationFix? = nil, transit: TransitMap? = nil, attribution: AttributionMode = .current,
            emphasisedStage: EmphasisedStage? = nil, loading: String? = nil, itineraryList: ItineraryList? = nil,
            departureBoard: DepartureBoard? = nil
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
            self.departureBoard = departureBoard
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
            if let notices = transit?.notices, !notices.isEmpty { layers.append(TransitNoticeLayer(notices: notices)) }
            if let emphasisedStage { layers.append(StageCounterPainter(stage: emphasisedStage)) }
            if let loading { layers.append(LoadingIndicatorPainter(label: loading)) }
            if let itineraryList { layers.append(ItineraryListPainter(list: itineraryList)) }
            if let departureBoard { layers.append(DepartureBoardPainter(board: departureBoard)) }
            return layers
        }

        /// Whether `layer` is one of the kinds these overlays make.
        static func makes(_ layer: any SceneLayer) -> Bool {
            layer is LocationRingPainter || layer is TransitPainter || layer is TransitCaptionLayer || layer is PhotoPinPainter || layer is WispMarkerPainter || layer is RoutePainter
                || layer is StageEmphasisPainter || layer is AttributionLayer || layer is StageCounterPainter || layer is LoadingIndicatorPainter
                || layer is ItineraryListPainter || layer is TransitNoticeLayer || layer is DepartureBoardPainter
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
                case let board as DepartureBoardPainter: overlays.departureBoard = board.board
                default: break
                }
            }
            return overlays
        }
        set {
            let laid = newValue.layers, others = layers.filter { !Overlays.makes($0) }
            let over = laid.firstIndex { $0.isOverMapObjects } ?? laid.endIndex
            layers = Array(laid[..<over]) + others + Array(laid[over...])
        }
    }
}
