import Foundation
import MapGeometry

/// Reads a KML file (2.2 or 2.3, as Google Earth, My Maps and most GPS software write it) as a
/// route line of one part per line, in document order:
///
/// ```xml
/// <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
///   <Document><Style id="route">...</Style>
///     <Folder><name>Ride</name>
///       <Placemark><styleUrl>#route</styleUrl>
///         <LineString><coordinates>0.14144,52.20557,12 0.14025,52.20630,12</coordinates></LineString>
///       </Placemark>
///       <Placemark><gx:Track><when>2010-11-05T11:01:01Z</when>...<gx:coord>0.14144 52.20557 12</gx:coord>...</gx:Track></Placemark>
///     </Folder>
///   </Document>
/// </kml>
/// ```
///
/// Placemarks are found in the root, in `Document`s and in `Folder`s nested to any depth. A
/// placemark's line is a `LineString`, whose `coordinates` are `lon,lat` or `lon,lat,alt` tuples
/// separated by any white space (white space beside a comma is tolerated too); a
/// `MultiGeometry`, each of whose LineStrings (in nested MultiGeometries too) is a part while
/// its Points and Polygons are passed over; a `gx:Track`, whose `gx:coord`s are "lon lat alt"
/// separated by spaces; or a `gx:MultiTrack`, each of whose tracks is a part. KML 2.3's
/// `Track` and `MultiTrack`, without the prefix, read alike, since elements are matched by
/// local name. Altitudes, times, styles and other features (overlays, network links) are
/// passed over.
///
/// Each line needs at least two points, and the route at most `RouteLine.maximumPoints`. A
/// file with no line at all is refused saying what it holds: "kml: a KML document of 3 Point
/// placemarks has no LineString, gx:Track or gx:MultiTrack to draw as a route". Errors name the
/// element path below the root, such as
/// `Document[1]/Folder[2]/Placemark[1]/LineString[1]/coordinates` or
/// `Document[1]/Placemark[3]/Track[1]/coord[5]`.
public enum KMLParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        guard root.name == "kml" else { throw .unexpectedRoot(found: root.name, expected: ["kml"]) }
        return try route(in: root)
    }

    /// What a KML file's line may be, as its refusal says.
    static let lineKinds = "LineString, gx:Track or gx:MultiTrack"

    /// The route in a parsed `<kml>` document.
    static func route(in root: ParsedXMLElement) throws(PayloadError) -> RouteLine {
        var reading = Reading()
        try reading.read(container: root, label: "")
        guard !reading.parts.isEmpty else { throw .noLine(field: "kml", found: reading.describe(), wanted: lineKinds) }
        return try RouteLine.checked(parts: reading.parts, field: "kml")
    }

    /// The lines found so far, and what the placemarks without one hold.
    private struct Reading {
        var parts: [[Coordinate]] = []
        var otherKinds: [(kind: String, count: Int)] = []

        /// The placemarks of `container` (the root, a Document or a Folder) and of the
        /// containers inside it, in document order.
        mutating func read(container: ParsedXMLElement, label: String) throws(PayloadError) {
            var counts: [String: Int] = [:]
            for child in container.children where ["Document", "Folder", "Placemark"].contains(child.name) {
                counts[child.name, default: 0] += 1
                let childLabel = "\(label)\(child.name)[\(counts[child.name]!)]"
                if child.name == "Placemark" {
                    try read(placemark: child, label: childLabel)
                } else {
                    try read(container: child, label: childLabel + "/")
                }
            }
        }

        private mutating func read(placemark: ParsedXMLElement, label: String) throws(PayloadError) {
            let geometries = Self.labelled(placemark.children.filter { KMLParser.geometryNames.contains($0.name) }, under: label)
            var lines = 0
            for (geometry, geometryLabel) in geometries {
                let found = try KMLParser.lines(of: geometry, label: geometryLabel)
                parts += found
                lines += found.count
            }
            guard lines == 0 else { return }
            let kind = geometries.first?.element.name ?? ""
            if let index = otherKinds.firstIndex(where: { $0.kind == kind }) {
                otherKinds[index].count += 1
            } else {
                otherKinds.append((kind, 1))
            }
        }

        /// Elements with their labels, `name[n]` counting each name on its own.
        static func labelled(_ elements: [ParsedXMLElement], under label: String) -> [(element: ParsedXMLElement, label: String)] {
            var counts: [String: Int] = [:]
            return elements.map { element in
                counts[element.name, default: 0] += 1
                return (element, "\(label)/\(element.name)[\(counts[element.name]!)]")
            }
        }

        /// "a KML document of 3 Point placemarks and 1 placemark with no geometry", or "a KML
        /// document with no placemarks". A kind of "" is a placemark with no geometry.
        func describe() -> String {
            guard !otherKinds.isEmpty else { return "a KML document with no placemarks" }
            let items = otherKinds.map { kind, count in
                let placemarks = count == 1 ? "placemark" : "placemarks"
                return kind.isEmpty ? "\(count) \(placemarks) with no geometry" : "\(count) \(kind) \(placemarks)"
            }
            return "a KML document of " + GeoJSONObjects.listing(items, conjunction: "and")
        }
    }

    /// The geometries a placemark may have (`gx:Track` and `gx:MultiTrack` by local name).
    static let geometryNames: Set = ["Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Model", "Track", "MultiTrack"]

    /// The lines of one geometry: none for a Point or Polygon, one for a LineString or track,
    /// one per line for a MultiGeometry or MultiTrack.
    private static func lines(of geometry: ParsedXMLElement, label: String) throws(PayloadError) -> [[Coordinate]] {
        switch geometry.name {
        case "LineString":
            let field = "\(label)/coordinates"
            let text = try geometry.childText("coordinates", of: label, expected: "the line's points, lon,lat[,alt] tuples")
            return [try RouteLine.checkedPart(tuples(text, field: field), field: field)]
        case "Track":
            return [try RouteLine.checkedPart(trackPoints(geometry, label: label), field: label)]
        case "MultiGeometry", "MultiTrack":
            let inner = geometry.name == "MultiTrack" ? ["Track"] : geometryNames
            var parts: [[Coordinate]] = []
            for (child, childLabel) in Reading.labelled(geometry.children.filter { inner.contains($0.name) }, under: label) {
                parts += try lines(of: child, label: childLabel)
            }
            return parts
        default:
            return []
        }
    }

    /// The points of a `coordinates` element: `lon,lat[,alt]` tuples separated by white space.
    /// White space beside a comma, as some writers put after it, joins rather than separates.
    private static func tuples(_ text: String, field: String) throws(PayloadError) -> [Coordinate] {
        var tuples: [String] = []
        for token in text.split(whereSeparator: \.isWhitespace) {
            if let last = tuples.last, last.hasSuffix(",") || token.hasPrefix(",") {
                tuples[tuples.count - 1] += token
            } else {
                tuples.append(String(token))
            }
        }
        var points: [Coordinate] = []
        points.reserveCapacity(tuples.count)
        for (index, tuple) in tuples.enumerated() {
            let values = tuple.split(separator: ",", omittingEmptySubsequences: false)
            let pointField = "\(field) (point \(index + 1))"
            guard (2...3).contains(values.count), let longitude = PayloadValues.decimal(values[0]), let latitude = PayloadValues.decimal(values[1]),
                  values.count == 2 || PayloadValues.decimal(values[2]) != nil else {
                throw .invalid(field: pointField, value: tuple, expected: "a tuple lon,lat or lon,lat,alt")
            }
            points.append(try PayloadValues.coordinate(latitude: latitude, longitude: longitude, text: tuple, field: pointField))
        }
        return points
    }

    /// The points of a `gx:Track`: each `gx:coord` is "lon lat alt" (or "lon lat").
    private static func trackPoints(_ track: ParsedXMLElement, label: String) throws(PayloadError) -> [Coordinate] {
        let coords = track.children(named: "coord")
        var points: [Coordinate] = []
        points.reserveCapacity(coords.count)
        for (index, coord) in coords.enumerated() {
            let field = "\(label)/coord[\(index + 1)]"
            let text = coord.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let values = text.split(whereSeparator: \.isWhitespace)
            guard (2...3).contains(values.count), let longitude = PayloadValues.decimal(values[0]), let latitude = PayloadValues.decimal(values[1]),
                  values.count == 2 || PayloadValues.decimal(values[2]) != nil else {
                throw .invalid(field: field, value: text, expected: "\"lon lat alt\", numbers separated by spaces")
            }
            points.append(try PayloadValues.coordinate(latitude: latitude, longitude: longitude, text: text, field: field))
        }
        return points
    }
}
