import Foundation
import MapFrameTestSupport
import ImageCodec
import ServerTestSupport
import Testing

/// The viewer page (`GET /`) in a real browser: the real `mapframe serve` on a fixture cache, one
/// stored route, headless Chromium's screenshot, and the screenshot's pixels.
@Suite("Viewer page in headless Chromium")
struct ViewerBrowserTests {
    /// A route through central Cambridge, inside the fixture area (zoom 12-17, and 18 around it).
    static let route = """
        {"type": "Feature", "properties": {}, "geometry": {"type": "LineString",
         "coordinates": [[0.1380, 52.2050], [0.1398, 52.2061], [0.1412, 52.2072], [0.1426, 52.2080], [0.1440, 52.2090]]}}
        """

    /// The browser window, and the viewer's side panel (16rem at the default 16px).
    static let window = (width: 1000, height: 700)
    static let panelWidth = 256

    @Test(
        "shows the fixture tiles and the first stored route's purple line, fitted to the route",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (apt-get install chromium; scripts/install-deps.sh installs it)"),
        .timeLimit(.minutes(5))
    )
    func viewerShowsTilesAndRoute() async throws {
        let scratch = try TemporaryDirectory("browser")
        defer { scratch.remove() }

        // Skip only when Chromium itself cannot work here; a page that fails later is a failure.
        let chromium: Chromium
        switch try await Chromium.probe(try #require(Chromium.installed), in: scratch) {
        case .success(let working): chromium = working
        case .failure(let reason): try Test.cancel("Skipped: \(reason)")
        }

        let cache = scratch.path("cache")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let fixtures = try ChildProcess.start(
            try MapframeExecutable.url(), ["fixtures", "--style", "osm", "--output", cache + "/osm.mbtiles"], in: scratch.url
        )
        let built = await fixtures.waitForExit(timeout: .seconds(120))
        #expect(built != nil, "mapframe fixtures took longer than 120 s")
        try #require(built?.status == 0, "mapframe fixtures failed: \(built?.errorTail ?? "")")

        let server = try await ServeProcess.offline(cacheDirectory: cache, in: scratch)
        defer { server.stop() }
        let routeID = try await server.postRoute(geoJSON: Self.route)

        // Chromium takes its screenshot once the page's own clock has run for the budget, whether
        // or not the tiles have come: on a loaded machine they may not have. A screenshot of a map
        // still empty is taken again, with twice the budget, up to three times; a viewer that
        // never shows its tiles fails all three.
        let screenshot = scratch.path("viewer.png")
        var census: ScreenshotCensus?
        for budget in [8_000, 16_000, 32_000] {
            let browser = try await chromium.screenshot(server.baseURL, size: Self.window, to: screenshot, in: scratch, name: "viewer", virtualTimeBudget: budget)
            try #require(browser != nil, "Chromium took longer than 90 s over the viewer page")
            guard let data = FileManager.default.contents(atPath: screenshot) else {
                Issue.record("Chromium (\(chromium.headlessFlag)) wrote no screenshot of \(server.baseURL) (exit \(browser!.status)): \(browser!.errorTail)")
                return
            }
            keepForInspection(data)
            let taken = try PNGCodec.decode(data)
            try #require(taken.width == Self.window.width && taken.height == Self.window.height, "screenshot is \(taken.width)x\(taken.height)")
            let counted = ScreenshotCensus(taken, mapWidth: taken.width - Self.panelWidth)
            census = counted
            if counted.share(of: counted.emptyMapPixels) < 0.2 { break }
            print("ViewerBrowserTests: the map was still empty after \(budget) ms of page time; taking it again")
        }
        guard let census else { return }
        print("ViewerBrowserTests: \(census)")
        let comment: Comment = "route \(routeID): \(census); screenshot kept at .build/viewer-browser/viewer.png"
        // The map shows fixture tiles: most of it in the palette's colours, with both the blocks
        // and the white streets, and no grey stand-ins for missing tiles or Leaflet's empty #DDD.
        #expect(census.share(of: census.fixturePixels) >= 0.6, comment)
        #expect(census.share(of: census.blockPixels) >= 0.15, comment)
        #expect(census.share(of: census.streetPixels) >= 0.05, comment)
        #expect(census.share(of: census.placeholderPixels) < 0.01, comment)
        // New headless Chromium lays the page out in a viewport 87 px (more with an infobar)
        // shorter than the window and grows it to the window just before the capture, so Leaflet
        // keeps its centre and a strip at the top is still its empty background. Allow that strip.
        #expect(census.share(of: census.emptyMapPixels) < 0.2, comment)
        // The route's line, purple at 0.6 over the tiles, long and spread out: the map is fitted
        // to the route's bounds (a diagonal across town), not left at the opening view.
        #expect(census.routePixels >= 400, comment)
        if let bounds = census.routeBounds {
            #expect(bounds.width >= 150 && bounds.height >= 150, comment)
        }
        // The side panel is not covered by the map.
        #expect(census.panelEdgeShare >= 0.9, comment)
    }

    /// Copies the screenshot to `.build/viewer-browser/viewer.png`, to look at after a run.
    private func keepForInspection(_ data: Data) {
        let directory = packageRoot.appendingPathComponent(".build/viewer-browser")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: directory.appendingPathComponent("viewer.png"))
    }
}

/// Counts of the screenshot's pixels by what they show. The map is the left `mapWidth` columns.
struct ScreenshotCensus: CustomStringConvertible {
    /// FixturePalette.osm: street, major road, its casing, housing block, building, park, water, plaza.
    static let street = Colour(hex: 0xFFFFFF)
    static let blocks = [Colour(hex: 0xE0DFDF), Colour(hex: 0xD9D0C9)]
    static let palette = [street, Colour(hex: 0xF7FABF), Colour(hex: 0xC6C8A0)] + blocks + [Colour(hex: 0xC8FACC), Colour(hex: 0xAAD3DF), Colour(hex: 0xF2EFE9)]
    /// RouteStyle.cycleStreets: RGB (0.8, 0.2, 1.0) at 0.8 in a layer at 0.75, so 0.6 on the map.
    static let routeColour = Colour(hex: 0xCC33FF)
    static let routeAlpha = 0.8 * 0.75
    /// The route's colour over each palette colour: (212, 120, 242) over the blocks' #E0DFDF.
    static let routeOverTiles = palette.map { routeColour.blended(over: $0, alpha: routeAlpha) }
    static let missingTileGrey = Colour(redLevel: 128, greenLevel: 128, blueLevel: 128)
    static let panelBackground = Colour(hex: 0xF6F8F2)
    /// Leaflet's map background where no tile is shown yet.
    static let leafletBackground = Colour(hex: 0xDDDDDD)

    /// Palette colours must match within 2 levels (Leaflet's empty background, #DDDDDD, is 3
    /// from #E0DFDF); the route's blends within 8 (rounding and the line's anti-aliased core).
    static let paletteTolerance = 2
    static let routeTolerance = 8

    let mapPixels: Int
    var fixturePixels = 0, blockPixels = 0, streetPixels = 0, placeholderPixels = 0, emptyMapPixels = 0, routePixels = 0
    var routeBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int, width: Int, height: Int)?
    /// The share of a strip just inside the panel's left border that is the panel's background.
    var panelEdgeShare = 0.0

    init(_ image: RasterImage, mapWidth: Int) {
        mapPixels = mapWidth * image.height
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<image.height {
            for x in 0..<mapWidth {
                let pixel = image.pixel(x: x, y: y)
                if let match = Self.palette.first(where: { pixel.maxChannelDifference(to: $0) <= Self.paletteTolerance }) {
                    fixturePixels += 1
                    if match == Self.street { streetPixels += 1 }
                    if Self.blocks.contains(match) { blockPixels += 1 }
                } else if Self.routeOverTiles.contains(where: { pixel.maxChannelDifference(to: $0) <= Self.routeTolerance }) {
                    routePixels += 1
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                } else if pixel.maxChannelDifference(to: Self.missingTileGrey) <= 2 {
                    placeholderPixels += 1
                } else if pixel.maxChannelDifference(to: Self.leafletBackground) <= 1 {
                    emptyMapPixels += 1
                }
            }
        }
        if routePixels > 0 {
            routeBounds = (minX, minY, maxX, maxY, maxX - minX + 1, maxY - minY + 1)
        }
        // The panel has a 3 px border, then 0.8em of padding before any text.
        let strip = (mapWidth + 4)..<min(image.width, mapWidth + 10)
        var panel = 0
        for y in 0..<image.height {
            for x in strip where image.pixel(x: x, y: y).maxChannelDifference(to: Self.panelBackground) <= 2 { panel += 1 }
        }
        panelEdgeShare = Double(panel) / Double(max(1, strip.count * image.height))
    }

    func share(of count: Int) -> Double { Double(count) / Double(max(1, mapPixels)) }

    var description: String {
        func percent(_ count: Int) -> String { String(format: "%.1f%%", share(of: count) * 100) }
        let bounds = routeBounds.map { "\($0.width)x\($0.height) px at (\($0.minX), \($0.minY))" } ?? "none"
        return "fixture colours \(percent(fixturePixels)) (blocks \(percent(blockPixels)), streets \(percent(streetPixels))), "
            + "placeholder grey \(percent(placeholderPixels)), Leaflet's empty background \(percent(emptyMapPixels)), route pixels \(routePixels) spanning \(bounds), "
            + String(format: "panel edge %.0f%% panel colour", panelEdgeShare * 100)
    }
}
