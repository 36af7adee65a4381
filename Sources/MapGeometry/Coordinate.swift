import Foundation

/// A geographic point in WGS 84 degrees.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The mean Earth radius used for great-circle distances, in metres.
    public static let earthRadiusMetres = 6_371_008.8

    /// The great-circle (haversine) distance to another point, in metres.
    public func distance(to other: Coordinate) -> Double {
        let lat1 = latitude * .pi / 180, lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Coordinate.earthRadiusMetres * asin(min(1, sqrt(a)))
    }

    /// The great-circle bearing from here towards another point, in degrees clockwise from
    /// north, 0 up to 360: the way to set off. 0 for the same point.
    public func initialBearing(to other: Coordinate) -> Double {
        let lat1 = latitude * .pi / 180, lat2 = other.latitude * .pi / 180
        let dLon = (other.longitude - longitude) * .pi / 180
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    public var description: String {
        String(format: "%.6f,%.6f", latitude, longitude)
    }
}

/// A latitude/longitude box. Boxes that cross the antimeridian are not modelled.
public struct GeoBounds: Hashable, Sendable, Codable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The smallest box holding every point; nil when there are none.
    public init?<Points: Sequence>(containing points: Points) where Points.Element == Coordinate {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        var bounds = GeoBounds(point: first)
        while let next = iterator.next() { bounds.extend(with: next) }
        self = bounds
    }

    /// A zero-area box at one point.
    public init(point: Coordinate) {
        self.init(south: point.latitude, west: point.longitude, north: point.latitude, east: point.longitude)
    }

    /// The box around a circle of `radiusMetres` about `center`.
    public init(center: Coordinate, radiusMetres: Double) {
        let dLat = radiusMetres / Coordinate.earthRadiusMetres * 180 / .pi
        let cosLat = max(cos(center.latitude * .pi / 180), 1e-6)
        let dLon = dLat / cosLat
        self.init(
            south: max(center.latitude - dLat, -WebMercator.maxLatitude),
            west: max(center.longitude - dLon, -180),
            north: min(center.latitude + dLat, WebMercator.maxLatitude),
            east: min(center.longitude + dLon, 180)
        )
    }

    public mutating func extend(with point: Coordinate) {
        south = min(south, point.latitude)
        north = max(north, point.latitude)
        west = min(west, point.longitude)
        east = max(east, point.longitude)
    }

    public func union(_ other: GeoBounds) -> GeoBounds {
        GeoBounds(
            south: min(south, other.south), west: min(west, other.west),
            north: max(north, other.north), east: max(east, other.east)
        )
    }

    public func contains(_ point: Coordinate) -> Bool {
        point.latitude >= south && point.latitude <= north && point.longitude >= west && point.longitude <= east
    }

    public var center: Coordinate {
        Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
    }

    public var southWest: Coordinate { Coordinate(latitude: south, longitude: west) }
    public var northEast: Coordinate { Coordinate(latitude: north, longitude: east) }
}
