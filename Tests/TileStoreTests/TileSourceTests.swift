import Foundation
import MapGeometry
import StrictJSON
import Testing
import TileStore

@Suite("Tile source (style) definitions")
struct TileSourceTests {
    @Test("the built-in catalogue has osm and opencyclemap")
    func builtinNames() {
        #expect(StyleCatalog.builtin.names == ["opencyclemap", "osm"])
    }

    @Test("osm: today's HTTPS URL without subdomains, zoom 0...19, one attribution line")
    func osm() throws {
        let osm = try #require(StyleCatalog.builtin["osm"])
        #expect(osm.urlTemplate == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        #expect(osm.tileSet.zoomRange == ZoomRange(min: 0, max: 19))
        #expect(osm.tileSet.tileSize == 256)
        #expect(osm.apiKeyEnvironmentVariable == nil)
        #expect(osm.tileSet.attribution == "© OpenStreetMap contributors")
        #expect(osm.tileSet.legacyAttribution == "(c) OpenStreetMap and contributors, CC-BY-SA")
    }

    @Test("opencyclemap: two attribution lines, and its key comes from the environment")
    func openCycleMap() throws {
        let ocm = try #require(StyleCatalog.builtin["opencyclemap"])
        #expect(ocm.tileSet.attribution.split(separator: "\n").count == 2)
        #expect(ocm.tileSet.legacyAttribution == "(c) OpenStreetMap and contributors, CC-BY-SA;\nMap images (c) OpenCycleMap")
        let keyVariable = try #require(ocm.apiKeyEnvironmentVariable)
        #expect(!keyVariable.isEmpty)
        // The template holds a placeholder, never a key.
        #expect(ocm.urlTemplate.hasPrefix("https://tile.thunderforest.com/cycle/{z}/{x}/{y}"))
        #expect(ocm.urlTemplate.hasSuffix("apikey={apikey}"))
        #expect(ocm.retinaURLTemplate?.contains("@2x") == true)
    }

    @Test("a tile's URL fills every placeholder, leaves other braces alone, and keeps the key out of its printable form")
    func tileURL() throws {
        let json = #"""
            {"name": "full", "url": "https://{s}.example.org/{z}/{x}/{y}.png?row={-y}&k={apikey}&q={q}&odd=}{{z}",
             "retinaUrl": "https://{s}.example.org/{z}/{x}/{y}{r}.png?k={apikey}", "subdomains": ["a", "b", "c"],
             "apiKeyEnv": "FULL_KEY", "minZoom": 0, "maxZoom": 19, "attribution": "Example"}
            """#
        let source = try TileSource(json: Data(json.utf8), documentName: "full.json")
        let tile = TileID(z: 3, x: 2, y: 5)
        let plain = try source.url(for: tile, environment: ["FULL_KEY": "s3cret"])
        #expect(plain.redacted == "https://b.example.org/3/2/5.png?row=2&k={apikey}&q={q}&odd=}{3")
        #expect(plain.scrub("sent with s3cret") == "sent with {apikey}")
        let retina = try source.url(for: tile, retina: true, environment: ["FULL_KEY": "s3cret"])
        #expect(retina.redacted == "https://b.example.org/3/2/5@2x.png?k={apikey}")
    }

    @Test("a minimal definition parses, with defaults for the optional fields")
    func minimalDefinition() throws {
        let json = #"{"name": "plain", "url": "https://example.org/{z}/{x}/{y}.png", "minZoom": 2, "maxZoom": 14, "attribution": "Example"}"#
        let source = try TileSource(json: Data(json.utf8), documentName: "plain.json")
        #expect(source.name == "plain" && source.title == "plain" && source.tileSet.tileSize == 256)
        #expect(source.tileSet.zoomRange == ZoomRange(min: 2, max: 14))
        #expect(source.retinaURLTemplate == nil && source.apiKeyEnvironmentVariable == nil)
    }

    @Test("a style of 512 px tiles draws each zoom from its tiles one zoom shallower")
    func largeTiles() throws {
        let json = #"{"name": "aerial", "url": "https://example.org/{z}/{x}/{y}.jpg", "minZoom": 1, "maxZoom": 19, "tileSize": 512, "attribution": "Example"}"#
        let source = try TileSource(json: Data(json.utf8), documentName: "aerial.json")
        #expect(source.tileSet.tileSize == 512)
        #expect(source.tileSet.zoomRange == ZoomRange(min: 1, max: 19), "zooms are the map's, as scenes give them")
        #expect(source.tileSet.grid.tileZoomRange == ZoomRange(min: 0, max: 18))
        #expect(source.tileDecoder.allowedSides == [512, 1024])
    }

    /// A bad definition and the words its error message must contain: the field, the value
    /// and what is allowed.
    struct BadStyle: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let mustMention: [String]
        var testDescription: String { name }
    }

    static let base = #""name": "plain", "url": "https://example.org/{z}/{x}/{y}.png", "attribution": "Example""#

    static let badStyles = [
        BadStyle(name: "unknown field", json: #"{\#(base), "minZoom": 0, "maxZoom": 19, "colour": "red"}"#, mustMention: ["colour", "unknown field", "maxZoom"]),
        BadStyle(name: "zoom beyond 24", json: #"{\#(base), "minZoom": 0, "maxZoom": 30}"#, mustMention: ["maxZoom", "30", "0...24"]),
        BadStyle(name: "fractional zoom", json: #"{\#(base), "minZoom": 0.5, "maxZoom": 19}"#, mustMention: ["minZoom", "0.5", "whole number"]),
        BadStyle(name: "zooms the wrong way round", json: #"{\#(base), "minZoom": 12, "maxZoom": 4}"#, mustMention: ["maxZoom", "4", "12"]),
        BadStyle(name: "missing zoom", json: #"{\#(base), "minZoom": 0}"#, mustMention: ["maxZoom", "missing"]),
        BadStyle(
            name: "URL without {x}",
            json: #"{"name": "plain", "url": "https://example.org/{z}/{y}.png", "attribution": "A", "minZoom": 0, "maxZoom": 19}"#,
            mustMention: ["url", "https://example.org/{z}/{y}.png", "{x}"]
        ),
        BadStyle(name: "bad name", json: #"{"name": "Plain Map", "url": "https://e.org/{z}/{x}/{y}", "attribution": "A", "minZoom": 0, "maxZoom": 1}"#, mustMention: ["name", "Plain Map", "lower-case"]),
        BadStyle(name: "tile size 300", json: #"{\#(base), "minZoom": 0, "maxZoom": 19, "tileSize": 300}"#, mustMention: ["tileSize", "300", "256, 512 or 1024"]),
        BadStyle(name: "tile size 2048", json: #"{\#(base), "minZoom": 0, "maxZoom": 19, "tileSize": 2048}"#, mustMention: ["tileSize", "2048", "256, 512 or 1024"]),
        BadStyle(name: "malformed JSON", json: #"{"name": "plain", "#, mustMention: ["bad.json", "malformed JSON"]),
    ]

    @Test("a bad definition is refused, naming the field, the value and what is allowed", arguments: badStyles)
    func badDefinition(style: BadStyle) {
        do {
            let source = try TileSource(json: Data(style.json.utf8), documentName: "bad.json")
            Issue.record("\(style.name) parsed as \(source)")
        } catch {
            for word in style.mustMention {
                #expect(error.description.contains(word), "\"\(error.description)\" does not mention \(word)")
            }
        }
    }
}
