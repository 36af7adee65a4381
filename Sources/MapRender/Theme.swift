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
    // One line per kind of thing drawn; a new overlay kind adds its style here, defaulting
    // to its CycleStreets values.
    public var route: RouteStyle = .cycleStreets
    public var startMarker: WispMarkerStyle = .start
    public var finishMarker: WispMarkerStyle = .finish
    public var photoPin: PhotoPinStyle = .cycleStreets
    public var locationRing: LocationRingStyle = .cycleStreets
    public var attribution: AttributionStyle = .map
    public var stageEmphasis: StageEmphasisStyle = .cycleStreets
    public var stageCounter: StageCounterStyle = .cycleStreets
    public var chrome: PhoneChromeStyle = .cycleStreets

    /// The CycleStreets look; change the fields that differ.
    public init() {}

    /// The CycleStreets iPhone app's look.
    public static let cycleStreets = Theme()
}
