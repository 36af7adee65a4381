import Foundation

/// Reads a CycleStreets placefinder answer in either notation, told apart by its content
/// (`PayloadNotation`): `geocoder.xml` with `GeocoderXMLParser`, the GeoJSON answer with
/// `GeocoderGeoJSONParser`.
public enum GeocoderParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> [GeocoderResult] {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        switch try PayloadNotation.of(data) {
        case .xml: return try GeocoderXMLParser.parse(data, maxBytes: maxBytes)
        case .json: return try GeocoderGeoJSONParser.parse(data, maxBytes: maxBytes)
        }
    }
}
