import Foundation
import MapGeometry
import StrictJSON

/// Reads the CycleStreets placefinder answer in GeoJSON (API v2 `geocoder`): a
/// FeatureCollection of Point features, one per place, best first.
///
/// ```json
/// {"type": "FeatureCollection", "features": [
///   {"type": "Feature", "properties": {"name": "Mill Road", "near": "Cambridge", "bbox": "..."},
///    "geometry": {"type": "Point", "coordinates": [0.13952, 52.20005]}}
/// ]}
/// ```
///
/// Each place needs a `name` and a `near` (may be empty), both strings, and a Point geometry
/// (ask the geocoder without `geometries=1`, which gives streets as lines). Other properties
/// are ignored. An empty collection means no places were found. Errors name the JSON path,
/// such as `features[1].properties.near`.
public enum GeocoderGeoJSONParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> [GeocoderResult] {
        try results(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "geocoder"))
    }

    /// The places in a parsed document.
    static func results(in document: JSONValue) throws(PayloadError) -> [GeocoderResult] {
        try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let root = try JSONObjectReader(document, path: "")
            _ = try GeoJSONObjects.type(of: root, allowed: ["FeatureCollection"])
            var results: [GeocoderResult] = []
            for feature in try GeoJSONObjects.features(of: root) {
                let coordinate = try GeoJSONObjects.point(of: feature)
                let properties = try feature.requiredObject("properties")
                results.append(GeocoderResult(
                    name: try properties.requiredString("name"), near: try properties.requiredString("near"), coordinate: coordinate
                ))
            }
            return results
        }
    }
}
