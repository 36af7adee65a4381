import Foundation
import HTTPTypes
import MapGeometry
import Payloads
import StrictJSON

/// Turns a `POST /routes` body into a route line. The Content-Type must be one MapFrame takes
/// (XML: `application/xml`, `text/xml`, `application/gpx+xml`,
/// `application/vnd.google-earth.kml+xml`, `application/vnd.garmin.tcx+xml`; JSON:
/// `application/json`, `application/geo+json`), but the body's content alone says which format
/// it is (`RouteParser`): CycleStreets journey XML or JSON, GPX, KML, TCX, GeoJSON, or an OSRM,
/// Mapbox, Valhalla, Google Directions or GraphHopper answer.
enum RoutePayload {
    static let acceptedTypes = [
        "application/xml", "text/xml", "application/gpx+xml", "application/vnd.google-earth.kml+xml", "application/vnd.garmin.tcx+xml",
        "application/geo+json", "application/json",
    ]

    static func parse(_ body: Data, contentType: String?, maxBytes: Int) throws(HTTPProblem) -> RouteLine {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard acceptedTypes.contains(mediaType) else {
            throw HTTPProblem(
                status: .unsupportedMediaType,
                message: "Content-Type '\(mediaType)' is not supported; send one of \(acceptedTypes.joined(separator: ", "))"
            )
        }
        do {
            return try RouteParser.parse(body, maxBytes: maxBytes)
        } catch {
            throw problem(for: error)
        }
    }

    /// Malformed documents are 400; documents that parse but hold no usable route are 422.
    private static func problem(for error: PayloadError) -> HTTPProblem {
        switch error {
        case .tooLarge:
            return HTTPProblem(status: .contentTooLarge, message: error.description)
        case .doctypeNotAllowed, .notXMLOrJSON, .malformedXML, .unexpectedRoot, .tooManyAttributes:
            return .badRequest(error.description)
        case .json(let problem) where problem.path.isEmpty:
            return .badRequest(error.description)
        case .json, .apiError, .serviceError, .missing, .invalid, .tooFewPoints, .tooManyPoints, .noLine:
            return .unprocessable(error.description)
        }
    }
}
