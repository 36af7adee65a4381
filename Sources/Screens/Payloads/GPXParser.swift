import Foundation
import MapGeometry

/// Reads a GPX 1.1 (or 1.0) file as a route line: the points of every track segment
/// (`trk/trkseg/trkpt`) and every route (`rte/rtept`), in document order, joined into one line.
///
/// Elements are matched by local name, so the default GPX namespace and prefixed documents
/// (`<gpx:trkpt>`) read alike. Each point needs `lat` and `lon` attributes; waypoints (`wpt`),
/// elevations, times and extensions are ignored. Errors name the point, such as
/// `trk[1]/trkseg[2]/trkpt[5]@lat`.
public enum GPXParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        guard root.name == "gpx" else { throw .unexpectedRoot(found: root.name, expected: "gpx") }
        var coordinates: [Coordinate] = []
        var trackCount = 0, routeCount = 0
        for child in root.children {
            switch child.name {
            case "trk":
                trackCount += 1
                for (index, segment) in child.children(named: "trkseg").enumerated() {
                    let label = "trk[\(trackCount)]/trkseg[\(index + 1)]"
                    coordinates += try points(segment.children(named: "trkpt"), label: "\(label)/trkpt")
                }
            case "rte":
                routeCount += 1
                coordinates += try points(child.children(named: "rtept"), label: "rte[\(routeCount)]/rtept")
            default:
                continue
            }
        }
        return try RouteLine.checked(coordinates, field: "gpx (trkpt and rtept)")
    }

    private static func points(_ elements: [ParsedXMLElement], label: String) throws(PayloadError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
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
