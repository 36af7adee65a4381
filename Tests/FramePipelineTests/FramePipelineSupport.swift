import FixtureTiles
import Foundation
import FramePipeline
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import PhoneScreen
import Synchronization
import Testing
import TileStore

/// A scene with a fixed camera over central Cambridge, inside the fixture area, with nothing
/// drawn over the map unless asked for.
func cambridgeScene(width: Int = 600, height: Int = 400, scale: Int = 1, chrome: PhoneChrome? = nil) -> Scene {
    Scene(
        viewport: Viewport(width: width, height: height, scale: scale), style: "osm",
        camera: .fixed(Camera(center: Coordinate(latitude: 52.2055, longitude: 0.1414), zoom: 16)),
        attribution: .hidden, chrome: chrome
    )
}

/// The built-in `osm` style, whose tiles the fixture caches hold.
func osmSource() throws -> TileSource {
    try #require(StyleCatalog.builtin["osm"], "no built-in osm style")
}

/// A fixture MBTiles file in a temporary directory, holding a scene's tiles and a margin of
/// tiles around them that the scene does not need.
struct SceneCache {
    let directory: TemporaryDirectory
    let path: String
    /// The map panel's geometry, as the pipeline works it out.
    let geometry: FrameGeometry
    /// Each tile the scene's frame needs, with where it is drawn.
    let placements: [TilePlacement]
    /// Tiles in the file that the frame does not need.
    let spareTiles: [TileID]

    var neededTiles: Set<TileID> { Set(placements.map(\.tile)) }

    init(for scene: Scene) throws {
        let source = try osmSource()
        geometry = FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
        placements = geometry.tilePlacements(in: source.tileSet.grid)
        let zoom = try #require(placements.first?.tile.z)
        directory = try TemporaryDirectory("frame-pipeline")
        path = directory.path("osm.mbtiles")
        let frame = geometry.bounds
        // About a tile's width more on every side at zoom 16, so that the file holds tiles the frame does not need.
        let margin = 0.01
        let builder = FixtureCacheBuilder(
            style: "osm",
            bounds: GeoBounds(south: frame.south - margin, west: frame.west - margin, north: frame.north + margin, east: frame.east + margin),
            zoomLevels: zoom...zoom
        )
        try builder.build(into: path, attribution: DemoFixtures.attribution)
        let held = Set(builder.tiles)
        let needed = Set(placements.map(\.tile))
        try #require(needed.isSubset(of: held), "the fixture file lacks some of the frame's tiles")
        spareTiles = held.subtracting(needed).sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        try #require(!spareTiles.isEmpty)
    }

    /// A pipeline drawing from this file alone, offline.
    func pipeline(
        budget: DecodedTileBudget = .standard, renderThreads: Int = FramePipeline.defaultRenderThreads,
        renderQueueLimit: Int = FramePipeline.defaultRenderQueueLimit, observer: FillLog? = nil
    ) -> FramePipeline {
        var fillObserver: (@Sendable (TileFill, Duration) -> Void)?
        if let observer { fillObserver = { fill, took in observer.record(fill, took: took) } }
        return FramePipeline(FramePipeline.Configuration(
            catalog: .builtin, cacheLocation: .file(path), decodedTileBudget: budget, renderThreads: renderThreads,
            renderQueueLimit: renderQueueLimit, fillObserver: fillObserver
        ))
    }

    /// Removes `tiles` from the file, as another process writing to it would.
    func delete(_ tiles: some Sequence<TileID>) throws {
        let writer = try MBTilesCache(creatingIfNeeded: path)
        for tile in tiles { try writer.delete(tile) }
    }

    /// Stores the fixture artist's tile for each of `tiles` in the file.
    func store(_ tiles: some Sequence<TileID>) throws {
        let writer = try MBTilesCache(creatingIfNeeded: path)
        let artist = FixtureTileArtist(palette: .named("osm"))
        for tile in tiles { try writer.store(try artist.draw(tile).pngData(opaque: true), for: tile) }
    }

    func remove() { directory.remove() }
}

/// What a pipeline's `fillObserver` was told: one entry for every tile had, with how long it took.
final class FillLog: Sendable {
    private let entries = Mutex<[(fill: TileFill, took: Duration)]>([])

    func record(_ fill: TileFill, took: Duration) {
        entries.withLock { $0.append((fill, took)) }
    }

    var count: Int { entries.withLock { $0.count } }

    /// The entries after the first `start`.
    func entries(from start: Int) -> [(fill: TileFill, took: Duration)] {
        entries.withLock { Array($0.dropFirst(start)) }
    }
}

/// The grey a tile that could not be had is drawn in, #808080.
let missingGrey = Colour.missingTileGrey

/// The colours of the whole device pixels inside `rect`, clipped to the image; nil when fewer
/// than 8 x 8 of them are inside it, too few to judge a tile by.
func colours(in rect: PixelRect, of image: RasterImage) -> Set<Colour>? {
    let minX = max(0, Int(rect.minX.rounded(.up))), maxX = min(image.width, Int(rect.maxX.rounded(.down)))
    let minY = max(0, Int(rect.minY.rounded(.up))), maxY = min(image.height, Int(rect.maxY.rounded(.down)))
    guard maxX - minX >= 8, maxY - minY >= 8 else { return nil }
    var found: Set<Colour> = []
    for y in minY..<maxY {
        for x in minX..<maxX { found.insert(image.pixel(x: x, y: y)) }
    }
    return found
}

/// Whether two frame geometries show the same frame: the same viewport, zoom and corner.
func sameGeometry(_ a: FrameGeometry, _ b: FrameGeometry) -> Bool {
    a.viewport == b.viewport && a.deviceZoom == b.deviceZoom && a.origin == b.origin
}
