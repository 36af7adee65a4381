// The tile sources that ship with MapFrame. The JSON files beside this one are the source of
// truth; SwiftPM embeds their bytes into the binary, so no file lookup happens at run time.

/// The built-in style definitions, as raw JSON bytes keyed by style name.
public enum BuiltinStyles {
    public static let json: [String: [UInt8]] = [
        "osm": PackageResources.osm_json,
        "opencyclemap": PackageResources.opencyclemap_json,
    ]
}
