import Foundation
import MapGeometry
import StrictJSON

/// Reads an answer of GraphHopper's routing API (`/route`) as a route line of one part, the
/// first path's `points`:
///
/// ```json
/// {"hints": {...}, "info": {"copyrights": ["GraphHopper", "OpenStreetMap contributors"], "took": 4},
///  "paths": [{"distance": 556.3, "time": 143200, "points_encoded": true, "points_encoded_multiplier": 1e5,
///             "bbox": [0.13962, 52.20557, 0.14288, 52.20926], "points": "kvp}Hc`Z...",
///             "snapped_waypoints": "kvp}Hc`Z...", "instructions": [...], ...}]}
/// ```
///
/// The points are an encoded polyline (`points_encoded`, the default), at precision 5 unless
/// `points_encoded_multiplier` says 1e6; or, asked for with `points_encoded=false`, a GeoJSON
/// LineString. Asked for with `elevation=true`, each encoded point carries a third value, its
/// elevation, which is read and not kept. The answer does not say which it is (GraphHopper's own
/// client is told by its request), so both readings are tried against `snapped_waypoints`,
/// encoded the same way: the route runs from the first snapped waypoint to the last, and the
/// reading under which both polylines begin and end together is taken. When neither or both do,
/// or there are no snapped waypoints, the points are read without elevations if they can be.
///
/// An error answer, `{"message": "Cannot find point 0: 52.2,0.14", "hints": [...]}`, is
/// `PayloadError.serviceError`. Other paths, instructions and details are passed over. Errors
/// name the JSON path, such as `paths[0].points`.
public enum GraphHopperRouteParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        try route(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "GraphHopper answer"))
    }

    /// The service, as an error answer names it.
    static let service = "GraphHopper"

    /// The route in a parsed answer.
    static func route(in document: JSONValue) throws(PayloadError) -> RouteLine {
        let root = try JSONPayloadReader.fields { () throws(JSONFieldError) in try JSONObjectReader(document, path: "") }
        guard root.has("paths") else {
            let message = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                try RoutingAnswers.text("message", of: root, expected: "the paths found, or an error answer's message")
            }
            throw .serviceError(service: service, status: nil, message: message)
        }
        let (path, points, encoded) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let path = try RoutingAnswers.first("paths", of: root, items: "paths")
            let points = try path.required("points", expected: "the path's line, an encoded polyline or a GeoJSON LineString")
            return (path, points, try path.bool("points_encoded"))
        }
        let pointsPath = path.path(of: "points")
        switch points {
        case .string(let text) where encoded != false:
            let (precision, waypoints) = try JSONPayloadReader.fields { () throws(JSONFieldError) -> (Int, String?) in
                (try multiplierPrecision(of: path), try path.string("snapped_waypoints"))
            }
            let waypointsPath = path.path(of: "snapped_waypoints")
            let points = try line(text, path: pointsPath, precision: precision, waypoints: waypoints.map { ($0, waypointsPath) })
            return try RouteLine.checked(points, field: pointsPath)
        case .object where encoded != true:
            let line = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                try RoutingAnswers.lineString(JSONObjectReader(points, path: pointsPath))
            }
            return try RouteLine.checked(line, field: pointsPath)
        default:
            let allowed = switch encoded {
            case true?: "an encoded polyline, as points_encoded says"
            case false?: "a GeoJSON LineString, as points_encoded says"
            case nil: "an encoded polyline or a GeoJSON LineString"
            }
            throw .json(JSONFieldError(path: pointsPath, value: points, allowed: allowed))
        }
    }

    /// The precision `points_encoded_multiplier` gives: 5 (1e5, the default) or 6 (1e6).
    private static func multiplierPrecision(of path: JSONObjectReader) throws(JSONFieldError) -> Int {
        guard let value = path.fields["points_encoded_multiplier"] else { return 5 }
        switch value {
        case .number(1e5): return 5
        case .number(1e6): return 6
        default: throw JSONFieldError(path: path.path(of: "points_encoded_multiplier"), value: value, allowed: "100000 or 1000000")
        }
    }

    /// The points of the polyline `text`, with or without elevations as the snapped waypoints
    /// (`waypoints`, with their path) tell.
    private static func line(
        _ text: String, path: String, precision: Int, waypoints: (text: String, path: String)?
    ) throws(PayloadError) -> [Coordinate] {
        let readings = [false, true].map { elevations in
            (try? RoutingAnswers.polyline(text, path: path, precision: precision, elevations: elevations),
             waypoints.flatMap { try? RoutingAnswers.polyline($0.text, path: $0.path, precision: precision, elevations: elevations) })
        }
        let tolerance = precision == 5 ? 2e-5 : 2e-6
        func near(_ a: Coordinate?, _ b: Coordinate?) -> Bool {
            guard let a, let b else { return false }
            return abs(a.latitude - b.latitude) <= tolerance && abs(a.longitude - b.longitude) <= tolerance
        }
        let fitting = readings.compactMap { points, waypoints -> [Coordinate]? in
            guard let points, let waypoints, near(points.first, waypoints.first), near(points.last, waypoints.last) else { return nil }
            return points
        }
        if fitting.count == 1 { return fitting[0] }
        if let points = readings[0].0 ?? readings[1].0 { return points }
        // Neither reading works: the error is the one without elevations.
        return try RoutingAnswers.polyline(text, path: path, precision: precision)
    }
}
