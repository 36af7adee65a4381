import MapGeometry

extension EdgeInsets {
    /// How far the start and finish "wisp" markers draw beyond their point at scale 1: the body
    /// rises up and to the right of the tip.
    public static let wispMarker = EdgeInsets(top: 56, left: 15, bottom: 6, right: 51)
}
