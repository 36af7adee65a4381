import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Testing
import TileStore

/// A frame that is exactly one tile (a composited route tile) copies an opaque tile's pixels
/// rather than drawing them over the grey placeholder; both must give the same frame.
@Suite("A frame of one tile")
struct SoleTileTests {
    /// The 256-pixel frame whose corner is the corner of tile (32_370, 21_800) at zoom 16.
    static let frame = FrameGeometry(
        origin: PixelPoint(x: 32_370 * 256, y: 21_800 * 256), zoom: 16, viewport: Viewport(width: 256, height: 256, scale: 1)
    )

    /// Draws the basemap of `frame` with `image` as its every tile, and returns its pixels.
    static func basemap(of image: RasterImage, in frame: FrameGeometry = frame) throws -> RasterImage {
        let canvas = Canvas(width: frame.viewport.pixelWidth, height: frame.viewport.pixelHeight)
        BasemapPainter(tiles: Tiles(image: image), grid: try style("osm").tileSet.grid)
            .draw(in: DrawingContext(canvas: canvas, frame: frame, theme: .cycleStreets))
        return canvas.image()
    }

    struct Tiles: TileProviding {
        let image: RasterImage
        func tile(_ id: TileID) -> TileLookup { .image(image) }
    }

    /// PNG bytes of a 256-pixel tile of every word `pixel(x, y)` gives (premultiplied ARGB32).
    static func png(opaque: Bool, _ pixel: (Int, Int) -> UInt32) throws -> Data {
        var words = [UInt32](repeating: 0, count: 256 * 256)
        for y in 0..<256 { for x in 0..<256 { words[y * 256 + x] = pixel(x, y) } }
        return try words.withUnsafeBytes { bytes in
            try PNGCodec.encode(pixels: bytes.baseAddress!, width: 256, height: 256, stride: 256 * 4, opaque: opaque)
        }
    }

    static func samePixels(_ a: RasterImage, _ b: RasterImage) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        var same = true
        a.withRows { y, row in
            let other = UnsafeBufferPointer(start: (b.pixels + y * b.stride).assumingMemoryBound(to: UInt32.self), count: b.width)
            if !row.elementsEqual(other) { same = false }
        }
        return same
    }

    @Test("an opaque tile's frame is its pixels, as drawing it over the placeholder gives")
    func opaqueTileIsCopied() throws {
        let decoded = try PNGCodec.decode(try Self.png(opaque: true) { x, y in 0xFF00_0000 | UInt32(x) << 16 | UInt32(y) << 8 | UInt32((x ^ y) & 0xFF) })
        try #require(decoded.isKnownOpaque, "an RGB PNG is known opaque")
        // The same pixels in an image not known to be opaque are drawn over the placeholder.
        let unknown = RasterImage(copying: decoded.pixels, width: decoded.width, height: decoded.height, stride: decoded.stride)
        try #require(!unknown.isKnownOpaque)
        let copied = try Self.basemap(of: decoded)
        #expect(Self.samePixels(copied, try Self.basemap(of: unknown)))
        #expect(Self.samePixels(copied, decoded))
    }

    @Test("a tile with translucent pixels is still drawn over the placeholder")
    func translucentTileIsComposited() throws {
        let red = Colour(redLevel: 255, greenLevel: 0, blueLevel: 0, alphaLevel: 128)
        let decoded = try PNGCodec.decode(try Self.png(opaque: false) { _, _ in RasterImage.premultipliedWord(red) })
        #expect(!decoded.isKnownOpaque)
        let drawn = try Self.basemap(of: decoded)
        let expected = blend(Colour(redLevel: 255, greenLevel: 0, blueLevel: 0), alpha: 128.0 / 255, over: Spec.missingGrey)
        let corner = drawn.pixel(x: 0, y: 0), middle = drawn.pixel(x: 128, y: 128)
        #expect(corner.alphaLevel == 255 && isNear(corner, expected, within: 1), "\(corner), expected \(expected)")
        #expect(middle == corner)
    }
}
