import MapGeometry

/// One place the placefinder offers: "Kingston, Royal Borough of Kingston upon Thames".
public struct GeocoderResult: Hashable, Sendable, Codable {
    /// The place's name, such as a street or town.
    public var name: String
    /// Where it is, shown after the name; may be empty.
    public var near: String
    public var coordinate: Coordinate

    public init(name: String, near: String, coordinate: Coordinate) {
        self.name = name
        self.near = near
        self.coordinate = coordinate
    }
}
