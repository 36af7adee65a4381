import Foundation
import ImageCodec
import Testing

/// `FrameEncoding`: frames written as JPEG and WebP read back through MapFrame's decoders
/// (Pillow reads them in the server's tests).
@Suite struct FrameEncodingTests {
    /// Opaque halves of two colours, the boundary a lossy encoder blurs.
    static func halves() -> RasterImage {
        let pink = RasterImage.premultipliedWord(Colour(redLevel: 216, greenLevel: 27, blueLevel: 96))
        let blue = RasterImage.premultipliedWord(Colour(redLevel: 0, greenLevel: 114, blueLevel: 178))
        let words = (0..<32).flatMap { _ in Array(repeating: pink, count: 32) + Array(repeating: blue, count: 32) }
        return words.withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: 64, height: 32, stride: 256) }
    }

    @Test(arguments: [FrameEncoding.jpeg(quality: 90), .webp(quality: 90), .png])
    func encodedFramesDecodeToTheirPixels(_ encoding: FrameEncoding) throws {
        let image = Self.halves()
        let data = try encoding.encode(pixels: image.pixels, width: image.width, height: image.height, stride: image.stride)
        let decoded = try ImageDecoder.decode(data)
        #expect(try ImageHeader.read(data).format == encoding.format)
        #expect(decoded.width == 64 && decoded.height == 32)
        // Away from the boundary, each half keeps its colour to within a few levels.
        for (x, expected) in [(8, image.pixel(x: 8, y: 16)), (56, image.pixel(x: 56, y: 16))] {
            let got = decoded.pixel(x: x, y: 16)
            let off = [abs(Int(got.redLevel) - Int(expected.redLevel)), abs(Int(got.greenLevel) - Int(expected.greenLevel)), abs(Int(got.blueLevel) - Int(expected.blueLevel))]
            #expect(off.allSatisfy { $0 <= 6 } && got.alphaLevel == 255, "\(encoding) at x \(x): \(got), expected \(expected)")
        }
    }

    @Test(arguments: [0, 101, -5])
    func qualityOutsideTheRangeIsRefused(_ quality: Int) throws {
        let image = Self.halves()
        #expect { try FrameEncoding.jpeg(quality: quality).encode(pixels: image.pixels, width: 64, height: 32, stride: image.stride) } throws: { error in
            "\(error)" == "quality \(quality) is not allowed; expected 1 to 100"
        }
    }
}
