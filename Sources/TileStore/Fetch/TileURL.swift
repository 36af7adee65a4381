import Foundation
import MapGeometry

/// A tile's upstream URL, with any API key kept out of everything that is printed or stored.
public struct TileURL: Sendable {
    /// The URL to request, key included. Never log or show it.
    let url: String
    /// The URL with the key replaced by `{apikey}`: safe for logs and errors.
    public let redacted: String
    /// The key, so that messages from below (such as libcurl's) can be scrubbed of it.
    let secret: String?

    /// Removes the key from any text.
    public func scrub(_ text: String) -> String {
        guard let secret, !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: "{apikey}")
    }

    public var host: String? { URLComponents(string: redacted)?.host }

    /// The archive's own URL, when the style reads its tiles from a PMTiles archive on a web
    /// server (`pmtiles://https://…`).
    var pmtilesArchive: TileURL? {
        let scheme = TileSource.pmtilesScheme
        guard url.hasPrefix(scheme) else { return nil }
        return TileURL(url: String(url.dropFirst(scheme.count)), redacted: String(redacted.dropFirst(scheme.count)), secret: secret)
    }
}

/// A style that needs a key the environment does not provide.
public struct MissingAPIKey: Error, CustomStringConvertible, Sendable {
    public let style: String
    public let variable: String

    public var description: String {
        "style \(style) needs an API key: set the environment variable \(variable)"
    }
}

extension TileSource {
    /// The upstream URL of a tile: `{z}`, `{x}`, `{y}`, `{-y}` (TMS row), `{s}` (a subdomain
    /// chosen by the tile, so it always comes from the same host), `{r}` ("@2x" for double
    /// resolution) and `{apikey}` (from the environment variable the style names).
    public func url(for tile: TileID, retina: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment) throws(MissingAPIKey) -> TileURL {
        let template = retina ? (retinaURLTemplate ?? urlTemplate) : urlTemplate
        // One pass over the template: Foundation's replacements, one a placeholder, cost a cold
        // fill 3% of its processor time (perf).
        var url = ""
        var rest = template[...]
        while let close = rest.firstIndex(of: "}") {
            guard let open = rest[..<close].lastIndex(of: "{") else {
                url += rest[...close]
                rest = rest[rest.index(after: close)...]
                continue
            }
            url += rest[..<open]
            let placeholder = rest[rest.index(after: open)..<close]
            switch placeholder {
            case "z": url += String(tile.z)
            case "x": url += String(tile.x)
            case "y": url += String(tile.y)
            case "-y": url += String(tile.tmsRow)
            case "r": url += retina ? "@2x" : ""
            case "s" where !subdomains.isEmpty: url += subdomains[(tile.x + tile.y) % subdomains.count]
            default: url += rest[open...close]  // `{apikey}`, below, or not a placeholder
            }
            rest = rest[rest.index(after: close)...]
        }
        url += rest
        let redacted = url
        var secret: String?
        if url.contains("{apikey}"), let variable = apiKeyEnvironmentVariable {
            guard let key = environment[variable], !key.isEmpty else { throw MissingAPIKey(style: name, variable: variable) }
            let encoded = key.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))) ?? key
            url = url.replacingOccurrences(of: "{apikey}", with: encoded)
            secret = encoded
        }
        return TileURL(url: url, redacted: redacted, secret: secret)
    }

    /// Whether the source is tile.openstreetmap.org, whose usage policy forbids bulk downloading.
    public var isOpenStreetMapTileServer: Bool {
        guard var host = URLComponents(string: urlTemplate.replacingOccurrences(of: "{s}", with: "a"))?.host?.lowercased() else { return false }
        // "tile.openstreetmap.org." (a fully qualified name) is the same server.
        while host.hasSuffix(".") { host.removeLast() }
        return host == "tile.openstreetmap.org" || host.hasSuffix(".tile.openstreetmap.org")
    }
}
