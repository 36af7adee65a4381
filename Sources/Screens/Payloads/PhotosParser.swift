import Foundation
import MapRender

/// Reads a CycleStreets Photomap answer in either notation, told apart by its content
/// (`PayloadNotation`): `photos.xml` with `PhotosXMLParser`, the GeoJSON answer with
/// `PhotosGeoJSONParser`.
public enum PhotosParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> [Photo] {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        switch try PayloadNotation.of(data) {
        case .xml: return try PhotosXMLParser.parse(data, maxBytes: maxBytes)
        case .json: return try PhotosGeoJSONParser.parse(data, maxBytes: maxBytes)
        }
    }
}
