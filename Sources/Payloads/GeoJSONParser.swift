import Foundation
import MapGeometry
import StrictJSON

/// Reads a GeoJSON route (RFC 7946) as a route line. The document may be:
///
/// - a LineString: a route of one part;
/// - a MultiLineString: one part per line, in order;
/// - a Feature whose geometry is either of those (its `properties` may be anything, null too);
/// - a FeatureCollection: the parts of its LineString and MultiLineString features, in order.
///   Features of other kinds, such as Points marking the start and finish, and features with a
///   null geometry are passed over. A collection with no line at all is refused with
///   `PayloadError.noLine`, saying what it holds: "features: a FeatureCollection of 3 Point
///   features has no LineString or MultiLineString to draw as a route".
///
/// ```json
/// {"type": "FeatureCollection", "features": [
///   {"type": "Feature", "properties": null,
///    "geometry": {"type": "MultiLineString", "coordinates": [[[0.1414, 52.2055], [0.1403, 52.2063]],
///                                                            [[0.1396, 52.2070], [0.1410, 52.2079]]]}},
///   {"type": "Feature", "properties": {"name": "Finish"}, "geometry": {"type": "Point", "coordinates": [0.1410, 52.2079]}}
/// ]}
/// ```
///
/// Positions are `[lon, lat]` or `[lon, lat, elevation]`; the elevation is not kept. Each line
/// needs at least two positions, and the route at most `RouteLine.maximumPoints` over all its
/// parts. A `bbox` must be 4 or 6 numbers; other members are ignored. Errors name the JSON
/// path, such as `features[2].geometry.coordinates[1][3][1] (lat)`.
public enum GeoJSONParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        try route(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "GeoJSON"))
    }

    static let documentTypes = ["LineString", "MultiLineString", "Feature", "FeatureCollection"]
    static let lineTypes = ["LineString", "MultiLineString"]

    /// The route in a parsed GeoJSON document.
    static func route(in document: JSONValue) throws(PayloadError) -> RouteLine {
        let (root, type) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let root = try JSONObjectReader(document, path: "")
            try GeoJSONObjects.checkBoundingBox(of: root)
            return (root, try GeoJSONObjects.type(of: root, allowed: documentTypes))
        }
        switch type {
        case "FeatureCollection":
            let field = root.path(of: "features")
            let collection = try collectionParts(root)
            guard !collection.parts.isEmpty else { throw .noLine(field: field, found: collection.found) }
            return try RouteLine.checked(parts: collection.parts, field: field)
        case "Feature":
            let geometry = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                let geometry = try root.requiredObject("geometry")
                try GeoJSONObjects.checkBoundingBox(of: geometry)
                _ = try GeoJSONObjects.type(of: geometry, allowed: lineTypes)
                return geometry
            }
            return try RouteLine.checked(parts: lines(of: geometry), field: geometry.path(of: "coordinates"))
        default:
            return try RouteLine.checked(parts: lines(of: root), field: root.path(of: "coordinates"))
        }
    }

    /// The parts of a collection's line features in order, and, for when there are none, what
    /// the collection holds instead.
    private static func collectionParts(_ collection: JSONObjectReader) throws(PayloadError) -> (parts: [[Coordinate]], found: String) {
        var parts: [[Coordinate]] = []
        var otherKinds: [(kind: String, count: Int)] = []
        for feature in try JSONPayloadReader.fields({ () throws(JSONFieldError) in try GeoJSONObjects.features(of: collection) }) {
            let geometry = try JSONPayloadReader.fields { () throws(JSONFieldError) -> (reader: JSONObjectReader, type: String)? in
                guard let geometry = try GeoJSONObjects.geometry(of: feature) else { return nil }
                let type = try geometry.required("type", expected: "a geometry type")
                guard case .string(let name) = type else {
                    throw JSONFieldError(path: geometry.path(of: "type"), value: type, allowed: "a geometry type")
                }
                return (geometry, name)
            }
            if let geometry, lineTypes.contains(geometry.type) {
                parts += try lines(of: geometry.reader)
                continue
            }
            let kind = geometry?.type ?? ""
            if let index = otherKinds.firstIndex(where: { $0.kind == kind }) {
                otherKinds[index].count += 1
            } else {
                otherKinds.append((kind, 1))
            }
        }
        return (parts, describe(otherKinds))
    }

    /// "a FeatureCollection of 3 Point features and 1 feature with no geometry", or "an empty
    /// FeatureCollection". A kind of "" is a feature with no geometry.
    private static func describe(_ kinds: [(kind: String, count: Int)]) -> String {
        guard !kinds.isEmpty else { return "an empty FeatureCollection" }
        let items = kinds.map { kind, count in
            let features = count == 1 ? "feature" : "features"
            return kind.isEmpty ? "\(count) \(features) with no geometry" : "\(count) \(kind) \(features)"
        }
        return "a FeatureCollection of " + GeoJSONObjects.listing(items, conjunction: "and")
    }

    /// The lines of a LineString (one) or a MultiLineString (each of its own), each with at least
    /// `RouteLine.minimumPointsPerPart` positions.
    private static func lines(of geometry: JSONObjectReader) throws(PayloadError) -> [[Coordinate]] {
        let path = geometry.path(of: "coordinates")
        if geometry.fields["type"] == .string("LineString") {
            let points = try JSONPayloadReader.fields { () throws(JSONFieldError) in
                try GeoJSONObjects.positions(geometry.fields["coordinates"], path: path)
            }
            return [try RouteLine.checkedPart(points, field: path)]
        }
        let lines = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            guard let lines = try geometry.array("coordinates") else {
                throw JSONFieldError(path: path, value: nil, allowed: "an array of lines, each an array of positions [lon, lat]")
            }
            return lines
        }
        var parts: [[Coordinate]] = []
        parts.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            let linePath = "\(path)[\(index)]"
            let points = try JSONPayloadReader.fields { () throws(JSONFieldError) in try GeoJSONObjects.positions(line, path: linePath) }
            parts.append(try RouteLine.checkedPart(points, field: linePath))
        }
        return parts
    }
}
