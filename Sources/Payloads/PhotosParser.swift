import Foundation

/// Reads a CycleStreets Photomap answer in either notation, told apart by its content
/// (`PayloadNotation`): `photos.xml` with `PhotosXMLParser`, the GeoJSON answer with
/// `PhotosGeoJSONParser`.
///
/// A photo's `thumbnailUrl` is an http or https URL. An answer read from a folder of fixtures
/// (`localFilesIn`, as a script reads it) may instead name a file, by a path relative to that
/// folder or an absolute one, which a script's photo view opens.
public enum PhotosParser {
    public static func parse(
        _ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes, localFilesIn directory: URL? = nil
    ) throws(PayloadError) -> [Photo] {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        switch try PayloadNotation.of(data) {
        case .xml: return try PhotosXMLParser.parse(data, maxBytes: maxBytes, localFilesIn: directory)
        case .json: return try PhotosGeoJSONParser.parse(data, maxBytes: maxBytes, localFilesIn: directory)
        }
    }

    /// The address `text` names: an http or https URL, or with `directory`, a file; nil when
    /// it is neither.
    static func imageAddress(_ text: String, localFilesIn directory: URL?) -> URL? {
        if let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil { return url }
        guard let directory, !text.isEmpty, !text.contains(":") else { return nil }
        let file = text.hasPrefix("/") ? URL(fileURLWithPath: text) : directory.appendingPathComponent(text)
        return file.standardizedFileURL
    }

    /// What `imageAddress` allows, as errors say it.
    static func allowedAddresses(localFilesIn directory: URL?) -> String {
        directory == nil ? "an http or https URL" : "an http or https URL, or a file path"
    }
}
