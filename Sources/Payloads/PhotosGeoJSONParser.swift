import Foundation
import MapGeometry
import StrictJSON

/// Reads the CycleStreets Photomap answer in GeoJSON (API v2 `photomap.locations`): a
/// FeatureCollection of Point features, one per photo.
///
/// ```json
/// {"type": "FeatureCollection", "features": [
///   {"type": "Feature",
///    "properties": {"id": 41523, "caption": "Cycle parking",
///                   "thumbnailUrl": "https://www.cyclestreets.net/location/41523/cyclestreets41523-size300.jpg"},
///    "geometry": {"type": "Point", "coordinates": [0.14203, 52.20514]}}
/// ]}
/// ```
///
/// `id` (a whole number, or a string of digits) and `caption` (may be empty) are required. A
/// `thumbnailUrl` must be an http or https URL (or a file, see `PhotosParser`) when given; a location with no photo has none,
/// or an empty one. Other properties are ignored. An empty collection is an empty list. Errors
/// name the JSON path, such as `features[2].properties.id`.
public enum PhotosGeoJSONParser {
    public static func parse(
        _ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes, localFilesIn directory: URL? = nil
    ) throws(PayloadError) -> [Photo] {
        try photos(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "photos"), localFilesIn: directory)
    }

    /// The photos in a parsed document.
    static func photos(in document: JSONValue, localFilesIn directory: URL? = nil) throws(PayloadError) -> [Photo] {
        try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let root = try JSONObjectReader(document, path: "")
            _ = try GeoJSONObjects.type(of: root, allowed: ["FeatureCollection"])
            var photos: [Photo] = []
            for feature in try GeoJSONObjects.features(of: root) {
                photos.append(try photo(feature, localFilesIn: directory))
            }
            return photos
        }
    }

    private static func photo(_ feature: JSONObjectReader, localFilesIn directory: URL?) throws(JSONFieldError) -> Photo {
        let coordinate = try GeoJSONObjects.point(of: feature)
        let properties = try feature.requiredObject("properties")
        return Photo(
            id: try id(properties),
            coordinate: coordinate,
            caption: try properties.requiredString("caption"),
            thumbnailURL: try thumbnailURL(properties, localFilesIn: directory)
        )
    }

    private static func id(_ properties: JSONObjectReader) throws(JSONFieldError) -> Int {
        let allowed = "a photo number: a whole number, or a string of digits"
        let value = try properties.required("id", expected: allowed)
        switch value {
        case .number:
            return try JSONObjectReader.integer(value, path: properties.path(of: "id"), in: 0...Int(Int32.max))
        case .string(let digits) where !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit):
            guard let number = Int(digits), number <= Int32.max else {
                throw JSONFieldError(path: properties.path(of: "id"), message: "\(digits) is outside the allowed range 0...\(Int32.max)")
            }
            return number
        default:
            throw JSONFieldError(path: properties.path(of: "id"), value: value, allowed: allowed)
        }
    }

    private static func thumbnailURL(_ properties: JSONObjectReader, localFilesIn directory: URL?) throws(JSONFieldError) -> URL? {
        let path = properties.path(of: "thumbnailUrl"), allowed = PhotosParser.allowedAddresses(localFilesIn: directory)
        switch properties.fields["thumbnailUrl"] {
        case nil, .null?, .string("")?:
            return nil
        case .string(let text)?:
            guard let url = PhotosParser.imageAddress(text, localFilesIn: directory) else {
                throw JSONFieldError(path: path, value: .string(text), allowed: allowed)
            }
            return url
        case let other?:
            throw JSONFieldError(path: path, value: other, allowed: allowed)
        }
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0 to 9 (`isNumber` also takes other scripts' digits).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
