import Foundation
import ImageCodec
import Testing

/// The run-length PNG encoder (`PNGEncodingOptions.fast`), read back by libpng: every pixel as it
/// was, whatever the image's size and content, opaque or not.
@Suite struct RunLengthPNGTests {
    /// Images that take every path of the encoder: runs longer than one deflate match (258),
    /// runs of 3 to 5 bytes, rows identical to the one above (Up), flat colours (Sub), noise
    /// (literals), and widths that leave the four-pixel conversion a remainder.
    static let patterns = ["flat", "noise", "stripes", "gradient", "sparse"]
    static let sizes = [(1, 1), (2, 3), (5, 1), (6, 2), (7, 9), (97, 13), (320, 48)]

    static func words(_ pattern: String, width: Int, height: Int, opaque: Bool) -> [UInt32] {
        var generator = SplitMix(seed: UInt64(width * 1_000 + height))
        return (0..<(width * height)).map { index in
            let (x, y) = (index % width, index / width)
            let colour: Colour = switch pattern {
            case "flat": Colour(redLevel: 200, greenLevel: 120, blueLevel: 40)
            case "noise": Colour(redLevel: generator.level(), greenLevel: generator.level(), blueLevel: generator.level())
            case "stripes": (x / 3 + y / 4).isMultiple(of: 2) ? Colour(redLevel: 255, greenLevel: 255, blueLevel: 255) : Colour(redLevel: 0, greenLevel: 114, blueLevel: 178)
            case "gradient": Colour(redLevel: UInt8((x * 7) % 256), greenLevel: UInt8((y * 5) % 256), blueLevel: UInt8((x + y) % 256))
            default: generator.level() < 8 ? Colour(redLevel: 216, greenLevel: 27, blueLevel: 96) : Colour(redLevel: 242, greenLevel: 239, blueLevel: 233)
            }
            let alpha: UInt8 = opaque ? 255 : [0, 255, 128, 7][(x + y) % 4]
            return RasterImage.premultipliedWord(Colour(redLevel: colour.redLevel, greenLevel: colour.greenLevel, blueLevel: colour.blueLevel, alphaLevel: alpha))
        }
    }

    @Test(arguments: patterns, [true, false])
    func libpngReadsBackEveryPixel(pattern: String, opaque: Bool) throws {
        for (width, height) in Self.sizes {
            let source = Self.words(pattern, width: width, height: height, opaque: opaque)
            let png = try source.withUnsafeBytes {
                try PNGCodec.encode(pixels: $0.baseAddress!, width: width, height: height, stride: width * 4, opaque: opaque)
            }
            let decoded = try PNGCodec.decode(png)
            try #require(decoded.width == width && decoded.height == height)
            var wrong: [String] = []
            decoded.withRows { y, row in
                for (x, word) in row.enumerated() where word != Self.expected(source[y * width + x], opaque: opaque) {
                    wrong.append("(\(x), \(y)): \(String(word, radix: 16)), expected \(String(Self.expected(source[y * width + x], opaque: opaque), radix: 16))")
                }
            }
            #expect(wrong.isEmpty, "\(pattern) \(width)x\(height), opaque \(opaque): \(wrong.count) pixels differ, first \(wrong.prefix(2))")
        }
    }

    /// Flat colours take far less than their raw bytes; noise takes hardly more.
    @Test func flatColoursShrinkAndNoiseStaysNearItsSize() throws {
        let (width, height) = (320, 48)
        func size(_ pattern: String) throws -> Int {
            try Self.words(pattern, width: width, height: height, opaque: true).withUnsafeBytes {
                try PNGCodec.encode(pixels: $0.baseAddress!, width: width, height: height, stride: width * 4, opaque: true).count
            }
        }
        let raw = (width * 3 + 1) * height
        #expect(try size("flat") < raw / 100)
        #expect(try size("noise") < raw + raw / 50)
    }

    /// What a pixel reads back as: RGB keeps the colour and gains full alpha; RGBA's colours are
    /// stored un-premultiplied and premultiplied again on reading, as the libpng encoder stores them.
    static func expected(_ word: UInt32, opaque: Bool) -> UInt32 {
        guard !opaque else { return word | 0xFF00_0000 }
        let source = [word].withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: 1, height: 1, stride: 4) }
        let png = try! PNGCodec.encode(pixels: source.pixels, width: 1, height: 1, stride: 4, opaque: false, options: .compact)
        let decoded = try! PNGCodec.decode(png)
        return withExtendedLifetime(decoded) { decoded.pixels.load(as: UInt32.self) }
    }
}

/// A small seeded generator, so that the noise is the same in every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func level() -> UInt8 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}
