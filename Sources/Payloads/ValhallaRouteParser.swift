import Foundation
import MapGeometry
import StrictJSON

/// Reads an answer of Valhalla's route service in its own format (`/route`, not `format=osrm`,
/// which `OSRMRouteParser` reads) as a route line of one part:
///
/// ```json
/// {"trip": {"locations": [{"type": "break", "lat": 52.20557, "lon": 0.14144}, ...],
///           "legs": [{"maneuvers": [...], "summary": {...}, "shape": "mdjjbBo}pG..."}, ...],
///           "summary": {...}, "status_message": "Found route between points", "status": 0,
///           "units": "kilometers", "language": "en-GB"}}
/// ```
///
/// Each leg's `shape` is an encoded polyline at precision 6, as Valhalla always writes it. The
/// legs are joined into one part, in order: each leg begins where the one before ends, at a
/// location the route was asked to pass, and a route through a location is one line. A `trip`
/// whose `status` is not 0 and an error answer, `{"error_code": 171, "error": "No suitable
/// edges near location", "status_code": 400, "status": "Bad Request"}`, are
/// `PayloadError.serviceError`. Errors name the JSON path, such as `trip.legs[1].shape`.
public enum ValhallaRouteParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        try route(in: JSONPayloadReader.document(of: data, maxBytes: maxBytes, documentName: "Valhalla answer"))
    }

    /// The service, as an error answer names it.
    static let service = "Valhalla"

    /// The route in a parsed answer, which may be an error answer.
    static func route(in document: JSONValue) throws(PayloadError) -> RouteLine {
        let root = try JSONPayloadReader.fields { () throws(JSONFieldError) in try JSONObjectReader(document, path: "") }
        if root.has("error_code") {
            let (code, message) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                (try root.requiredInteger("error_code", in: 0...99_999), try root.string("error"))
            }
            throw .serviceError(service: service, status: String(code), message: message ?? "")
        }
        let trip = try JSONPayloadReader.fields { () throws(JSONFieldError) in try root.requiredObject("trip") }
        let status = try JSONPayloadReader.fields { () throws(JSONFieldError) in try trip.integer("status", in: -99_999...99_999) }
        if let status, status != 0 {
            let message = try JSONPayloadReader.fields { () throws(JSONFieldError) in try trip.string("status_message") }
            throw .serviceError(service: service, status: String(status), message: message ?? "")
        }
        let legs = try JSONPayloadReader.fields { () throws(JSONFieldError) in try RoutingAnswers.items("legs", of: trip, items: "legs") }
        var pieces: [[Coordinate]] = []
        pieces.reserveCapacity(legs.count)
        for (index, value) in legs.enumerated() {
            let (shape, path) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                let leg = try JSONObjectReader(value, path: "\(trip.path(of: "legs"))[\(index)]")
                return (try RoutingAnswers.text("shape", of: leg, expected: "the leg's line, an encoded polyline at precision 6"), leg.path(of: "shape"))
            }
            pieces.append(try RouteLine.checkedPart(RoutingAnswers.polyline(shape, path: path, precision: 6), field: path))
        }
        return try RouteLine.checked(RouteLine.joined(pieces), field: trip.path(of: "legs"))
    }
}
