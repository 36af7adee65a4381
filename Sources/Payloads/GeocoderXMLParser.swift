import Foundation
import MapGeometry

/// Reads CycleStreets `geocoder.xml`:
///
/// ```xml
/// <sayt>
///   <results>
///     <result>
///       <name>Mill Road</name>
///       <near>Cambridge</near>
///       <latitude>52.19929</latitude>
///       <longitude>0.14113</longitude>
///     </result>
///   </results>
/// </sayt>
/// ```
///
/// Each result needs all four child elements (`near` may be empty); other children are ignored.
/// No `<results>`, or an empty one, means no places were found. Errors name the result, such
/// as `result[2]/latitude`.
public enum GeocoderXMLParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> [GeocoderResult] {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        try root.requireRoot(named: "sayt")
        let elements = root.child(named: "results")?.children(named: "result") ?? []
        var results: [GeocoderResult] = []
        for (index, element) in elements.enumerated() {
            results.append(try result(from: element, label: "result[\(index + 1)]"))
        }
        return results
    }

    private static func result(from element: ParsedXMLElement, label: String) throws(PayloadError) -> GeocoderResult {
        let latitudeText = try element.childText("latitude", of: label, expected: "a latitude")
        let longitudeText = try element.childText("longitude", of: label, expected: "a longitude")
        return GeocoderResult(
            name: try element.childText("name", of: label, expected: "a place name"),
            near: try element.childText("near", of: label, expected: "where the place is (may be empty)"),
            coordinate: Coordinate(
                latitude: try PayloadValues.latitude(latitudeText, field: "\(label)/latitude"),
                longitude: try PayloadValues.longitude(longitudeText, field: "\(label)/longitude")
            )
        )
    }
}
