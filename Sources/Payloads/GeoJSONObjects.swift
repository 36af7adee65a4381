import MapGeometry
import StrictJSON

/// What every GeoJSON payload shares (RFC 7946): objects named by their `type`, features,
/// positions and bounding boxes. Each check throws a `JSONFieldError` naming the JSON path.
/// Members not named here (`properties` of a route, `id`, foreign members) are left alone.
enum GeoJSONObjects {
    /// The object's `type`, which must be one of `allowed`.
    static func type(of object: JSONObjectReader, allowed: [String]) throws(JSONFieldError) -> String {
        let expected = listing(allowed.map { "\"\($0)\"" })
        let value = try object.required("type", expected: expected)
        guard case .string(let type) = value, allowed.contains(type) else {
            throw JSONFieldError(path: object.path(of: "type"), value: value, allowed: expected)
        }
        return type
    }

    /// The features of a FeatureCollection, each an object of type "Feature" with any
    /// `bbox` checked.
    static func features(of collection: JSONObjectReader) throws(JSONFieldError) -> [JSONObjectReader] {
        let path = collection.path(of: "features")
        guard let values = try collection.array("features") else {
            throw JSONFieldError(path: path, value: nil, allowed: "an array of Feature objects")
        }
        var features: [JSONObjectReader] = []
        features.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            let feature = try JSONObjectReader(value, path: "\(path)[\(index)]")
            _ = try type(of: feature, allowed: ["Feature"])
            try checkBoundingBox(of: feature)
            features.append(feature)
        }
        return features
    }

    /// A feature's geometry, with any `bbox` checked; nil when it is null, as RFC 7946 allows
    /// for a feature with no place.
    static func geometry(of feature: JSONObjectReader) throws(JSONFieldError) -> JSONObjectReader? {
        let value = try feature.required("geometry", expected: "a geometry object or null")
        if value == .null { return nil }
        let geometry = try JSONObjectReader(value, path: feature.path(of: "geometry"))
        try checkBoundingBox(of: geometry)
        return geometry
    }

    /// Where a feature is, from its geometry, which must be a Point: as CycleStreets places
    /// photos and placefinder results.
    static func point(of feature: JSONObjectReader) throws(JSONFieldError) -> Coordinate {
        guard let geometry = try geometry(of: feature) else {
            throw JSONFieldError(path: feature.path(of: "geometry"), value: .null, allowed: "a Point geometry")
        }
        _ = try type(of: geometry, allowed: ["Point"])
        return try position(geometry.required("coordinates", expected: "a position [lon, lat]"), path: geometry.path(of: "coordinates"))
    }

    /// A position `[lon, lat]` or `[lon, lat, elevation]` on the map; the elevation is checked
    /// to be a number and not kept.
    static func position(_ value: JSONValue, path: String) throws(JSONFieldError) -> Coordinate {
        guard case .array(let values) = value, (2...3).contains(values.count) else {
            throw JSONFieldError(path: path, value: value, allowed: "a position [lon, lat] or [lon, lat, alt]")
        }
        let longitude = try JSONObjectReader.number(values[0], path: "\(path)[0] (lon)", in: PayloadValues.longitudeRange)
        let latitude = try JSONObjectReader.number(values[1], path: "\(path)[1] (lat)", in: PayloadValues.latitudeRange)
        if values.count == 3 {
            guard case .number = values[2] else { throw JSONFieldError(path: "\(path)[2] (alt)", value: values[2], allowed: "a number") }
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The positions of a line: `positions` must be an array of them.
    static func positions(_ value: JSONValue?, path: String) throws(JSONFieldError) -> [Coordinate] {
        guard case .array(let values)? = value else {
            throw JSONFieldError(path: path, value: value, allowed: "an array of positions [lon, lat]")
        }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(values.count)
        for (index, position) in values.enumerated() {
            coordinates.append(try self.position(position, path: "\(path)[\(index)]"))
        }
        return coordinates
    }

    /// A `bbox`, where an object has one, must be 4 numbers (west, south, east, north) or 6 (with
    /// the lowest and highest elevation). It is not otherwise used: the points say where a route is.
    static func checkBoundingBox(of object: JSONObjectReader) throws(JSONFieldError) {
        guard let value = object.fields["bbox"] else { return }
        guard case .array(let values) = value, values.count == 4 || values.count == 6,
              values.allSatisfy({ if case .number = $0 { true } else { false } }) else {
            throw JSONFieldError(path: object.path(of: "bbox"), value: value, allowed: "an array of 4 or 6 numbers")
        }
    }

    /// "a", "a or b", "a, b or c" (or with another `conjunction`).
    static func listing(_ items: [String], conjunction: String = "or") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
    }
}
