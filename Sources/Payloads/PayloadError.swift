import StrictJSON

/// Why a payload was refused: a CycleStreets answer, a route file (GPX, KML, TCX, GeoJSON) or a
/// routing service's answer (OSRM, Mapbox, Valhalla, Google Directions, GraphHopper).
///
/// Every case that concerns one value names where it sits as `field`: an element and attribute
/// (`marker[type=route]@coordinates`), an element path (`result[2]/latitude`) or a JSON path
/// (`geometry.coordinates[3]`, `marker[1].@attributes.points`).
public enum PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload is larger than the size limit; it was not parsed.
    case tooLarge(bytes: Int, limit: Int)
    /// The document declares a DOCTYPE (a DTD), which could define entities; it was not parsed.
    case doctypeNotAllowed
    /// The bytes are neither XML nor JSON, told by their first byte that is not white space;
    /// `found` says what they are instead, such as "an empty document".
    case notXMLOrJSON(found: String)
    /// The bytes are not well-formed XML; `message` is libxml2's own explanation.
    case malformedXML(message: String)
    /// A JSON payload that is malformed, or has a field that is missing or not allowed.
    /// The problem names the JSON path, the value and what is allowed.
    case json(JSONFieldError)
    /// The document's root is none of the ones this payload may have.
    case unexpectedRoot(found: String, expected: [String])
    /// The CycleStreets API answered with an error (an `<error>` element, or an `"error"`
    /// member in JSON) instead of data.
    case apiError(message: String)
    /// A routing service (OSRM, Mapbox, Valhalla, Google Directions, GraphHopper) answered with
    /// an error instead of a route: `status` is its code, such as `NoRoute` or `ZERO_RESULTS`,
    /// when it gives one, and `message` its explanation, empty when it gives none.
    case serviceError(service: String, status: String?, message: String)
    /// A document holds no line to make a route of; `found` says what it holds, such as "a
    /// FeatureCollection of 3 Point features", and `wanted` what would have made one.
    case noLine(field: String, found: String, wanted: String = "LineString or MultiLineString")
    /// A required element or attribute is absent.
    case missing(field: String, expected: String)
    /// A value is present but not allowed.
    case invalid(field: String, value: String, expected: String)
    /// A list of points is shorter than it must be, such as an empty route.
    case tooFewPoints(field: String, count: Int, minimum: Int)
    /// A list of points is longer than allowed.
    case tooManyPoints(field: String, count: Int, maximum: Int)
    /// An element, or the whole document when `element` is nil, has more attributes than
    /// allowed (`XMLAttributeBudget`); it was not parsed.
    case tooManyAttributes(element: String?, maximum: Int)

    /// The element, attribute or JSON path the error concerns, when it concerns one.
    public var field: String? {
        switch self {
        case .missing(let field, _), .invalid(let field, _, _), .tooFewPoints(let field, _, _), .tooManyPoints(let field, _, _),
             .noLine(let field, _, _): field
        case .tooManyAttributes(let element, _): element
        case .json(let problem): problem.path.isEmpty ? nil : problem.path
        case .tooLarge, .doctypeNotAllowed, .notXMLOrJSON, .malformedXML, .unexpectedRoot, .apiError, .serviceError: nil
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "payload: \(bytes) bytes is more than the limit of \(limit) bytes"
        case .doctypeNotAllowed:
            "payload: a DOCTYPE is not allowed (DTDs and entities are refused)"
        case .notXMLOrJSON(let found):
            "payload: \(found) is neither XML nor JSON"
        case .malformedXML(let message):
            "payload: not well-formed XML: \(message)"
        case .json(let problem):
            problem.description
        case .unexpectedRoot(let found, let expected):
            "payload: root element <\(found)> is not \(expected.map { "<\($0)>" }.joined(separator: " or "))"
        case .apiError(let message):
            "payload: the CycleStreets API reported an error: \(message)"
        case .serviceError(let service, let status, let message):
            "payload: the \(service) answer is an error\(status.map { " (\($0))" } ?? "")\(message.isEmpty ? "" : ": \(message)")"
        case .missing(let field, let expected):
            "\(field): missing; expected \(expected)"
        case .invalid(let field, let value, let expected):
            "\(field): \"\(value)\" is not \(expected)"
        case .tooFewPoints(let field, let count, let minimum):
            "\(field): has \(count) point\(count == 1 ? "" : "s"); at least \(minimum) are needed"
        case .tooManyPoints(let field, let count, let maximum):
            "\(field): has \(count) points; at most \(maximum) are allowed"
        case .noLine(let field, let found, let wanted):
            "\(field): \(found) has no \(wanted) to draw as a route"
        case .tooManyAttributes(let element?, let maximum):
            "\(element): has more than \(maximum) attributes; at most \(maximum) are allowed on an element"
        case .tooManyAttributes(nil, let maximum):
            "payload: has more than \(maximum) attributes; at most \(maximum) are allowed in a document"
        }
    }
}
