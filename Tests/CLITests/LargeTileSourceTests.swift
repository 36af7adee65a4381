import FixtureTiles
import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Testing
import UpstreamSimulator

/// A style may declare `"tileSize": 512`: a map at zoom z is then drawn from its tiles of zoom
/// z - 1, each covering the ground of four 256 px tiles of zoom z, as Leaflet's
/// `tileSize: 512, zoomOffset: -1` and MapLibre's raster `tileSize: 512` do.
@Suite("Styles of 512 px tiles")
struct LargeTileSourceTests {
    /// The fixture world in 512 px tiles: tile z/x/y is the four 256 px fixture tiles of zoom
    /// z + 1 under it, side by side, so that frames drawn from either match pixel for pixel.
    static func largeTilePNG(_ tile: TileID) throws -> Data {
        let canvas = Canvas(width: 512, height: 512)
        for row in 0..<2 {
            for column in 0..<2 {
                let child = TileID(z: tile.z + 1, x: tile.x * 2 + column, y: tile.y * 2 + row)
                canvas.draw(FixtureTileArtist(palette: .osm).draw(child), atX: Double(column * 256), y: Double(row * 256))
            }
        }
        return try canvas.pngData(opaque: true)
    }

    /// An upstream serving `largeTilePNG` at "/z/x/y.png".
    static func largeTileUpstream() throws -> UpstreamSimulator {
        let upstream = try UpstreamSimulator()
        upstream.setDefaultHandler { path in
            guard let tile = tileID(atUpstreamPath: path), let png = try? largeTilePNG(tile) else { return nil }
            return .png(png)
        }
        return upstream
    }

    @Test("a frame at zoom 16 is drawn from the 512 px tiles of zoom 15, and matches the frame of 256 px tiles", arguments: [1, 2])
    func frameMatchesSmallTiles(scale: Int) async throws {
        try await Workspace.with { workspace in
            let small = try UpstreamSimulator()
            small.serveFixtureTiles()
            let large = try Self.largeTileUpstream()
            let smallStyle = try workspace.writeStyle(named: "local", upstream: small)
            let largeStyle = try workspace.writeStyle(named: "aerial", upstream: large, tileSize: 512)
            var frames: [RasterImage] = []
            for style in ["local", "aerial"] {
                let scene = try workspace.write(Scenes.scene(#""style": "\#(style)""#), to: "\(style).json")
                let result = try await workspace.mapframe([
                    "snapshot", scene, "--style-file", smallStyle, "--style-file", largeStyle, "--cache-dir", workspace.path("cache"),
                    "--scale", String(scale), "--output", workspace.path("\(style).png"),
                ])
                #expect(result.status == 0 && result.standardError.contains("0 missing"), "\(result)")
                frames.append(try workspace.image("\(style).png"))
            }
            let deviceZoom = 16 + scale - 1
            #expect(Set(large.requests.compactMap { tileID(atUpstreamPath: $0.path)?.z }) == [deviceZoom - 1])
            #expect(Set(small.requests.compactMap { tileID(atUpstreamPath: $0.path)?.z }) == [deviceZoom])
            #expect(large.requests.count < small.requests.count, "fewer, larger tiles")
            let different = zip(frames[0].allPixels, frames[1].allPixels).count { $0 != $1 }
            #expect(frames[1].width == 320 * scale && different == 0, "\(different) pixels differ from the frame of 256 px tiles")
        }
    }

    @Test("seeding map zooms 15-16 of a 512 px style fetches its tiles of zoom 14-15")
    func seedFetchesOneZoomShallower() async throws {
        try await Workspace.with { workspace in
            let large = try Self.largeTileUpstream()
            let style = try workspace.writeStyle(upstream: large, tileSize: 512)
            let area = SeedArea(bbox: "0.12,52.20,0.15,52.215", zooms: 14...15)
            let arguments = ["seed", "--style", "local", "--style-file", style, "--cache-dir", workspace.path("cache"), "--bbox", area.bbox, "--zoom", "15-16"]
            let dryRun = try await workspace.mapframe(arguments + ["--dry-run"])
            #expect(dryRun.standardOutput.contains("local: \(area.tiles.count) tiles at zoom 14-15 (512 px tiles, for map zoom 15-16)"), "\(dryRun)")
            let seeded = try await workspace.mapframe(arguments)
            #expect(seeded.status == 0, "\(seeded)")
            #expect(Set(large.requests.map(\.path)) == Set(area.tiles.map(upstreamPath)))
        }
    }
}
