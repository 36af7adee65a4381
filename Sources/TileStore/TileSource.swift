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
    /// The tile URL template with `{z}`, `{x}`, `{y}` and, where a key is needed, `{apikey}`; or
    /// `pmtiles://` and the URL of a PMTiles archive, read with range requests.
    public var urlTemplate: String
    /// A template for double-resolution tiles, where the source has them.
    public var retinaURLTemplate: String?
    /// The environment variable holding the API key, where the source needs one.
    public var apiKeyEnvironmentVariable: String?
    /// Which tiles draw each zoom (a 512 px source's tiles are fetched one zoom shallower; see
    /// `TileGrid`), and the attribution: what drawing needs of the source.
    public var tileSet: TileSet
    /// A style's tile size unless it says otherwise. `mapframe cache verify`, which knows no
    /// style, checks caches against it.
    public static let standardTileSize = Int(WebMercator.tileSize)
    /// The tile sizes MapFrame draws, a style's or a cache file's (`TilesetDescription`): a
    /// 1024 px tile is 4 MiB decoded, and a larger size is refused, whoever declares it.
    public static let tileSizes = [standardTileSize, 2 * standardTileSize, 4 * standardTileSize]
    /// `tileSizes` as messages give them: "256, 512 or 1024".
    static let tileSizesAllowed = tileSizes.dropLast().map(String.init).joined(separator: ", ") + " or \(tileSizes.last!)"
    /// Values for `{s}` in the URL templates; a tile always uses the same one.
    public var subdomains: [String]
    /// The User-Agent sent upstream; `{version}` becomes MapFrame's version.
    public var userAgentTemplate: String?

    static let fieldNames = [
        "name", "title", "url", "retinaUrl", "apiKeyEnv", "minZoom", "maxZoom", "tileSize", "attribution", "legacyAttribution",
        "subdomains", "userAgent",
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
        let tileSize = try reader.integer("tileSize", in: 1...65_536) ?? Self.standardTileSize
        guard Self.tileSizes.contains(tileSize) else {
            throw JSONFieldError(path: "tileSize", value: .number(Double(tileSize)), allowed: Self.tileSizesAllowed)
        }
        tileSet = TileSet(
            grid: TileGrid(tileSize: tileSize, zoomRange: ZoomRange(min: minZoom, max: maxZoom)),
            attribution: try reader.requiredString("attribution"),
            legacyAttribution: try reader.string("legacyAttribution")
        )
        subdomains = try (reader.array("subdomains") ?? []).enumerated().map { index, value throws(JSONFieldError) in
            guard case .string(let subdomain) = value, !subdomain.isEmpty else {
                throw JSONFieldError(path: "subdomains[\(index)]", value: value, allowed: "a non-empty string")
            }
            return subdomain
        }
        userAgentTemplate = try reader.string("userAgent")
        if let apiKeyEnvironmentVariable, apiKeyEnvironmentVariable.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) == nil {
            throw JSONFieldError(path: "apiKeyEnv", value: .string(apiKeyEnvironmentVariable), allowed: "an environment variable name")
        }
        for (field, template) in [("url", urlTemplate), ("retinaUrl", retinaURLTemplate)] {
            guard let template else { continue }
            try TileSource.check(
                template: template, field: field, hasSubdomains: !subdomains.isEmpty, hasKey: apiKeyEnvironmentVariable != nil,
                hasRetina: retinaURLTemplate != nil
            )
        }
    }

    /// The prefix of a `url` that names a PMTiles archive on a web server rather than a template,
    /// as MapLibre's PMTiles protocol writes it: `pmtiles://https://example.com/area.pmtiles`.
    public static let pmtilesScheme = "pmtiles://"

    /// A template needs {z}, {x} and {y} (or {-y}) and an http(s) scheme; {s} needs subdomains,
    /// and {apikey} needs apiKeyEnv. A PMTiles archive's URL has no placeholders but {apikey}, and
    /// is the style's only URL: its tiles have the one size the style gives.
    private static func check(template: String, field: String, hasSubdomains: Bool, hasKey: Bool, hasRetina: Bool) throws(JSONFieldError) {
        let allowed = "an http(s) URL template containing {z}, {x} and {y} or {-y}, or pmtiles:// and the http(s) URL of a PMTiles archive"
        if template.hasPrefix(pmtilesScheme) {
            let archive = template.dropFirst(pmtilesScheme.count)
            guard field == "url", archive.hasPrefix("https://") || archive.hasPrefix("http://"),
                  archive.replacingOccurrences(of: "{apikey}", with: "").range(of: "[{}]", options: .regularExpression) == nil
            else { throw JSONFieldError(path: field, value: .string(template), allowed: field == "url" ? allowed : "an http(s) URL template containing {z}, {x} and {y} or {-y}") }
            if hasRetina { throw JSONFieldError(path: "retinaUrl", message: "is not allowed with a PMTiles archive, whose tiles have one size (give it as tileSize)") }
        } else {
            guard template.hasPrefix("https://") || template.hasPrefix("http://"), template.contains("{z}"), template.contains("{x}"),
                  template.contains("{y}") || template.contains("{-y}")
            else { throw JSONFieldError(path: field, value: .string(template), allowed: allowed) }
        }
        if template.contains("{s}"), !hasSubdomains {
            throw JSONFieldError(path: field, message: "uses {s} but the style has no subdomains")
        }
        if template.contains("{apikey}"), !hasKey {
            throw JSONFieldError(path: field, message: "uses {apikey} but the style has no apiKeyEnv")
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

    /// The built-in styles plus the user's own style files (`--style-file`), which may replace
    /// a built-in style of the same name.
    public static func loading(styleFiles: [String]) throws(JSONFieldError) -> StyleCatalog {
        var catalog = StyleCatalog.builtin
        for path in styleFiles {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw JSONFieldError(path: path, message: "cannot be read; expected a style JSON file")
            }
            do {
                catalog.add(try TileSource(json: data, documentName: path))
            } catch {
                throw JSONFieldError(path: "", message: error.path.isEmpty ? error.description : "\(path): \(error.description)")
            }
        }
        return catalog
    }

    /// The sorted style names, for messages and listings.
    public var names: [String] { sources.keys.sorted() }

    public subscript(name: String) -> TileSource? { sources[name] }
}
