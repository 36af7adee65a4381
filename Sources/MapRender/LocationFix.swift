import MapGeometry

/// One geolocation fix: where the device thinks it is and how sure it is. A scene draws the
/// location ring around it; the journey planner grades it (`Screens` adds `quality`).
public struct LocationFix: Hashable, Sendable, Codable {
    public var coordinate: Coordinate
    /// The radius of uncertainty in metres (the location ring's inner radius).
    public var accuracyMetres: Double

    public init(coordinate: Coordinate, accuracyMetres: Double) {
        self.coordinate = coordinate
        self.accuracyMetres = accuracyMetres
    }
}
