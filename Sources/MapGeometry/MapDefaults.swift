/// Map defaults shared by every front end: scene files, scripts, the journey planner, the
/// itinerary and the server. Spec values for how overlays look live in the style types instead.
public enum MapDefaults {
    /// The view shown when there is nothing better: south-east England at zoom 6 (SPEC.md
    /// section 3, the app's fallback start view).
    public static let fallbackCamera = Camera(center: Coordinate(latitude: 51.40, longitude: 0.0), zoom: 6)
    /// The logical pixels a fitted camera leaves between what it fits and the panel's edges.
    public static let fitPadding = 24.0
}
