import Foundation
import MapGeometry
import StrictJSON

/// Reads a GeoJSON route as a route line: either a LineString geometry or a Feature whose
/// geometry is a LineString. Positions are `[lon, lat]` or `[lon, lat, alt]`; the altitude is
/// ignored. Other members (`properties`, `bbox`, ...) are ignored. Errors name the JSON path,
/// such as `geometry.coordinates[3][1] (lat)`.
public enum GeoJSONParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        let line: JSONObjectReader
        let coordinates: [Coordinate]
        do {
            line = try lineString(in: JSONObjectReader(JSONValue.parse(data, documentName: "GeoJSON"), path: ""))
            coordinates = try self.coordinates(of: line)
        } catch {
            throw .json(error)
        }
        return try RouteLine.checked(coordinates, field: line.path(of: "coordinates"))
    }

    /// The document itself when it is a LineString, or the geometry of a Feature.
    private static func lineString(in document: JSONObjectReader) throws(JSONFieldError) -> JSONObjectReader {
        let types = #""LineString" or "Feature""#
        switch try document.required("type", expected: types) {
        case .string("LineString"):
            return document
        case .string("Feature"):
            let geometry = try document.requiredObject("geometry")
            let type = try geometry.required("type", expected: #""LineString""#)
            guard type == .string("LineString") else {
                throw JSONFieldError(path: geometry.path(of: "type"), value: type, allowed: #""LineString""#)
            }
            return geometry
        case let other:
            throw JSONFieldError(path: document.path(of: "type"), value: other, allowed: types)
        }
    }

    private static func coordinates(of line: JSONObjectReader) throws(JSONFieldError) -> [Coordinate] {
        let path = line.path(of: "coordinates")
        guard let positions = try line.array("coordinates") else {
            throw JSONFieldError(path: path, value: nil, allowed: "an array of positions [lon, lat]")
        }
        return try positions.enumerated().map { index, position throws(JSONFieldError) in
            try coordinate(position, path: "\(path)[\(index)]")
        }
    }

    private static func coordinate(_ position: JSONValue, path: String) throws(JSONFieldError) -> Coordinate {
        guard case .array(let values) = position, (2...3).contains(values.count) else {
            throw JSONFieldError(path: path, value: position, allowed: "a position [lon, lat] or [lon, lat, alt]")
        }
        let longitude = try JSONObjectReader.number(values[0], path: "\(path)[0] (lon)", in: PayloadValues.longitudeRange)
        let latitude = try JSONObjectReader.number(values[1], path: "\(path)[1] (lat)", in: PayloadValues.latitudeRange)
        if values.count == 3 {
            guard case .number = values[2] else { throw JSONFieldError(path: "\(path)[2] (alt)", value: values[2], allowed: "a number") }
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
