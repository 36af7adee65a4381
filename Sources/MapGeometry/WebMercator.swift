import Foundation

/// A point in Web Mercator pixel space: x grows east, y grows south.
public struct PixelPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in pixels.
public struct PixelRect: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: PixelPoint { PixelPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

    /// The rectangle with every coordinate multiplied by `factor`: logical to device pixels.
    public func scaled(by factor: Double) -> PixelRect {
        PixelRect(minX: minX * factor, minY: minY * factor, maxX: maxX * factor, maxY: maxY * factor)
    }

    public func union(_ other: PixelRect) -> PixelRect {
        PixelRect(
            minX: min(minX, other.minX), minY: min(minY, other.minY),
            maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY)
        )
    }

    /// The smallest rectangle holding both points: a segment's bounds.
    public init(spanning a: PixelPoint, _ b: PixelPoint) {
        self.init(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y))
    }

    /// The rectangle grown by `amount` on every side.
    public func expanded(by amount: Double) -> PixelRect {
        PixelRect(minX: minX - amount, minY: minY - amount, maxX: maxX + amount, maxY: maxY + amount)
    }

    public func intersects(_ other: PixelRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}

/// Spherical Web Mercator (EPSG:3857) on 256-pixel tiles.
public enum WebMercator {
    /// The side of one tile in pixels.
    public static let tileSize = 256.0
    /// The latitude at which the projection becomes square.
    public static let maxLatitude = 85.05112878
    /// The largest latitude an input may give: `maxLatitude` rounded down to four decimal
    /// places (85.0511), so every accepted value lies on the map and messages stay readable.
    public static let maxInputLatitude = (maxLatitude * 10_000).rounded(.down) / 10_000
    /// The latitudes inputs may give, south to north.
    public static let inputLatitudeRange = -maxInputLatitude...maxInputLatitude
    /// The longitudes inputs may give, west to east.
    public static let longitudeRange = -180.0...180.0
    /// The sphere's radius in metres: WGS 84's semi-major axis, as EPSG:3857 takes it.
    public static let sphereRadius = 6_378_137.0
    /// Metres from the projection's origin to each edge of the square world (half the equator):
    /// 20037508.342789244.
    public static let halfWorldMetres = Double.pi * sphereRadius
    /// Ground metres per pixel at the equator at zoom 0 on 256-pixel tiles: 156543.03392804097.
    public static let equatorMetresPerPixelAtZoom0 = 2 * halfWorldMetres / tileSize

    /// The world's side in pixels at a (possibly fractional) zoom.
    public static func worldSize(zoom: Double) -> Double {
        tileSize * pow(2, zoom)
    }

    /// Projects a coordinate to world pixels at `zoom`. Latitudes beyond the projection's limit are clamped.
    public static func project(_ coordinate: Coordinate, zoom: Double) -> PixelPoint {
        let size = worldSize(zoom: zoom)
        let lat = min(max(coordinate.latitude, -maxLatitude), maxLatitude) * .pi / 180
        let x = (coordinate.longitude + 180) / 360 * size
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * size
        return PixelPoint(x: x, y: y)
    }

    /// The coordinate at world pixel `point` at `zoom`.
    public static func unproject(_ point: PixelPoint, zoom: Double) -> Coordinate {
        let size = worldSize(zoom: zoom)
        let longitude = point.x / size * 360 - 180
        let n = Double.pi * (1 - 2 * point.y / size)
        let latitude = atan(sinh(n)) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Ground metres covered by one pixel at `latitude` and `zoom` (256-pixel tiles).
    public static func metresPerPixel(latitude: Double, zoom: Double) -> Double {
        equatorMetresPerPixelAtZoom0 * cos(latitude * .pi / 180) / pow(2, zoom)
    }
}
