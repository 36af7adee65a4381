import Foundation
import MapGeometry
import StrictJSON

/// Reads an answer of OSRM's route service (`/route/v1/...`) as a route line of one part: the
/// first route's overview `geometry`. Mapbox Directions (`/directions/v5/...`) answers in the
/// same format, with members of its own beside OSRM's (`uuid`, `voiceLocale`, ...), and is read
/// by the same rules; so are Valhalla's OSRM-compatible answers (`format=osrm`).
///
/// ```json
/// {"code": "Ok",
///  "routes": [{"geometry": "wkt}Hk`Z...", "legs": [{"steps": [], "annotation": {...}, ...}],
///              "distance": 556.3, "duration": 143.2, "weight_name": "routability", "weight": 143.2}],
///  "waypoints": [{"hint": "...", "distance": 3.2, "name": "Thoday Street", "location": [0.14144, 52.20557]}, ...]}
/// ```
///
/// A `code` other than `"Ok"` is the service's refusal, `PayloadError.serviceError` naming the
/// code and `message`, such as `NoRoute` or `InvalidQuery`. The geometry is what the request's
/// `geometries` asked for: `polyline` (the default, precision 5), `polyline6` (precision 6) or
/// `geojson` (a LineString). A polyline alone does not say its precision, and Valhalla's
/// OSRM-compatible answers use 6 by default, so it is read at both: the route starts where the
/// first waypoint was snapped to the roads (`waypoints[0].location`), and the precision under
/// which the line starts nearer that point is taken. An answer without waypoints is read at 5
/// unless its points fall off the map there, as a precision-6 polyline's do anywhere beyond
/// 8.5 degrees of latitude or 18 of longitude from (0, 0).
///
/// Alternative routes, legs, steps and annotations are passed over. An answer asked for with
/// `overview=false` has no geometry and is refused. Errors name the JSON path, such as
/// `routes[0].geometry`.
public enum OSRMRouteParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        try route(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "OSRM answer"))
    }

    /// The services whose answers these are, as an error answer names them.
    static let service = "OSRM or Mapbox Directions"

    /// The route in a parsed answer.
    static func route(in document: JSONValue) throws(PayloadError) -> RouteLine {
        let (root, code) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let root = try JSONObjectReader(document, path: "")
            return (root, try RoutingAnswers.text("code", of: root, expected: #"the answer's code, such as "Ok""#))
        }
        guard code == "Ok" else {
            let message = try JSONPayloadReader.fields { () throws(JSONFieldError) in try root.string("message") }
            throw .serviceError(service: service, status: code, message: message ?? "")
        }
        let (geometry, path, start) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let route = try RoutingAnswers.first("routes", of: root, items: "routes")
            let geometry = try route.required(
                "geometry", expected: "the route's line, an encoded polyline or a GeoJSON LineString (there is none when asked for with overview=false)"
            )
            return (geometry, route.path(of: "geometry"), try startingPoint(root))
        }
        let points: [Coordinate]
        switch geometry {
        case .string(let text):
            points = try RoutingAnswers.polyline(text, path: path, preferred: 5, start: start)
        case .object:
            points = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                try RoutingAnswers.lineString(JSONObjectReader(geometry, path: path))
            }
        default:
            throw .json(JSONFieldError(path: path, value: geometry, allowed: "an encoded polyline or a GeoJSON LineString"))
        }
        return try RouteLine.checked(points, field: path)
    }

    /// Where the first waypoint was snapped to the roads, where the route starts; nil when the
    /// answer lists no waypoints.
    private static func startingPoint(_ root: JSONObjectReader) throws(JSONFieldError) -> Coordinate? {
        guard let waypoints = try root.array("waypoints"), let first = waypoints.first else { return nil }
        let waypoint = try JSONObjectReader(first, path: root.path(of: "waypoints") + "[0]")
        return try RoutingAnswers.position("location", of: waypoint)
    }
}
