import BuiltinStyles
import Foundation
import MapGeometry
import StrictJSON

/// A raster tile source ("style"): where its tiles come from, which zooms it has, and the
/// attribution that must be shown wherever its tiles appear.
public struct TileSource: Hashable, Sendable {
    /// The short name scenes and URLs use, such as `osm`.
    public var name: String
    /// The human-readable name, such as "OpenStreetMap map design".
    public var title: String
    /// The tile URL template with `{z}`, `{x}`, `{y}` and, where a key is needed, `{apikey}`.
    public var urlTemplate: String
    /// A template for double-resolution tiles, where the source has them.
    public var retinaURLTemplate: String?
    /// The environment variable holding the API key, where the source needs one.
    public var apiKeyEnvironmentVariable: String?
    public var zoomRange: ZoomRange
    /// The side of one tile in pixels.
    public var tileSize: Int
    /// The attribution text; a "\n" splits it into lines.
    public var attribution: String
    /// The attribution the CycleStreets app showed in 2010, kept for faithful reproductions.
    public var legacyAttribution: String?

    static let fieldNames = [
        "name", "title", "url", "retinaUrl", "apiKeyEnv", "minZoom", "maxZoom", "tileSize", "attribution", "legacyAttribution",
    ]

    /// Parses and checks a style definition.
    public init(json data: Data, documentName: String) throws(JSONFieldError) {
        let reader = try JSONObjectReader(JSONValue.parse(data, documentName: documentName), path: "")
        try reader.rejectUnknownFields(allowed: TileSource.fieldNames)
        name = try reader.requiredString("name")
        guard name.range(of: "^[a-z0-9][a-z0-9_-]{0,63}$", options: .regularExpression) != nil else {
            throw JSONFieldError(path: "name", value: .string(name), allowed: "lower-case letters, digits, '-' and '_', at most 64")
        }
        title = try reader.string("title") ?? name
        urlTemplate = try reader.requiredString("url")
        retinaURLTemplate = try reader.string("retinaUrl")
        apiKeyEnvironmentVariable = try reader.string("apiKeyEnv")
        let minZoom = try reader.requiredInteger("minZoom", in: 0...24)
        let maxZoom = try reader.requiredInteger("maxZoom", in: 0...24)
        guard minZoom <= maxZoom else {
            throw JSONFieldError(path: "maxZoom", message: "\(maxZoom) is below minZoom \(minZoom)")
        }
        zoomRange = ZoomRange(min: minZoom, max: maxZoom)
        tileSize = try reader.integer("tileSize", in: 256...256) ?? 256
        attribution = try reader.requiredString("attribution")
        legacyAttribution = try reader.string("legacyAttribution")
        for (field, template) in [("url", urlTemplate), ("retinaUrl", retinaURLTemplate)] {
            guard let template else { continue }
            for placeholder in ["{z}", "{x}", "{y}"] where !template.contains(placeholder) {
                throw JSONFieldError(path: field, value: .string(template), allowed: "a URL template containing {z}, {x} and {y}")
            }
        }
    }
}

/// The tile sources MapFrame knows: the built-in ones plus any the user adds.
public struct StyleCatalog: Sendable {
    public private(set) var sources: [String: TileSource]

    /// The catalogue of built-in styles (`Styles/*.json`, compiled in).
    public static let builtin: StyleCatalog = {
        var sources: [String: TileSource] = [:]
        for (name, bytes) in BuiltinStyles.json {
            // The built-in files are checked by the test suite, so a failure here is a build defect.
            guard let source = try? TileSource(json: Data(bytes), documentName: "Styles/\(name).json") else {
                preconditionFailure("built-in style \(name) does not parse")
            }
            sources[source.name] = source
        }
        return StyleCatalog(sources: sources)
    }()

    public init(sources: [String: TileSource]) {
        self.sources = sources
    }

    /// Adds or replaces a source.
    public mutating func add(_ source: TileSource) {
        sources[source.name] = source
    }

    /// The sorted style names, for messages and listings.
    public var names: [String] { sources.keys.sorted() }

    public subscript(name: String) -> TileSource? { sources[name] }
}
