import Foundation
import MapGeometry

/// Strict readers for the numbers and coordinates inside payloads. Each throws a
/// `PayloadError` that names the field and quotes the offending text.
enum PayloadValues {
    /// The largest latitude a payload may hold: the edge of the Web Mercator map.
    static let maxLatitude = WebMercator.maxInputLatitude
    static let latitudeRange = WebMercator.inputLatitudeRange
    static let longitudeRange = WebMercator.longitudeRange
    static let latitudeRule = "within latitude \(-maxLatitude)...\(maxLatitude)"
    static let longitudeRule = "within longitude -180...180"

    /// A decimal number such as `52.205`, `-0.14` or `1e3`. Unlike `Double(_:)`, refuses
    /// `nan`, `inf`, hexadecimal and surrounding white space.
    static func decimal(_ text: Substring) -> Double? {
        let allowed = Set("0123456789+-.eE")
        guard !text.isEmpty, text.allSatisfy(allowed.contains), text.contains(where: \.isNumber),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A decimal number in an attribute or element text (white space around it is ignored).
    static func number(_ text: String, field: String) throws(PayloadError) -> Double {
        guard let value = decimal(Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))) else {
            throw .invalid(field: field, value: text, expected: "a number")
        }
        return value
    }

    /// A whole number in an attribute or element text (white space around it is ignored).
    static func wholeNumber(_ text: String, field: String) throws(PayloadError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .invalid(field: field, value: text, expected: "a whole number")
        }
        return value
    }

    /// A latitude in element text, within the map's limits.
    static func latitude(_ text: String, field: String) throws(PayloadError) -> Double {
        let value = try number(text, field: field)
        guard abs(value) <= maxLatitude else { throw .invalid(field: field, value: text, expected: latitudeRule) }
        return value
    }

    /// A longitude in element text, within -180...180.
    static func longitude(_ text: String, field: String) throws(PayloadError) -> Double {
        let value = try number(text, field: field)
        guard abs(value) <= 180 else { throw .invalid(field: field, value: text, expected: longitudeRule) }
        return value
    }

    /// A coordinate checked against the map's latitude and longitude limits; `text` is quoted
    /// in the error.
    static func coordinate(latitude: Double, longitude: Double, text: String, field: String) throws(PayloadError) -> Coordinate {
        guard abs(latitude) <= maxLatitude else { throw .invalid(field: field, value: text, expected: latitudeRule) }
        guard abs(longitude) <= 180 else { throw .invalid(field: field, value: text, expected: longitudeRule) }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A CycleStreets point list, `"lon,lat lon,lat ..."`, separated by any white space.
    static func pointList(_ text: String, field: String) throws(PayloadError) -> [Coordinate] {
        var points: [Coordinate] = []
        for pair in text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let longitude = decimal(parts[0]), let latitude = decimal(parts[1]) else {
                throw .invalid(field: field, value: String(pair), expected: "a number pair \"lon,lat\"")
            }
            points.append(try coordinate(latitude: latitude, longitude: longitude, text: String(pair), field: field))
        }
        return points
    }
}

extension ParsedXMLElement {
    /// The value of a required attribute; `elementLabel` names the element in the error.
    func attribute(_ name: String, of elementLabel: String, expected: String) throws(PayloadError) -> String {
        guard let value = attributes[name] else { throw .missing(field: "\(elementLabel)@\(name)", expected: expected) }
        return value
    }

    /// The text of a required child element; `elementLabel` names this element in the error.
    func childText(_ name: String, of elementLabel: String, expected: String) throws(PayloadError) -> String {
        guard let child = child(named: name) else { throw .missing(field: "\(elementLabel)/\(name)", expected: expected) }
        return child.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
