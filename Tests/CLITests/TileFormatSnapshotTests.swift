import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore

/// `snapshot` from caches whose tiles are JPEG, WebP or hostile, as other tools' files may be.
@Suite("Snapshots from JPEG, WebP and hostile tiles")
struct TileFormatSnapshotTests {
    /// Copies the fixture cache to `name` with every tile re-encoded by `encode`.
    static func reencodedCache(_ workspace: Workspace, from fixtures: String, to name: String, _ encode: (RasterImage) throws -> Data) throws -> String {
        let path = workspace.path(name)
        try FileManager.default.copyItem(atPath: fixtures, toPath: path)
        let cache = try MBTilesCache(openingExisting: path, readOnly: false)
        for tile in Self.frameTiles.map(\.tile) {
            let png = try #require(try cache.tileData(for: tile), "the fixtures lack \(tile)")
            try cache.store(try encode(PNGCodec.decode(png)), for: tile)
        }
        return path
    }

    /// The tiles the test scene (Cambridge at zoom 16, 320x480) draws.
    static let frameTiles = FrameGeometry(camera: Camera(center: Coordinate(latitude: 52.2055, longitude: 0.1414), zoom: 16), viewport: .iPhone)
        .tilePlacements(in: TileGrid(tileSize: 256, zoomRange: ZoomRange(min: 0, max: 19)))

    static func snapshot(_ workspace: Workspace, cache: String, output: String) async throws -> CommandResult {
        let scene = try workspace.write(Scenes.scene(#""attribution": false"#), to: "scene.json")
        return try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path(output))
    }

    @Test("a cache of JPEG or WebP tiles draws the frame its PNG tiles draw", arguments: ["JPEG", "WebP"])
    func reencodedTilesDraw(_ format: String) async throws {
        try await Workspace.with { workspace in
            let fixtures = try await workspace.buildFixtures()
            let original = try await Self.snapshot(workspace, cache: fixtures, output: "png.png")
            try #require(original.status == 0, "\(original)")
            let cache = try Self.reencodedCache(workspace, from: fixtures, to: "\(format).mbtiles") { image in
                format == "JPEG" ? try TestImageEncoder.jpeg(image, quality: 95) : try TestImageEncoder.webp(image, lossless: true)
            }
            let result = try await Self.snapshot(workspace, cache: cache, output: "out.png")
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.errorLines.first)
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: 0), "\(line)")
            let expected = try workspace.image("png.png"), frame = try workspace.image("out.png")
            var worst = 0, far = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let difference = frame.pixel(x: x, y: y).maxChannelDifference(to: expected.pixel(x: x, y: y))
                    worst = max(worst, difference)
                    if difference > 16 { far += 1 }
                }
            }
            if format == "WebP" {
                #expect(worst == 0, "lossless WebP draws the same pixels")
            } else {
                // JPEG rings a little at the fixture tiles' sharp edges.
                #expect(far < frame.width * frame.height / 100, "\(far) pixels differ by more than 16")
            }
        }
    }

    @Test("hostile tiles in the cache are drawn grey and named, the frame succeeds, and the file is left as it was")
    func hostileTiles() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            // A JPEG cut short is refused by its missing end marker before it is decoded.
            let truncatedJPEG = HostileImages.truncated(try TestImageEncoder.jpeg(TestPictures.gradient(width: 256, height: 256)))
            let hostile: [(Data, String)] = [
                (try HostileImages.giantJPEG(), "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512"),
                (truncatedJPEG, "the image is not whole (a truncated JPEG: \(truncatedJPEG.count) bytes, and no end-of-image marker (FF D9) at the end)"),
                (try HostileImages.lyingPNG(width: 256, height: 256), "Not enough image data"),
            ]
            // The tiles under three far-apart points of the frame.
            let points = [PixelPoint(x: 10, y: 10), PixelPoint(x: 160, y: 240), PixelPoint(x: 310, y: 470)]
            let placements = points.map { point in
                Self.frameTiles.first { $0.rect.minX <= point.x && point.x < $0.rect.maxX && $0.rect.minY <= point.y && point.y < $0.rect.maxY }!
            }
            try #require(Set(placements.map(\.tile)).count == 3, "the points should lie in three tiles")
            let writer = try MBTilesCache(openingExisting: cache, readOnly: false)
            for (placement, (bytes, _)) in zip(placements, hostile) { try writer.store(bytes, for: placement.tile) }

            let result = try await Self.snapshot(workspace, cache: cache, output: "out.png")
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.errorLines.first)
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: 3), "\(line)")
            for (placement, (_, fault)) in zip(placements, hostile) {
                #expect(line.contains("\(placement.tile) (undecodable: the image does not decode (\(fault)))")
                    || line.contains("\(placement.tile) (undecodable: \(fault))"), "\(placement.tile) should be named with its fault: \(line)")
            }
            let frame = try workspace.image("out.png")
            for point in points {
                #expect(frame.pixel(x: Int(point.x), y: Int(point.y)) == missingGrey)
            }
            let reader = try MBTilesCache(openingExisting: cache)
            for (placement, (bytes, _)) in zip(placements, hostile) {
                #expect(try reader.tileData(for: placement.tile) == bytes, "the file's tiles are left as they were")
            }
        }
    }
}
