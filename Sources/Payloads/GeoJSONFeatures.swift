import MapGeometry
import StrictJSON

/// One feature of a GeoJSON document, as a map overlay draws it: its shapes and its properties.
public struct GeoJSONFeature: Sendable, Equatable {
    /// Its Points and the members of its MultiPoints.
    public var points: [Coordinate] = []
    /// Its LineStrings and the lines of its MultiLineStrings, each of 2 or more positions.
    public var lines: [[Coordinate]] = []
    /// Its Polygons and the polygons of its MultiPolygons: each the outer ring, then its holes,
    /// every ring of 3 or more distinct positions, ending where it starts.
    public var polygons: [[[Coordinate]]] = []
    /// Its `properties`; empty for a bare geometry or `"properties": null`.
    public var properties: [String: JSONValue] = [:]
    /// Its JSON path, for messages about its properties (`features[2].properties`).
    public var propertiesPath: String
}

/// Reads any GeoJSON document (RFC 7946) as the features it holds, for drawing over a map: a
/// FeatureCollection, a Feature, or a bare geometry (a feature with no properties). Every
/// geometry type is taken: Point, MultiPoint, LineString, MultiLineString, Polygon,
/// MultiPolygon, and GeometryCollection, whose members are one feature's shapes. A feature with
/// a null geometry is kept, with nothing to draw.
///
/// Positions are `[lon, lat]` or `[lon, lat, elevation]`, the elevation not kept. A ring that
/// does not repeat its first position at its end is closed all the same, as other renderers do.
/// At most `maximumPositions` positions over the whole document, and `maximumFeatures`
/// features. Errors name the JSON path, such as `features[1].geometry.coordinates[0][2][1] (lat)`.
public enum GeoJSONFeatures {
    /// The most positions a document may hold, over all its features.
    public static let maximumPositions = RouteLine.maximumPoints
    /// The most features a document may hold.
    public static let maximumFeatures = 10_000

    static let geometryTypes = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]

    /// The features of `document`, in order; `path` is where the document sits, for messages.
    public static func read(_ document: JSONValue, path: String) throws(JSONFieldError) -> [GeoJSONFeature] {
        var reader = Reader()
        let root = try JSONObjectReader(document, path: path)
        try GeoJSONObjects.checkBoundingBox(of: root)
        switch try GeoJSONObjects.type(of: root, allowed: ["FeatureCollection", "Feature"] + geometryTypes) {
        case "FeatureCollection":
            let features = try GeoJSONObjects.features(of: root)
            guard features.count <= maximumFeatures else {
                throw JSONFieldError(path: root.path(of: "features"), message: "has \(features.count) features; allowed at most \(maximumFeatures)")
            }
            return try features.map { feature throws(JSONFieldError) in try reader.feature(feature) }
        case "Feature":
            return [try reader.feature(root)]
        default:
            var feature = GeoJSONFeature(propertiesPath: root.path(of: "properties"))
            try reader.add(root, to: &feature)
            return [feature]
        }
    }

    /// Reads features and geometries, counting positions against `maximumPositions`.
    private struct Reader {
        var positions = 0

        mutating func feature(_ object: JSONObjectReader) throws(JSONFieldError) -> GeoJSONFeature {
            var feature = GeoJSONFeature(propertiesPath: object.path(of: "properties"))
            switch object.fields["properties"] {
            case nil, .null?: break
            case .object(let properties)?: feature.properties = properties
            case let other?: throw JSONFieldError(path: feature.propertiesPath, value: other, allowed: "an object or null")
            }
            if let geometry = try GeoJSONObjects.geometry(of: object) {
                try add(geometry, to: &feature)
            }
            return feature
        }

        /// Adds `geometry`'s shapes to `feature`.
        mutating func add(_ geometry: JSONObjectReader, to feature: inout GeoJSONFeature) throws(JSONFieldError) {
            let type = try GeoJSONObjects.type(of: geometry, allowed: GeoJSONFeatures.geometryTypes)
            let path = geometry.path(of: "coordinates")
            if type == "GeometryCollection" {
                guard let members = try geometry.array("geometries") else {
                    throw JSONFieldError(path: geometry.path(of: "geometries"), value: nil, allowed: "an array of geometry objects")
                }
                for (index, member) in members.enumerated() {
                    let reader = try JSONObjectReader(member, path: "\(geometry.path(of: "geometries"))[\(index)]")
                    try GeoJSONObjects.checkBoundingBox(of: reader)
                    try add(reader, to: &feature)
                }
                return
            }
            let coordinates = try geometry.required("coordinates", expected: "the \(type)'s coordinates")
            switch type {
            case "Point":
                try count(1, path: path)
                feature.points.append(try GeoJSONObjects.position(coordinates, path: path))
            case "MultiPoint":
                feature.points += try positions(coordinates, path: path)
            case "LineString":
                feature.lines.append(try line(coordinates, path: path))
            case "MultiLineString":
                for (index, item) in try array(coordinates, path: path, of: "lines").enumerated() {
                    feature.lines.append(try line(item, path: "\(path)[\(index)]"))
                }
            case "Polygon":
                feature.polygons.append(try polygon(coordinates, path: path))
            default: // MultiPolygon
                for (index, item) in try array(coordinates, path: path, of: "polygons").enumerated() {
                    feature.polygons.append(try polygon(item, path: "\(path)[\(index)]"))
                }
            }
        }

        private mutating func count(_ added: Int, path: String) throws(JSONFieldError) {
            positions += added
            guard positions <= GeoJSONFeatures.maximumPositions else {
                throw JSONFieldError(path: path, message: "brings the document to more than \(GeoJSONFeatures.maximumPositions) positions; allowed at most \(GeoJSONFeatures.maximumPositions)")
            }
        }

        private func array(_ value: JSONValue, path: String, of items: String) throws(JSONFieldError) -> [JSONValue] {
            guard case .array(let values) = value else { throw JSONFieldError(path: path, value: value, allowed: "an array of \(items)") }
            return values
        }

        private mutating func positions(_ value: JSONValue, path: String) throws(JSONFieldError) -> [Coordinate] {
            if case .array(let values) = value { try count(values.count, path: path) }
            return try GeoJSONObjects.positions(value, path: path)
        }

        private mutating func line(_ value: JSONValue, path: String) throws(JSONFieldError) -> [Coordinate] {
            let points = try positions(value, path: path)
            guard points.count >= RouteLine.minimumPointsPerPart else {
                throw JSONFieldError(path: path, message: "has \(points.count) position\(points.count == 1 ? "" : "s"); a line needs \(RouteLine.minimumPointsPerPart) or more")
            }
            return points
        }

        /// The rings of a polygon, outer first, each ending where it starts.
        private mutating func polygon(_ value: JSONValue, path: String) throws(JSONFieldError) -> [[Coordinate]] {
            let rings = try array(value, path: path, of: "rings, each an array of positions")
            guard !rings.isEmpty else { throw JSONFieldError(path: path, message: "has no ring; a polygon needs its outer ring") }
            var polygon: [[Coordinate]] = []
            for (index, item) in rings.enumerated() {
                let ringPath = "\(path)[\(index)]"
                var ring = try positions(item, path: ringPath)
                let distinct = Set(ring).count
                guard distinct >= 3 else {
                    throw JSONFieldError(path: ringPath, message: "has \(distinct) distinct position\(distinct == 1 ? "" : "s"); a ring needs 3 or more")
                }
                if ring.first != ring.last { ring.append(ring[0]) }
                polygon.append(ring)
            }
            return polygon
        }
    }
}
