import FixtureTiles
import FramePipeline
import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import PhoneScreen
import Testing
import TileStore

@Suite("Missing and corrupt tiles")
struct MissingTileRenderTests {
    /// The tiles a frame at a whole zoom needs: every 256-pixel tile its device pixels touch,
    /// from the frame's top-left world pixel.
    static func expectedTiles(of frame: FrameGeometry) -> Set<TileID> {
        let zoom = Int(frame.deviceZoom)
        let columns = Int(frame.origin.x) / 256...Int(frame.origin.x + Double(frame.viewport.pixelWidth) - 1) / 256
        let rows = Int(frame.origin.y) / 256...Int(frame.origin.y + Double(frame.viewport.pixelHeight) - 1) / 256
        return Set(columns.flatMap { x in rows.map { y in TileID(z: zoom, x: x, y: y) } })
    }

    /// The device-pixel box a tile fills in a frame, clipped to the frame.
    static func pixelBox(of tile: TileID, in frame: FrameGeometry) -> PixelBox {
        let minX = tile.x * 256 - Int(frame.origin.x), minY = tile.y * 256 - Int(frame.origin.y)
        return PixelBox(
            minX: max(minX, 0), minY: max(minY, 0),
            maxX: min(minX + 255, frame.viewport.pixelWidth - 1), maxY: min(minY + 255, frame.viewport.pixelHeight - 1)
        )
    }

    @Test("with no tiles at all, every pixel outside the overlays is exactly 128,128,128")
    func allMissing() throws {
        let tiles = NoTiles()
        let scene = fixedScene(start: Places.cambridge, attribution: .current)
        let frame = try render(scene, over: tiles)
        let image = frame.canvas.image()
        let tip = anchorPixel(of: Places.cambridge, in: frame.geometry)
        let e = Spec.wispExtent
        let marker = PixelBox(minX: tip.x - e.left, minY: tip.y - e.above, maxX: tip.x + e.right, maxY: tip.y + e.below)
        let attribution = AttributionPainter(text: try style("osm").tileSet.attribution).layout(on: frame.canvas, frame: frame.geometry).box
        func isOverlay(_ x: Int, _ y: Int) -> Bool {
            (marker.minX...marker.maxX).contains(x) && (marker.minY...marker.maxY).contains(y)
                || Double(x) >= attribution.minX && Double(y) >= attribution.minY
        }
        var wrong: [String] = []
        for y in 0..<image.height {
            for x in 0..<image.width where !isOverlay(x, y) && image.pixel(x: x, y: y) != Spec.missingGrey {
                wrong.append("(\(x), \(y)) \(image.pixel(x: x, y: y))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels are not missing-tile grey, such as \(wrong.prefix(5))")
        #expect(image.pixel(x: 0, y: 0) == Spec.missingGrey)

        let expected = Self.expectedTiles(of: frame.geometry)
        #expect(expected.contains(TileID.containing(Places.cambridge, zoom: 16)))
        #expect(Set(frame.missingTiles.map(\.tile)) == expected)
        #expect(Set(tiles.requested) == expected)
        #expect(frame.missingTiles.count == frame.tileCount && frame.tileCount == expected.count)
        #expect(frame.missingTiles.allSatisfy { $0.reason == .notCached })
    }

    @Test("only the missing tiles are grey; the rest show their tiles")
    func someMissing() throws {
        let frame = try render(fixedScene(), over: CheckerTiles())
        let image = frame.canvas.image()
        let expected = Self.expectedTiles(of: frame.geometry)
        #expect(Set(frame.missingTiles.map(\.tile)) == expected.filter { !CheckerTiles.isPresent($0) })
        for tile in expected {
            let box = Self.pixelBox(of: tile, in: frame.geometry)
            let colour = CheckerTiles.isPresent(tile) ? Background.white : Spec.missingGrey
            #expect(image.pixels(in: box) { $0 != colour }.isEmpty, "\(tile) at \(box) is not all \(colour)")
        }
    }

    @Test("a corrupt tile in a real MBTiles file renders grey and is reported, through the frame pipeline")
    func corruptTileInCache() async throws {
        let directory = try TemporaryDirectory("render")
        defer { directory.remove() }
        let path = directory.path("tiles.mbtiles")

        let scene = fixedScene()
        let frameGeometry = geometry(of: scene)
        try FixtureCacheBuilder(style: "osm", bounds: frameGeometry.bounds, zoomLevels: 16...16).build(into: path, attribution: "test")
        let corrupt = TileID.containing(Places.cambridge, zoom: 16)
        try MBTilesCache(creatingIfNeeded: path).store(Data("not a PNG at all".utf8), for: corrupt)

        let pipeline = FramePipeline(FramePipeline.Configuration(catalog: .builtin, cacheLocation: .file(path)))
        let frame = try await pipeline.render(scene, as: .pixels)
        await pipeline.shutdown()
        let image = frame.output
        #expect(frame.missingTiles.map(\.tile) == [corrupt])
        if case .undecodable = frame.missingTiles.first?.reason {} else {
            Issue.record("the corrupt tile is reported as \(String(describing: frame.missingTiles.first?.reason))")
        }
        let corruptBox = Self.pixelBox(of: corrupt, in: frame.geometry)
        #expect(image.pixels(in: corruptBox) { $0 != Spec.missingGrey }.isEmpty, "the corrupt tile is not all grey")
        for tile in Self.expectedTiles(of: frame.geometry) where tile != corrupt {
            let box = Self.pixelBox(of: tile, in: frame.geometry)
            #expect(!image.pixels(in: box) { $0 != Spec.missingGrey }.isEmpty, "good tile \(tile) was drawn grey")
        }
    }
}
