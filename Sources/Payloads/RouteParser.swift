import Foundation
import MapGeometry
import StrictJSON

/// Reads a route from any format MapFrame takes, told apart by its content alone, never by a
/// file name or Content-Type:
///
/// - XML (`PayloadNotation`) whose root is `<gpx>`: a GPX file (`GPXParser`);
/// - XML whose root is `<kml>`: a KML file (`KMLParser`);
/// - XML whose root is `<TrainingCenterDatabase>`: a Garmin TCX file (`TCXParser`);
/// - XML whose root is `<markers>`: a CycleStreets `journey.xml` (`JourneyXMLParser`);
/// - JSON with a `type` member: GeoJSON (`GeoJSONParser`); other JSON is told by its root's
///   members, in this order:
/// - `marker`: a CycleStreets `journey.json` (`JourneyJSONParser`);
/// - `code`: an OSRM or Mapbox Directions answer (`OSRMRouteParser`);
/// - `trip`, or `error_code` (its error answer): a Valhalla answer (`ValhallaRouteParser`);
/// - `routes` and `status`: a Google Directions answer (`GoogleDirectionsParser`);
/// - `paths`, or `message` and `hints` (its error answer): a GraphHopper answer
///   (`GraphHopperRouteParser`).
///
/// JSON that is none of these is refused naming every kind. A CycleStreets error answer in
/// either notation is `PayloadError.apiError`; a routing service's error answer is
/// `PayloadError.serviceError`.
///
/// A journey gives its route line; its stages are not needed to draw a route.
public enum RouteParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        switch try PayloadNotation.of(data) {
        case .xml:
            let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
            try root.rejectingAPIError()
            switch root.name {
            case "gpx": return try GPXParser.route(in: root)
            case "kml": return try KMLParser.route(in: root)
            case TCXParser.rootName: return try TCXParser.route(in: root)
            case "markers": return try JourneyXMLParser.journey(in: root).routeLine
            default: throw .unexpectedRoot(found: root.name, expected: ["gpx", "kml", TCXParser.rootName, "markers"])
            }
        case .json:
            let document = try JSONPayloadReader.document(of: data, maxBytes: maxBytes, documentName: "route")
            guard case .object(let fields) = document, fields["type"] == nil else {
                return try GeoJSONParser.route(in: document)
            }
            // Valhalla's error answer has an `error` member too, which is not CycleStreets'.
            if fields["error_code"] != nil { return try ValhallaRouteParser.route(in: document) }
            try JSONPayloadReader.rejectingAPIError(document)
            switch JSONRouteKind(members: fields) {
            case .journey: return try JourneyJSONParser.journey(in: document).routeLine
            case .osrm: return try OSRMRouteParser.route(in: document)
            case .valhalla: return try ValhallaRouteParser.route(in: document)
            case .google: return try GoogleDirectionsParser.route(in: document)
            case .graphHopper: return try GraphHopperRouteParser.route(in: document)
            case nil:
                let types = GeoJSONObjects.listing(GeoJSONParser.documentTypes.map { "\"\($0)\"" })
                throw .json(JSONFieldError(path: "type", value: nil, allowed: "a GeoJSON type, \(types); or \(JSONRouteKind.listing)"))
            }
        }
    }
}

/// The JSON formats other than GeoJSON, told apart by the members of the root object.
private enum JSONRouteKind: CaseIterable {
    case journey, osrm, valhalla, google, graphHopper

    init?(members: [String: JSONValue]) {
        guard let kind = Self.allCases.first(where: { $0.isMarked(by: members) }) else { return nil }
        self = kind
    }

    private func isMarked(by members: [String: JSONValue]) -> Bool {
        switch self {
        case .journey: members["marker"] != nil
        case .osrm: members["code"] != nil
        case .valhalla: members["trip"] != nil
        case .google: members["routes"] != nil && members["status"] != nil
        case .graphHopper: members["paths"] != nil || (members["message"] != nil && members["hints"] != nil)
        }
    }

    /// What marks each kind, for the refusal of JSON that is none of them.
    static let listing = GeoJSONObjects.listing([
        #"a CycleStreets journey's "marker""#, #"an OSRM or Mapbox Directions answer's "code""#, #"a Valhalla answer's "trip""#,
        #"a Google Directions answer's "routes" and "status""#, #"a GraphHopper answer's "paths""#,
    ])
}
