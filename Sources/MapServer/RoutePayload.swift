import Foundation
import HTTPTypes
import MapGeometry
import Screens
import StrictJSON

/// Turns a `POST /routes` body into a route line, by its Content-Type: CycleStreets journey XML
/// (`application/xml`, `text/xml`), GPX (`application/gpx+xml`) or GeoJSON (`application/geo+json`,
/// `application/json`). GPX and GeoJSON routes may have several parts.
enum RoutePayload {
    static let acceptedTypes = ["application/xml", "text/xml", "application/gpx+xml", "application/geo+json", "application/json"]

    static func parse(_ body: Data, contentType: String?, maxBytes: Int) throws(HTTPProblem) -> RouteLine {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        do {
            switch mediaType {
            case "application/gpx+xml":
                return try GPXParser.parse(body, maxBytes: maxBytes)
            case "application/xml", "text/xml":
                return try JourneyXMLParser.parse(body, maxBytes: maxBytes).routeLine
            case "application/geo+json", "application/json":
                return try GeoJSONParser.parse(body, maxBytes: maxBytes)
            default:
                throw HTTPProblem(
                    status: .unsupportedMediaType,
                    message: "Content-Type '\(mediaType)' is not supported; send one of \(acceptedTypes.joined(separator: ", "))"
                )
            }
        } catch let error as PayloadError {
            throw problem(for: error)
        } catch let error as HTTPProblem {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
    }

    /// Malformed documents are 400; documents that parse but hold no usable route are 422.
    private static func problem(for error: PayloadError) -> HTTPProblem {
        switch error {
        case .tooLarge:
            return HTTPProblem(status: .contentTooLarge, message: error.description)
        case .doctypeNotAllowed, .notXMLOrJSON, .malformedXML, .unexpectedRoot:
            return .badRequest(error.description)
        case .json(let problem) where problem.path.isEmpty:
            return .badRequest(error.description)
        case .json, .apiError, .missing, .invalid, .tooFewPoints, .tooManyPoints, .noLine:
            return .unprocessable(error.description)
        }
    }
}
