import Foundation
import MapGeometry

/// Reads a GPX 1.1 (or 1.0) file as a route line of one part per track segment
/// (`trk/trkseg/trkpt`) and per route (`rte/rtept`), in document order. Nothing joins one part
/// to the next: a track of two segments has a gap between them, and is drawn with one.
///
/// Elements are matched by local name, so the default GPX namespace and prefixed documents
/// (`<gpx:trkpt>`) read alike. Each point needs `lat` and `lon` attributes; waypoints (`wpt`),
/// elevations, times and extensions are ignored. Each route needs at least two points. A track
/// segment of fewer, which a device writes when it stops recording just after starting again,
/// is passed over when the rest of the file has a line; when it has none, the first such
/// segment is what is refused. Errors name the point or part, such as
/// `trk[1]/trkseg[2]/trkpt[5]@lat` or `trk[2]/trkseg[1]`.
public enum GPXParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        guard root.name == "gpx" else { throw .unexpectedRoot(found: root.name, expected: ["gpx"]) }
        return try route(in: root)
    }

    /// The route in a parsed `<gpx>` document.
    static func route(in root: ParsedXMLElement) throws(PayloadError) -> RouteLine {
        var parts: [[Coordinate]] = []
        var shortSegment: PayloadError?
        var trackCount = 0, routeCount = 0
        for child in root.children {
            switch child.name {
            case "trk":
                trackCount += 1
                for (index, segment) in child.children(named: "trkseg").enumerated() {
                    let label = "trk[\(trackCount)]/trkseg[\(index + 1)]"
                    let segmentPoints = try points(segment.children(named: "trkpt"), label: "\(label)/trkpt")
                    guard segmentPoints.count >= RouteLine.minimumPointsPerPart else {
                        shortSegment = shortSegment ?? .tooFewPoints(field: label, count: segmentPoints.count, minimum: RouteLine.minimumPointsPerPart)
                        continue
                    }
                    parts.append(segmentPoints)
                }
            case "rte":
                routeCount += 1
                let label = "rte[\(routeCount)]"
                parts.append(try RouteLine.checkedPart(points(child.children(named: "rtept"), label: "\(label)/rtept"), field: label))
            default:
                continue
            }
        }
        if parts.isEmpty, let shortSegment { throw shortSegment }
        return try RouteLine.checked(parts: parts, field: "gpx (trkpt and rtept)")
    }

    private static func points(_ elements: [ParsedXMLElement], label: String) throws(PayloadError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let pointLabel = "\(label)[\(index + 1)]"
            let latitude = try element.attribute("lat", of: pointLabel, expected: "a latitude")
            let longitude = try element.attribute("lon", of: pointLabel, expected: "a longitude")
            coordinates.append(Coordinate(
                latitude: try PayloadValues.latitude(latitude, field: "\(pointLabel)@lat"),
                longitude: try PayloadValues.longitude(longitude, field: "\(pointLabel)@lon")
            ))
        }
        return coordinates
    }
}
