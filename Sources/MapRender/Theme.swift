/// How a frame looks: the style values every painter draws with, handed to painters at draw
/// time (`DrawingContext.theme`) rather than fixed when they are built.
///
/// `Theme.cycleStreets` is the CycleStreets app's look (SPEC.md section 2) and the default.
/// A variant changes only what it names:
///
/// ```swift
/// var red = Theme.cycleStreets
/// red.route.colour = Colour(red: 1, green: 0.2, blue: 0.2)
/// renderer.render(scene, source: source, tiles: tiles, theme: red)
/// ```
public struct Theme: Hashable, Sendable {
    public var route: RouteStyle
    public var startMarker: WispMarkerStyle
    public var finishMarker: WispMarkerStyle
    public var photoPin: PhotoPinStyle
    public var locationRing: LocationRingStyle
    public var attribution: AttributionStyle
    public var stageEmphasis: StageEmphasisStyle
    public var stageCounter: StageCounterStyle
    public var chrome: PhoneChromeStyle

    public init(
        route: RouteStyle, startMarker: WispMarkerStyle, finishMarker: WispMarkerStyle, photoPin: PhotoPinStyle,
        locationRing: LocationRingStyle, attribution: AttributionStyle, stageEmphasis: StageEmphasisStyle,
        stageCounter: StageCounterStyle, chrome: PhoneChromeStyle
    ) {
        self.route = route
        self.startMarker = startMarker
        self.finishMarker = finishMarker
        self.photoPin = photoPin
        self.locationRing = locationRing
        self.attribution = attribution
        self.stageEmphasis = stageEmphasis
        self.stageCounter = stageCounter
        self.chrome = chrome
    }

    /// The CycleStreets iPhone app's look.
    public static let cycleStreets = Theme(
        route: .cycleStreets, startMarker: .start, finishMarker: .finish, photoPin: .cycleStreets,
        locationRing: .cycleStreets, attribution: .map, stageEmphasis: .cycleStreets,
        stageCounter: .cycleStreets, chrome: .cycleStreets
    )
}
