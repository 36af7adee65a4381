import Foundation
import ImageCodec

/// Pictures to encode, and ways to compare what comes back.
public enum TestPictures {
    /// Smooth red, green and blue ramps across, down and diagonally, with `alpha` per pixel
    /// (opaque by default): a picture lossy formats keep closely, as they do photos and maps.
    public static func gradient(width: Int, height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RasterImage {
        var words = [UInt32]()
        words.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                words.append(RasterImage.premultipliedWord(Colour(
                    redLevel: UInt8(x * 255 / (width - 1)), greenLevel: UInt8(y * 255 / (height - 1)),
                    blueLevel: UInt8((x + y) * 255 / (width + height - 2)), alphaLevel: alpha(x, y)
                )))
            }
        }
        return words.withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: width, height: height, stride: width * 4) }
    }

    /// An opaque image in greys: each pixel's green channel, everywhere.
    public static func grey(_ image: RasterImage) -> RasterImage {
        var words = [UInt32]()
        image.withRows { _, row in
            words += row.map { word in
                let level = (word >> 8) & 0xFF
                return 0xFF00_0000 | level << 16 | level << 8 | level
            }
        }
        return words.withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: image.width, height: image.height, stride: image.width * 4) }
    }

    /// The largest difference in any channel of any pixel, colours compared with straight alpha.
    public static func largestChannelDifference(_ image: RasterImage, _ other: RasterImage) -> Int {
        precondition(image.width == other.width && image.height == other.height, "the images differ in size")
        var worst = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                worst = max(worst, image.pixel(x: x, y: y).maxChannelDifference(to: other.pixel(x: x, y: y)))
            }
        }
        return worst
    }

    /// The type of a WebP file's first chunk: "VP8 ", "VP8L" or "VP8X".
    public static func firstChunk(ofWebP data: Data) -> String {
        String(decoding: data.dropFirst(12).prefix(4), as: UTF8.self)
    }
}

extension RasterImage {
    /// Every pixel's colour, row by row.
    public var allPixels: [Colour] {
        var pixels: [Colour] = []
        pixels.reserveCapacity(width * height)
        withRows { _, row in pixels += row.map(RasterImage.colour(ofPremultipliedWord:)) }
        return pixels
    }
}
