import Foundation
import MapGeometry
import StrictJSON

/// Reads an answer of the Google Directions API (`/maps/api/directions/json`) as a route line
/// of one part:
///
/// ```json
/// {"geocoded_waypoints": [...],
///  "routes": [{"bounds": {...}, "legs": [{"steps": [{"polyline": {"points": "kvp}Hc`Z..."}, ...}], ...}],
///              "overview_polyline": {"points": "kvp}Hc`Z...|@\\Ra@"}, "summary": "Mill Road", ...}],
///  "status": "OK"}
/// ```
///
/// The line is the first route's `overview_polyline.points`, an encoded polyline at precision 5,
/// as Google always writes it (the JSON escapes any `\` in it as `\\`). Without an overview, the
/// steps' polylines (`legs[].steps[].polyline.points`) are joined in order instead: each step
/// begins where the one before ends. A `status` other than `"OK"`, such as `ZERO_RESULTS` or
/// `REQUEST_DENIED`, is `PayloadError.serviceError` with the answer's `error_message`. Errors
/// name the JSON path, such as `routes[0].overview_polyline.points`.
public enum GoogleDirectionsParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        try route(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "Google Directions answer"))
    }

    /// The service, as an error answer names it.
    static let service = "Google Directions"

    /// The route in a parsed answer.
    static func route(in document: JSONValue) throws(PayloadError) -> RouteLine {
        let (root, status) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let root = try JSONObjectReader(document, path: "")
            return (root, try RoutingAnswers.text("status", of: root, expected: #"the answer's status, such as "OK""#))
        }
        guard status == "OK" else {
            let message = try JSONPayloadReader.fields { () throws(JSONFieldError) in try root.string("error_message") }
            throw .serviceError(service: service, status: status, message: message ?? "")
        }
        let route = try JSONPayloadReader.fields { () throws(JSONFieldError) in try RoutingAnswers.first("routes", of: root, items: "routes") }
        let overview = try JSONPayloadReader.fields { () throws(JSONFieldError) -> (text: String, path: String)? in
            guard let overview = try route.object("overview_polyline") else { return nil }
            return (try RoutingAnswers.text("points", of: overview, expected: "an encoded polyline"), overview.path(of: "points"))
        }
        if let overview {
            return try RouteLine.checked(RoutingAnswers.polyline(overview.text, path: overview.path, precision: 5), field: overview.path)
        }
        return try RouteLine.checked(stepLines(of: route), field: route.path(of: "legs"))
    }

    /// The polylines of every step of every leg, joined in order.
    private static func stepLines(of route: JSONObjectReader) throws(PayloadError) -> [Coordinate] {
        let legs = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            try RoutingAnswers.items("legs", of: route, items: "legs (or an overview_polyline)")
        }
        var pieces: [[Coordinate]] = []
        for (legIndex, legValue) in legs.enumerated() {
            let (leg, steps) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                let leg = try JSONObjectReader(legValue, path: "\(route.path(of: "legs"))[\(legIndex)]")
                return (leg, try RoutingAnswers.items("steps", of: leg, items: "steps"))
            }
            for (stepIndex, stepValue) in steps.enumerated() {
                let (text, path) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                    let step = try JSONObjectReader(stepValue, path: "\(leg.path(of: "steps"))[\(stepIndex)]")
                    let polyline = try step.requiredObject("polyline")
                    return (try RoutingAnswers.text("points", of: polyline, expected: "an encoded polyline"), polyline.path(of: "points"))
                }
                pieces.append(try RoutingAnswers.polyline(text, path: path, precision: 5))
            }
        }
        return RouteLine.joined(pieces)
    }
}
