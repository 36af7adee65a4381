import Foundation
import MapGeometry
import StrictJSON

/// Reads a route from any format MapFrame takes, told apart by its content alone, never by a
/// file name or Content-Type:
///
/// - XML (`PayloadNotation`) whose root is `<gpx>`: a GPX file (`GPXParser`);
/// - XML whose root is `<markers>`: a CycleStreets `journey.xml` (`JourneyXMLParser`);
/// - JSON with a `marker` member and no `type`: a CycleStreets `journey.json` (`JourneyJSONParser`);
/// - other JSON: GeoJSON (`GeoJSONParser`).
///
/// A CycleStreets error answer in either notation is `PayloadError.apiError`.
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
            case "markers": return try JourneyXMLParser.journey(in: root).routeLine
            default: throw .unexpectedRoot(found: root.name, expected: ["gpx", "markers"])
            }
        case .json:
            let document = try JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "route")
            guard case .object(let fields) = document, fields["type"] == nil else {
                return try GeoJSONParser.route(in: document)
            }
            guard fields["marker"] != nil else {
                let types = GeoJSONObjects.listing(GeoJSONParser.documentTypes.map { "\"\($0)\"" })
                throw .json(JSONFieldError(path: "type", value: nil, allowed: "a GeoJSON type, \(types); or a CycleStreets journey's \"marker\""))
            }
            return try JourneyJSONParser.journey(in: document).routeLine
        }
    }
}
