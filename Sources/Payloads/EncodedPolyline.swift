import MapGeometry

/// Google's encoded polyline format: each point's latitude and longitude as differences from
/// the point before, scaled by 10^precision, zig-zag signed, and written five bits to a
/// character from `?` (63) to `~` (126). Google, Mapbox, TileServer GL and MapTiler write it at
/// precision 5; OSRM and Valhalla at precision 6
/// (https://developers.google.com/maps/documentation/utilities/polylinealgorithm).
///
/// No mirrored Swift package reads the format, and reading it is the short loop below.
public enum EncodedPolyline {
    /// The two precisions in use: 5 (1.1 m at the equator) and 6.
    public static let precisions: ClosedRange<Int> = 5...6

    /// A polyline that cannot be read, saying where and why.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The points `text` encodes at `precision` (5 or 6), at most `maximumPoints` of them.
    ///
    /// Refused: a character outside the format's alphabet, a value cut off or too long to be
    /// a coordinate, a latitude without its longitude, more points than allowed, and a point
    /// off the map, which is what a precision-6 polyline read at precision 5 gives anywhere
    /// farther than 9 degrees of latitude or 18 of longitude from (0, 0).
    public static func decode(_ text: Substring, precision: Int, maximumPoints: Int = RouteLine.maximumPoints) throws(Invalid) -> [Coordinate] {
        precondition(precisions.contains(precision), "precision \(precision) is not 5 or 6")
        let scale = precision == 5 ? 1e5 : 1e6
        var points: [Coordinate] = []
        var bytes = text.utf8.makeIterator()
        var position = 0
        var latitude = 0, longitude = 0

        /// The next value, or nil at the end of the text; throws if the text ends inside one.
        func nextValue() throws(Invalid) -> Int? {
            var result = 0, shift = 0
            while true {
                guard let byte = bytes.next() else {
                    if shift == 0 { return nil }
                    throw Invalid(description: "ends in the middle of a value, after \(position) characters")
                }
                position += 1
                guard (63...126).contains(byte) else {
                    let shown = (32...126).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
                    throw Invalid(description: "character \(position) (\(shown)) is not part of an encoded polyline, whose characters run from ? to ~")
                }
                let chunk = Int(byte) - 63
                result |= (chunk & 0x1F) << shift
                shift += 5
                guard shift <= 35 else { throw Invalid(description: "character \(position) continues a value beyond any coordinate") }
                if chunk < 0x20 { break }
            }
            return result & 1 == 1 ? ~(result >> 1) : result >> 1
        }

        while let latitudeDelta = try nextValue() {
            guard let longitudeDelta = try nextValue() else {
                throw Invalid(description: "ends after a latitude with no longitude (point \(points.count + 1))")
            }
            latitude += latitudeDelta
            longitude += longitudeDelta
            guard points.count < maximumPoints else { throw Invalid(description: "has more than \(maximumPoints) points; allowed at most \(maximumPoints)") }
            let point = Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
            guard WebMercator.inputLatitudeRange.contains(point.latitude), WebMercator.longitudeRange.contains(point.longitude) else {
                let hint = precision == 5 ? "; a polyline written at precision 6 reads like this at 5, so give it as enc6:" : ""
                throw Invalid(description: "point \(points.count + 1) is \(point.latitude),\(point.longitude), off the map\(hint)")
            }
            points.append(point)
        }
        return points
    }

    /// `points` encoded at `precision`, each rounded to it.
    public static func encode(_ points: [Coordinate], precision: Int) -> String {
        precondition(precisions.contains(precision), "precision \(precision) is not 5 or 6")
        let scale = precision == 5 ? 1e5 : 1e6
        var text = ""
        var previous = (latitude: 0, longitude: 0)
        func append(_ delta: Int) {
            var value = delta < 0 ? ~(delta << 1) : delta << 1
            while value >= 0x20 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8((value & 0x1F) | 0x20) + 63))
                value >>= 5
            }
            text.unicodeScalars.append(Unicode.Scalar(UInt8(value) + 63))
        }
        for point in points {
            let latitude = Int((point.latitude * scale).rounded()), longitude = Int((point.longitude * scale).rounded())
            append(latitude - previous.latitude)
            append(longitude - previous.longitude)
            previous = (latitude, longitude)
        }
        return text
    }
}
