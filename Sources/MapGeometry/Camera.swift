/// Where the map looks: a centre and a zoom level (fractional zooms scale the tiles).
public struct Camera: Hashable, Sendable, Codable {
    public var center: Coordinate
    public var zoom: Double

    public init(center: Coordinate, zoom: Double) {
        self.center = center
        self.zoom = zoom
    }
}

/// A closed range of whole zoom levels that a tile source offers.
public struct ZoomRange: Hashable, Sendable, Codable, CustomStringConvertible {
    public var min: Int
    public var max: Int

    public init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }

    public func contains(_ zoom: Double) -> Bool {
        zoom >= Double(min) && zoom <= Double(max)
    }

    public var description: String { "\(min)...\(max)" }
}
