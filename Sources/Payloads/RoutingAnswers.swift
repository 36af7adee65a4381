import MapGeometry
import StrictJSON

/// What the routing services' JSON answers share (OSRM and Mapbox, Valhalla, Google Directions,
/// GraphHopper): a list of routes of which the first is taken, encoded polylines, GeoJSON
/// LineStrings. Errors name the JSON path, such as `routes[0].geometry`.
enum RoutingAnswers {
    /// The first object in the array `key` of `root`, which must hold at least one: the route
    /// a routing service ranks best. Alternatives after it are passed over.
    static func first(_ key: String, of root: JSONObjectReader, items: String) throws(JSONFieldError) -> JSONObjectReader {
        let path = root.path(of: key)
        let allowed = "an array of one or more \(items)"
        guard case .array(let values)? = root.fields[key], let first = values.first else {
            throw JSONFieldError(path: path, value: root.fields[key], allowed: allowed)
        }
        return try JSONObjectReader(first, path: "\(path)[0]")
    }

    /// The non-empty array `key` of `object`, such as a route's legs.
    static func items(_ key: String, of object: JSONObjectReader, items: String) throws(JSONFieldError) -> [JSONValue] {
        guard case .array(let values)? = object.fields[key], !values.isEmpty else {
            throw JSONFieldError(path: object.path(of: key), value: object.fields[key], allowed: "an array of one or more \(items)")
        }
        return values
    }

    /// The string `key` of `object`, which must be present.
    static func text(_ key: String, of object: JSONObjectReader, expected: String) throws(JSONFieldError) -> String {
        let value = try object.required(key, expected: expected)
        guard case .string(let text) = value else { throw JSONFieldError(path: object.path(of: key), value: value, allowed: expected) }
        return text
    }

    /// The points of the polyline `text`, found at `path`, read at `precision`; with `elevations`,
    /// each point has a third value that is read and not kept (`EncodedPolyline`).
    static func polyline(_ text: String, path: String, precision: Int, elevations: Bool = false) throws(PayloadError) -> [Coordinate] {
        do {
            return try EncodedPolyline.decode(text[...], precision: precision, elevations: elevations)
        } catch {
            let reading = "precision \(precision)\(elevations ? " with elevations" : "")"
            throw .json(JSONFieldError(path: path, message: "read as an encoded polyline at \(reading), \(error.reason)"))
        }
    }

    /// The points of the polyline `text`, found at `path`, at precision 5 or 6, which a polyline
    /// alone does not tell apart: one read at the other precision lies ten times nearer (0, 0),
    /// or ten times farther from it. The precision is the one under which the line starts
    /// nearer `start`, where the answer says where the route starts; without `start`, it is
    /// `preferred` unless that reading falls off the map (as precision 6 read at 5 does
    /// anywhere beyond 8.5 degrees of latitude or 18 of longitude from (0, 0)) and the other
    /// does not.
    static func polyline(_ text: String, path: String, preferred: Int, start: Coordinate?) throws(PayloadError) -> [Coordinate] {
        let other = preferred == 5 ? 6 : 5
        let readings = [preferred, other].map { precision in
            Result { () throws(EncodedPolyline.Invalid) in try EncodedPolyline.decode(text[...], precision: precision) }
        }
        switch (readings[0], readings[1]) {
        case (.success(let points), .success(let otherPoints)):
            guard let start, let first = points.first, let otherFirst = otherPoints.first else { return points }
            return first.distance(to: start) <= otherFirst.distance(to: start) ? points : otherPoints
        case (.success(let points), .failure), (.failure, .success(let points)):
            return points
        case (.failure(let error), .failure(let otherError)):
            // Read at 6 a polyline goes on longest: at 5 its points may fall off the map first.
            let reason = (preferred == 6 ? error : otherError).reason
            throw .json(JSONFieldError(path: path, message: "read as an encoded polyline at precision 5 or 6, \(reason)"))
        }
    }

    /// The positions of a GeoJSON LineString object, as `geometries=geojson` and
    /// `points_encoded=false` give a route; each may have an elevation, which is not kept.
    static func lineString(_ object: JSONObjectReader) throws(JSONFieldError) -> [Coordinate] {
        _ = try GeoJSONObjects.type(of: object, allowed: ["LineString"])
        return try GeoJSONObjects.positions(object.fields["coordinates"], path: object.path(of: "coordinates"))
    }

    /// A position `[lon, lat]` in an answer, such as where a waypoint was snapped to the roads.
    static func position(_ key: String, of object: JSONObjectReader) throws(JSONFieldError) -> Coordinate? {
        guard let value = object.fields[key] else { return nil }
        return try GeoJSONObjects.position(value, path: object.path(of: key))
    }
}
