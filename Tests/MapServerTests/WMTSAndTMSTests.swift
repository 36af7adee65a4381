import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapServer
import Testing
import TileStore

// WMTS 1.0.0 and TMS 1.0.0 for GIS clients: the documents read by an independent parser, the
// tiles and refusals compared with `/tiles`, and real clients (GDAL's WMTS driver and TMS
// minidriver, OWSLib) reading the documents and fetching a fixture tile through them.

/// What the tests of this file share: the fixture tile they fetch and the grid's numbers, written
/// out here rather than taken from the server's code.
enum GISFixtures {
    /// A tile of the fixture cache (central Cambridge, zoom 16).
    static let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
    /// Half the equator of EPSG:3857's sphere, in metres: π × 6378137.
    static let halfWorld = 20_037_508.342789244

    /// The tile's edges in EPSG:3857 metres, as `-projwin` takes them: west, north, east, south.
    static func projectedWindow(_ tile: TileID) -> [String] {
        let span = 2 * halfWorld / Double(TileID.tilesPerSide(zoom: tile.z))
        let west = -halfWorld + Double(tile.x) * span, north = halfWorld - Double(tile.y) * span
        return [west, north, west + span, north - span].map { "\($0)" }
    }

    /// The TMS path of `tile`: its row counted from the south.
    static func tmsPath(_ tile: TileID, style: String = "osm") -> String {
        "/tms/1.0.0/\(style)/\(tile.z)/\(tile.x)/\(tile.tmsRow).png"
    }

    /// A style whose title and attribution hold every character XML must escape, and one it
    /// cannot carry at all, and whose upstream needs a key: neither its URL nor the key may show.
    static func awkwardStyle() throws -> TileSource {
        let json = #"""
            {"name": "awkward", "title": "Fish & <Chips> \"quoted\" 'single' \u0001",
             "url": "https://tiles.example.net/{z}/{x}/{y}.png?key={apikey}", "apiKeyEnv": "AWKWARD_TILE_KEY",
             "minZoom": 3, "maxZoom": 5, "attribution": "A & B\nC <D>"}
            """#
        return try TileSource(json: Data(json.utf8), documentName: "awkward.json")
    }
}

/// An XML element as Python's ElementTree reads it, namespaces left out of the names: a second,
/// independent reader of what the server writes.
struct ParsedXML: Sendable {
    let name: String
    let attributes: [String: String]
    let text: String
    let children: [ParsedXML]

    /// Parses `xml` with the system's python3, failing on anything ElementTree refuses.
    static func parse(_ xml: Data) async throws -> ParsedXML {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("document.xml")
            try xml.write(to: file)
            let script = """
                import json, sys, xml.etree.ElementTree as ET
                def tree(e):
                    return {"name": e.tag.split("}")[-1], "attributes": {k.split("}")[-1]: v for k, v in e.attrib.items()},
                            "text": (e.text or "").strip(), "children": [tree(c) for c in e]}
                print(json.dumps(tree(ET.parse(sys.argv[1]).getroot())))
                """
            let result = try await runPython(script, [file.path])
            guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] else {
                throw TestSetupError(description: "ElementTree could not read the document: \(result)")
            }
            return ParsedXML(object)
        }
    }

    private init(_ object: [String: Any]) {
        name = object["name"] as? String ?? ""
        attributes = object["attributes"] as? [String: String] ?? [:]
        text = object["text"] as? String ?? ""
        children = (object["children"] as? [[String: Any]] ?? []).map(ParsedXML.init)
    }

    /// The children called `name`.
    func all(_ name: String) -> [ParsedXML] { children.filter { $0.name == name } }

    /// The element reached by following child names, or nil.
    func first(_ path: String...) -> ParsedXML? {
        path.reduce(Optional(self)) { element, name in element?.children.first { $0.name == name } }
    }
}

@Suite struct WMTSAndTMSDocumentTests {
    @Test("WMTS capabilities: a layer a style with its title, attribution, bounds and zooms; one GoogleMapsCompatible set")
    func capabilitiesDescribeEveryStyle() async throws {
        let awkwardStyle = try GISFixtures.awkwardStyle()
        try await TestServer.with({ $0.catalog.add(awkwardStyle) }) { server in
            let reply = try await server.get("/wmts/1.0.0/WMTSCapabilities.xml", headers: [("Host", "maps.example.org:8080")])
            try #require(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type") == "application/xml")
            #expect(reply.header("Cache-Control") == "public, max-age=300")
            #expect(reply.header("Vary") == "Host")
            #expect(!reply.text.contains("tiles.example.net") && !reply.text.contains("tile.openstreetmap.org"), "an upstream's URL shows")
            let capabilities = try await ParsedXML.parse(reply.body)
            #expect(capabilities.name == "Capabilities" && capabilities.attributes["version"] == "1.0.0")
            let contents = try #require(capabilities.first("Contents"))
            let layers = contents.all("Layer")
            #expect(layers.map { $0.first("Identifier")?.text } == ["awkward", "opencyclemap", "osm"])

            let osm = try #require(layers.last)
            #expect(osm.first("Title")?.text == "OpenStreetMap map design")
            #expect(osm.first("Abstract")?.text == "© OpenStreetMap contributors")
            #expect(osm.first("WGS84BoundingBox", "LowerCorner")?.text == "-180.0 -85.0511")
            #expect(osm.first("WGS84BoundingBox", "UpperCorner")?.text == "180.0 85.0511")
            #expect(osm.first("Format")?.text == "image/png")
            #expect(osm.first("Style")?.attributes["isDefault"] == "true")
            let resource = try #require(osm.first("ResourceURL"))
            #expect(resource.attributes["template"] == "http://maps.example.org:8080/tiles/osm/{TileMatrix}/{TileCol}/{TileRow}.png")
            #expect(resource.attributes["resourceType"] == "tile" && resource.attributes["format"] == "image/png")
            let limits = try #require(osm.first("TileMatrixSetLink", "TileMatrixSetLimits")).all("TileMatrixLimits")
            try #require(limits.count == 20, "\(limits.count) zooms for osm")
            #expect(limits.map { $0.first("TileMatrix")?.text } == (0...19).map { String($0) })
            #expect(limits[16].first("MaxTileRow")?.text == "65535" && limits[16].first("MaxTileCol")?.text == "65535")

            // Every character the awkward style's title and attribution hold comes back as it was
            // written, but the one XML cannot carry, which is U+FFFD.
            let awkward = try #require(layers.first)
            #expect(awkward.first("Title")?.text == "Fish & <Chips> \"quoted\" 'single' \u{FFFD}")
            #expect(awkward.first("Abstract")?.text == "A & B; C <D>")
            let awkwardZooms = awkward.first("TileMatrixSetLink", "TileMatrixSetLimits")?.all("TileMatrixLimits").compactMap { $0.first("TileMatrix")?.text }
            #expect(awkwardZooms == ["3", "4", "5"])

            // One set, to the deepest zoom of any style (opencyclemap's 22), OGC's numbers at zoom 0.
            let sets = contents.all("TileMatrixSet")
            try #require(sets.count == 1)
            #expect(sets[0].first("Identifier")?.text == "GoogleMapsCompatible")
            #expect(sets[0].first("SupportedCRS")?.text == "urn:ogc:def:crs:EPSG::3857")
            #expect(sets[0].first("WellKnownScaleSet")?.text == "urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible")
            let matrices = sets[0].all("TileMatrix")
            try #require(matrices.count == 23, "\(matrices.count) tile matrices")
            #expect(matrices[0].first("ScaleDenominator")?.text == "559082264.0287178")
            #expect(matrices[0].first("TopLeftCorner")?.text == "-20037508.342789244 20037508.342789244")
            #expect(matrices[0].first("MatrixWidth")?.text == "1" && matrices[22].first("MatrixHeight")?.text == "4194304")
            #expect(matrices[22].first("TileWidth")?.text == "256" && matrices[22].first("TileHeight")?.text == "256")
            let deepest = try #require(matrices[22].first("ScaleDenominator").flatMap { Double($0.text) })
            #expect(abs(deepest - 559_082_264.0287178 / 4_194_304) < 1e-9)
            #expect(capabilities.first("ServiceMetadataURL")?.attributes["href"] == "http://maps.example.org:8080/wmts/1.0.0/WMTSCapabilities.xml")
        }
    }

    @Test("TMS: the service lists a tile map a style; a tile map gives the grid, the format and a tile set a zoom")
    func tmsDocumentsDescribeEveryStyle() async throws {
        let awkwardStyle = try GISFixtures.awkwardStyle()
        try await TestServer.with({ $0.catalog.add(awkwardStyle) }) { server in
            let service = try await server.get("/tms/1.0.0", headers: [("Host", "maps.example.org")])
            try #require(service.status == 200, "\(service)")
            #expect(service.header("Content-Type") == "application/xml" && service.header("Vary") == "Host")
            let maps = try #require(try await ParsedXML.parse(service.body).first("TileMaps")).all("TileMap")
            #expect(maps.map { $0.attributes["href"] } == ["awkward", "opencyclemap", "osm"].map { "http://maps.example.org/tms/1.0.0/\($0)" })
            #expect(maps.map { $0.attributes["title"] } == ["Fish & <Chips> \"quoted\" 'single' \u{FFFD}", "OpenCycleMap (with hills)", "OpenStreetMap map design"])
            #expect(maps.allSatisfy { $0.attributes["srs"] == "EPSG:3857" && $0.attributes["profile"] == "mercator" })

            let reply = try await server.get("/tms/1.0.0/osm", headers: [("Host", "maps.example.org")])
            try #require(reply.status == 200, "\(reply)")
            #expect(reply.header("Cache-Control") == "public, max-age=300")
            let map = try await ParsedXML.parse(reply.body)
            #expect(map.name == "TileMap" && map.attributes["version"] == "1.0.0")
            #expect(map.first("Title")?.text == "OpenStreetMap map design")
            #expect(map.first("Attribution", "Title")?.text == "© OpenStreetMap contributors")
            #expect(map.first("SRS")?.text == "EPSG:3857")
            let half = "20037508.342789244"
            #expect(map.first("BoundingBox")?.attributes == ["minx": "-" + half, "miny": "-" + half, "maxx": half, "maxy": half])
            #expect(map.first("Origin")?.attributes == ["x": "-" + half, "y": "-" + half])
            #expect(map.first("TileFormat")?.attributes == ["width": "256", "height": "256", "mime-type": "image/png", "extension": "png"])
            let sets = try #require(map.first("TileSets")).all("TileSet")
            try #require(sets.count == 20, "\(sets.count) tile sets")
            #expect(sets[0].attributes == ["href": "http://maps.example.org/tms/1.0.0/osm/0", "units-per-pixel": "156543.03392804097", "order": "0"])
            let deepest = try #require(sets[19].attributes["units-per-pixel"].flatMap(Double.init))
            #expect(abs(deepest - 156_543.03392804097 / 524_288) < 1e-12 && sets[19].attributes["order"] == "19")

            let awkward = try await server.get("/tms/1.0.0/awkward")
            #expect(!awkward.text.contains("tiles.example.net"), "the upstream's URL shows")
            let awkwardMap = try await ParsedXML.parse(awkward.body)
            #expect(awkwardMap.first("Attribution", "Title")?.text == "A & B; C <D>")
            #expect(awkwardMap.first("TileSets")?.all("TileSet").map { $0.attributes["order"] } == ["3", "4", "5"])
        }
    }

    @Test("with --public-url the documents use it whatever the Host says, and nothing the request carries shows")
    func documentsUseThePublicURL() async throws {
        try await TestServer.with({ $0.publicURL = "https://maps.example.org/mapframe" }) { server in
            for path in ["/wmts/1.0.0/WMTSCapabilities.xml?apikey=SECRET-KEY-123&service=WMTS", "/tms/1.0.0?token=SECRET-KEY-123", "/tms/1.0.0/osm?token=SECRET-KEY-123"] {
                let reply = try await server.get(path, headers: [("Host", "evil.example:666")])
                #expect(reply.status == 200, "\(path): \(reply)")
                #expect(reply.header("Vary") == nil, "\(path): \(reply)")
                #expect(!reply.text.contains("evil.example") && !reply.text.contains("SECRET"), "\(path): \(reply.text.prefix(300))")
                #expect(reply.text.contains("https://maps.example.org/mapframe/"), "\(path): \(reply.text.prefix(300))")
            }
            let capabilities = try await server.get("/wmts/1.0.0/WMTSCapabilities.xml")
            #expect(capabilities.text.contains(#"template="https://maps.example.org/mapframe/tiles/osm/{TileMatrix}/{TileCol}/{TileRow}.png""#))
        }
        // Without it, a Host that is not a host is refused, as for TileJSON.
        try await TestServer.with { server in
            for path in ["/wmts/1.0.0/WMTSCapabilities.xml", "/tms/1.0.0", "/tms/1.0.0/osm"] {
                let reply = try await server.get(path, headers: [("Host", "<script>x</script>")])
                try expectJSONError(reply, status: 400, mentions: "Host")
            }
        }
    }
}

@Suite struct TMSTileTests {
    @Test("a TMS tile is the /tiles tile of the flipped row, with the same headers, validators and metrics")
    func tmsTileIsTheXYZTileWithItsRowFlipped() async throws {
        try await TestServer.with(fixtures: true) { server in
            let tile = GISFixtures.tile
            let xyz = try await server.get(Fixtures.tilePath(tile))
            try #require(xyz.status == 200 && xyz.header("X-MapFrame-Placeholder") == nil, "\(xyz)")
            let tms = try await server.get(GISFixtures.tmsPath(tile))
            #expect(tms.status == 200, "\(tms)")
            #expect(tms.body == xyz.body, "the TMS tile's bytes are not the /tiles tile's")
            for name in ["Content-Type", "Content-Length", "ETag", "Cache-Control", "Last-Modified", "Access-Control-Allow-Origin", "X-MapFrame-Placeholder"] {
                #expect(tms.header(name) == xyz.header(name), "\(name): \(tms.header(name) ?? "none") against \(xyz.header(name) ?? "none")")
            }
            // The row as XYZ counts it is another tile, far south of the fixture area.
            let unflipped = try await server.get("/tms/1.0.0/osm/\(tile.z)/\(tile.x)/\(tile.y).png")
            #expect(unflipped.body != xyz.body)

            let etag = try #require(tms.header("ETag"))
            // Over a raw socket, which shows any body bytes after the head.
            let notModified = try await HTTP.send("GET", GISFixtures.tmsPath(tile), port: server.port, headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304 && notModified.body.isEmpty, "\(notModified)")
            let head = try await HTTP.send("HEAD", GISFixtures.tmsPath(tile), port: server.port)
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == xyz.header("Content-Length"), "\(head)")

            let metrics = try await server.get("/metrics").text.split(separator: "\n")
            for status in ["200", "304"] {
                #expect(metrics.contains { $0.hasPrefix("mapframe_http_requests_total{") && $0.contains(#"endpoint="/tms/1.0.0/{style}/{z}/{x}/{y}""#) && $0.contains(#"status="\#(status)""#) },
                        "no request count for TMS tiles answered \(status)")
            }
        }
    }

    /// Each bad address, its status and what the error says, as `/tiles` says it.
    static let refusals: [(path: String, status: Int, mentions: String)] = [
        ("/tms/1.0.0/nope/16/1/1.png", 404, "style 'nope' is not known; known styles: opencyclemap, osm"),
        ("/tms/1.0.0/nope", 404, "style 'nope' is not known; known styles: opencyclemap, osm"),
        ("/tms/1.0.0/osm/20/1/1.png", 404, "z: 20 is outside the osm style's zoom range 0...19"),
        ("/tms/1.0.0/osm/31/1/1.png", 400, "z: 31 is outside 0...30"),
        ("/tms/1.0.0/osm/16/65536/1.png", 400, "x: 65536 is outside 0...65535"),
        ("/tms/1.0.0/osm/16/1/65536.png", 400, "y: 65536 is outside 0...65535"),
        ("/tms/1.0.0/osm/16/1/1.jpg", 400, "y: '1.jpg' must end in .png"),
        ("/tms/1.0.0/osm/16/1/1@2x.png", 400, "y: '1@2x' is not a whole number"),
        ("/tms/1.0.0/osm/16/-1/1.png", 400, "x: '-1' is not a whole number"),
        ("/wmts/1.0.0/WMTSCapabilities.xml?service=WMS", 400, "service: 'WMS' is not offered; allowed: WMTS"),
        ("/wmts/1.0.0/WMTSCapabilities.xml?SERVICE=WMTS&REQUEST=GetTile", 400, "REQUEST: 'GetTile' is not offered; allowed: GetCapabilities"),
        ("/wmts/1.0.0/WMTSCapabilities.xml?version=2.0.0", 400, "version: '2.0.0' is not offered; allowed: 1.0.0"),
        ("/wmts/1.0.0/WMTSCapabilities.xml?AcceptVersions=2.0.0,1.1.0", 400, "AcceptVersions: '2.0.0,1.1.0' is not offered; allowed: 1.0.0"),
    ]

    @Test("a bad address is a 4xx naming the part, the value and what is allowed; the cached tile is still served after")
    func badAddressesAreRefusedByName() async throws {
        try await TestServer.with(fixtures: true) { server in
            let before = try await server.get(GISFixtures.tmsPath(GISFixtures.tile))
            try #require(before.status == 200, "\(before)")
            for refusal in Self.refusals {
                let reply = try await server.get(refusal.path)
                try expectJSONError(reply, status: refusal.status, mentions: refusal.mentions)
                // The same tile as /tiles refuses the same way, row for row.
                if refusal.path.hasPrefix("/tms/1.0.0/"), refusal.path.hasSuffix(".png"), !refusal.path.contains("@2x") {
                    let xyz = try await server.get("/tiles/" + refusal.path.dropFirst("/tms/1.0.0/".count))
                    #expect(xyz.status == reply.status, "\(refusal.path): /tiles answers \(xyz)")
                }
            }
            // Capabilities with OWSLib's parameters, in any case, are answered.
            let owslib = try await server.get("/wmts/1.0.0/WMTSCapabilities.xml?service=wmts&request=getcapabilities&version=1.0.0&AcceptVersions=2.0.0,1.0.0")
            #expect(owslib.status == 200, "\(owslib)")
            let after = try await server.get(GISFixtures.tmsPath(GISFixtures.tile))
            #expect(after.status == 200 && after.body == before.body, "the cached tile changed after the refusals: \(after)")
        }
    }
}

/// GDAL (Debian's gdal-bin), through its own HTTP client, with only 127.0.0.1 reachable (the
/// children's proxy refuses everything else) and its tile cache off.
enum GDAL {
    static let translate = URL(fileURLWithPath: "/usr/bin/gdal_translate")
    static let info = URL(fileURLWithPath: "/usr/bin/gdalinfo")

    static let unavailability: String? = FileManager.default.isExecutableFile(atPath: translate.path)
        ? nil : "gdal_translate is not installed; make deps-test installs Debian's gdal-bin"

    static let environment: [String: String?] = ["GDAL_ENABLE_WMS_CACHE": "NO", "GDAL_PAM_ENABLED": "NO", "GDAL_HTTP_TIMEOUT": "60"]

    /// Runs a GDAL program in `directory`; throws with its output when it fails.
    static func run(_ program: URL, _ arguments: [String], in directory: URL) async throws -> String {
        let result = try await runProgram(program, arguments, in: directory, environment: environment)
        guard result.status == 0 else { throw TestSetupError(description: "\(program.lastPathComponent) failed: \(result)") }
        return result.standardOutput
    }

    /// Has GDAL draw the 256 px window of `tile` from `dataset` into a PNG, and decodes it.
    static func window(of tile: TileID, from dataset: String, in directory: URL) async throws -> RasterImage {
        let output = directory.appendingPathComponent("window-\(UUID().uuidString).png")
        _ = try await run(translate, ["-q", "-of", "PNG", "-outsize", "256", "256", "-projwin"] + GISFixtures.projectedWindow(tile) + [dataset, output.path], in: directory)
        return try PNGCodec.decode(Data(contentsOf: output))
    }
}

@Suite(.enabled(if: GDAL.unavailability == nil, "\(GDAL.unavailability ?? "")"))
struct GDALClientTests {
    @Test("GDAL's WMTS driver lists every style and draws a fixture tile's window with the cached tile's pixels")
    func wmtsDriverDrawsTheCachedTile() async throws {
        try await withTemporaryDirectory { directory in
            try await TestServer.with(fixtures: true) { server in
                let capabilities = "WMTS:http://127.0.0.1:\(server.port)/wmts/1.0.0/WMTSCapabilities.xml"
                let info = try await GDAL.run(GDAL.info, [capabilities], in: directory)
                #expect(info.contains("SUBDATASET_1_NAME=\(capabilities),layer=opencyclemap"), "\(info)")
                #expect(info.contains("SUBDATASET_2_NAME=\(capabilities),layer=osm"), "\(info)")
                #expect(info.contains("SUBDATASET_2_DESC=Layer OpenStreetMap map design"), "\(info)")

                let tile = GISFixtures.tile
                let cached = try await server.get(Fixtures.tilePath(tile))
                try #require(cached.status == 200 && cached.header("X-MapFrame-Placeholder") == nil, "\(cached)")
                // No zoom is named: GDAL picks the tile matrix whose pixels the window's 256 fit.
                let drawn = try await GDAL.window(of: tile, from: capabilities + ",layer=osm", in: directory)
                #expect(drawn.width == 256 && drawn.height == 256)
                let expected = try cached.image().allPixels
                let differing = zip(drawn.allPixels, expected).count { $0 != $1 }
                #expect(differing == 0, "\(differing) of GDAL's pixels differ from the cached tile's")
                #expect(Set(expected).count > 1, "the cached tile is one colour, so the comparison proves little")
            }
        }
    }

    @Test("GDAL's TMS minidriver, counting rows from the south, draws the same tile")
    func tmsMinidriverDrawsTheCachedTile() async throws {
        try await withTemporaryDirectory { directory in
            try await TestServer.with(fixtures: true) { server in
                let tile = GISFixtures.tile
                let half = "\(GISFixtures.halfWorld)"
                let service = """
                    <GDAL_WMS>
                      <Service name="TMS"><ServerUrl>http://127.0.0.1:\(server.port)/tms/1.0.0/osm/${z}/${x}/${y}.png</ServerUrl></Service>
                      <DataWindow>
                        <UpperLeftX>-\(half)</UpperLeftX><UpperLeftY>\(half)</UpperLeftY>
                        <LowerRightX>\(half)</LowerRightX><LowerRightY>-\(half)</LowerRightY>
                        <TileLevel>\(tile.z)</TileLevel><TileCountX>1</TileCountX><TileCountY>1</TileCountY>
                        <YOrigin>bottom</YOrigin>
                      </DataWindow>
                      <Projection>EPSG:3857</Projection>
                      <BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY>
                      <BandsCount>4</BandsCount>
                    </GDAL_WMS>
                    """
                let file = directory.appendingPathComponent("tms.xml")
                try Data(service.utf8).write(to: file)
                let drawn = try await GDAL.window(of: tile, from: file.path, in: directory)
                let expected = try await server.get(Fixtures.tilePath(tile)).image().allPixels
                let differing = zip(drawn.allPixels, expected).count { $0 != $1 }
                #expect(differing == 0, "\(differing) of GDAL's pixels differ from the /tiles tile's")
            }
        }
    }
}

@Suite(.enabled(if: TestClients.unavailability == nil, "\(TestClients.unavailability ?? "")"))
struct OWSLibClientTests {
    @Test("OWSLib reads the capabilities, lists the layers and fetches a tile byte for byte the /tiles tile")
    func owslibListsLayersAndFetchesTheTile() async throws {
        try await withTemporaryDirectory { directory in
            try await TestServer.with(fixtures: true) { server in
                let tile = GISFixtures.tile
                let tileFile = directory.appendingPathComponent("tile.png")
                let script = """
                    import json
                    from owslib.wmts import WebMapTileService
                    wmts = WebMapTileService("http://127.0.0.1:\(server.port)/wmts/1.0.0/WMTSCapabilities.xml")
                    layers = {name: {"title": layer.title, "abstract": layer.abstract, "bounds": list(layer.boundingBoxWGS84),
                                     "zooms": sorted(int(z) for z in layer.tilematrixsetlinks["GoogleMapsCompatible"].tilematrixlimits)}
                              for name, layer in wmts.contents.items()}
                    matrices = wmts.tilematrixsets["GoogleMapsCompatible"].tilematrix
                    tile = wmts.gettile(layer="osm", tilematrixset="GoogleMapsCompatible", tilematrix="\(tile.z)", row=\(tile.y), column=\(tile.x), format="image/png")
                    open("\(tileFile.path)", "wb").write(tile.read())
                    print(json.dumps({"type": wmts.identification.type, "layers": layers, "matrices": len(matrices),
                                      "scale0": matrices["0"].scaledenominator}))
                    """
                let printed = try await TestClients.python(script)
                let answer = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any], "\(printed)")
                #expect(answer["type"] as? String == "OGC WMTS")
                let layers = try #require(answer["layers"] as? [String: [String: Any]])
                #expect(layers.keys.sorted() == ["opencyclemap", "osm"])
                #expect(layers["osm"]?["title"] as? String == "OpenStreetMap map design")
                #expect(layers["osm"]?["abstract"] as? String == "© OpenStreetMap contributors")
                #expect(layers["osm"]?["bounds"] as? [Double] == [-180, -85.0511, 180, 85.0511])
                #expect(layers["osm"]?["zooms"] as? [Int] == Array(0...19))
                #expect(layers["opencyclemap"]?["zooms"] as? [Int] == Array(0...22))
                #expect(answer["matrices"] as? Int == 23)
                #expect(answer["scale0"] as? Double == 559_082_264.0287178)

                let expected = try await server.get(Fixtures.tilePath(tile))
                try #require(expected.status == 200 && expected.header("X-MapFrame-Placeholder") == nil, "\(expected)")
                let fetched = try Data(contentsOf: tileFile)
                #expect(fetched == expected.body, "OWSLib's tile (\(fetched.count) bytes) is not the /tiles tile (\(expected.body.count) bytes)")
            }
        }
    }
}
