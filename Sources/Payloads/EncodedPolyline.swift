import MapGeometry

/// Google's encoded polyline format: each point's latitude and longitude as differences from
/// the point before, scaled by 10^precision, zig-zag signed, and written five bits to a
/// character from `?` (63) to `~` (126). Google, TileServer GL, MapTiler, GraphHopper, and OSRM
/// and Mapbox by default write it at precision 5; Valhalla, and OSRM and Mapbox asked for
/// `polyline6`, at precision 6
/// (https://developers.google.com/maps/documentation/utilities/polylinealgorithm). GraphHopper
/// may add a third value to each point, its elevation (`decode(_:precision:elevations:)`).
///
/// No mirrored Swift package reads the format, and reading it is the short loop below.
public enum EncodedPolyline {
    /// The two precisions in use: 5 (1.1 m at the equator) and 6.
    public static let precisions: ClosedRange<Int> = 5...6

    /// A polyline that cannot be read, saying where and why.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        /// Where and why, such as "character 6 (' ') is not part of an encoded polyline, ...".
        public let reason: String
        /// How a scene's `enc:` path might be written instead, when there is a likely mistake:
        /// a polyline of precision 6 read at 5. Readers of other payloads leave it out.
        public let hint: String?

        init(_ reason: String, hint: String? = nil) {
            self.reason = reason
            self.hint = hint
        }

        public var description: String { hint.map { "\(reason); \($0)" } ?? reason }
    }

    /// The points `text` encodes at `precision` (5 or 6), at most `maximumPoints` of them.
    ///
    /// With `elevations`, each point carries a third value after its longitude, as GraphHopper
    /// writes with `elevation=true`: the height in centimetres (metres × 100, whatever the
    /// precision), also as a difference from the point before. It is read and not kept.
    ///
    /// Refused: a character outside the format's alphabet, a value cut off or too long to be
    /// a coordinate, a point without all its values, more points than allowed, and a point
    /// off the map, which is what a precision-6 polyline read at precision 5 gives anywhere
    /// farther than 8.5 degrees of latitude or 18 of longitude from (0, 0).
    public static func decode(
        _ text: Substring, precision: Int, elevations: Bool = false, maximumPoints: Int = RouteLine.maximumPoints
    ) throws(Invalid) -> [Coordinate] {
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
                    throw Invalid("ends in the middle of a value, after \(position) characters")
                }
                position += 1
                guard (63...126).contains(byte) else {
                    let shown = (32...126).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
                    throw Invalid("character \(position) (\(shown)) is not part of an encoded polyline, whose characters run from ? to ~")
                }
                let chunk = Int(byte) - 63
                result |= (chunk & 0x1F) << shift
                shift += 5
                guard shift <= 35 else { throw Invalid("character \(position) continues a value beyond any coordinate") }
                if chunk < 0x20 { break }
            }
            return result & 1 == 1 ? ~(result >> 1) : result >> 1
        }

        while let latitudeDelta = try nextValue() {
            guard let longitudeDelta = try nextValue() else {
                throw Invalid("ends after a latitude with no longitude (point \(points.count + 1))")
            }
            if elevations, try nextValue() == nil {
                throw Invalid("ends after a longitude with no elevation (point \(points.count + 1))")
            }
            latitude += latitudeDelta
            longitude += longitudeDelta
            guard points.count < maximumPoints else { throw Invalid("has more than \(maximumPoints) points; allowed at most \(maximumPoints)") }
            let point = Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
            guard WebMercator.inputLatitudeRange.contains(point.latitude), WebMercator.longitudeRange.contains(point.longitude) else {
                let hint = precision == 5 ? "a polyline written at precision 6 reads like this at 5, so give it as enc6:" : nil
                throw Invalid("point \(points.count + 1) is \(point.latitude),\(point.longitude), off the map", hint: hint)
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
