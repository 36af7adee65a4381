import Foundation
import MapGeometry

/// Reads CycleStreets `photos.xml`, in the shape the v1 app read it: a GML feature collection
/// with one `photo` per `featureMember`, its fields as child elements.
///
/// ```xml
/// <wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs"
///     xmlns:gml="http://www.opengis.net/gml" xmlns:cs="http://www.cyclestreets.net/schema/xml">
///   <gml:featureMember>
///     <cs:photo>
///       <cs:id>41523</cs:id>
///       <cs:latitude>52.20514</cs:latitude>
///       <cs:longitude>0.14203</cs:longitude>
///       <cs:caption>Cycle parking outside the station</cs:caption>
///       <cs:thumbnailUrl>https://www.cyclestreets.net/location/41523/cyclestreets41523-size300.jpg</cs:thumbnailUrl>
///     </cs:photo>
///   </gml:featureMember>
/// </wfs:FeatureCollection>
/// ```
///
/// Names are matched without their namespace prefixes. `id`, `latitude`, `longitude`,
/// `caption` (may be empty) and `thumbnailUrl` (see `PhotosParser`) are required; other fields are ignored. A
/// collection with no members is an empty list. Errors name the photo, such as
/// `photo[2]/latitude`.
public enum PhotosXMLParser {
    public static func parse(
        _ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes, localFilesIn directory: URL? = nil
    ) throws(PayloadError) -> [Photo] {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        try root.requireRoot(named: "FeatureCollection")
        var photos: [Photo] = []
        for (index, member) in root.children(named: "featureMember").enumerated() {
            let label = "photo[\(index + 1)]"
            guard let element = member.child(named: "photo") else {
                throw .missing(field: "featureMember[\(index + 1)]/photo", expected: "a photo element")
            }
            photos.append(try photo(from: element, label: label, localFilesIn: directory))
        }
        return photos
    }

    private static func photo(from element: ParsedXMLElement, label: String, localFilesIn directory: URL?) throws(PayloadError) -> Photo {
        let idText = try element.childText("id", of: label, expected: "a photo number")
        let latitudeText = try element.childText("latitude", of: label, expected: "a latitude")
        let longitudeText = try element.childText("longitude", of: label, expected: "a longitude")
        let allowed = PhotosParser.allowedAddresses(localFilesIn: directory)
        let urlText = try element.childText("thumbnailUrl", of: label, expected: allowed)
        guard let url = PhotosParser.imageAddress(urlText, localFilesIn: directory) else {
            throw .invalid(field: "\(label)/thumbnailUrl", value: urlText, expected: allowed)
        }
        return Photo(
            id: try PayloadValues.wholeNumber(idText, field: "\(label)/id"),
            coordinate: Coordinate(
                latitude: try PayloadValues.latitude(latitudeText, field: "\(label)/latitude"),
                longitude: try PayloadValues.longitude(longitudeText, field: "\(label)/longitude")
            ),
            caption: try element.childText("caption", of: label, expected: "a caption (may be empty)"),
            thumbnailURL: url
        )
    }
}
