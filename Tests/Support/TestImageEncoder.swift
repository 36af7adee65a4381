import CLibWebP
import CTurboJPEG
import Foundation
import ImageCodec

/// JPEG and WebP images for the decoding tests, made by libjpeg-turbo's and libwebp's own
/// encoders in the layouts tile servers use (4:2:0, progressive, grey, lossless, alpha), never
/// through MapFrame's `FrameEncoding`, so that MapFrame's code is never on both sides of a test.
public enum TestImageEncoder {
    /// How a JPEG is laid out.
    public enum JPEGKind: Sendable {
        /// Colour, chroma subsampled 4:2:0 (the usual photo and aerial tile).
        case baseline
        /// Colour, refined over several scans.
        case progressive
        /// One grey channel.
        case grey
    }

    /// The image as JPEG (`quality` 1-100). JPEG has no alpha: pixels should be opaque.
    public static func jpeg(_ image: RasterImage, quality: Int = 90, kind: JPEGKind = .baseline) throws -> Data {
        guard let encoder = tjInitCompress() else { throw TestSetupError(description: "tjInitCompress failed") }
        defer { tjDestroy(encoder) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let subsampling = kind == .grey ? TJSAMP_GRAY : TJSAMP_420
        let flags = kind == .progressive ? TJFLAG_PROGRESSIVE : 0
        // Cairo's ARGB32 words are BGRA bytes on little-endian machines.
        let status = tjCompress2(
            encoder, image.pixels.assumingMemoryBound(to: UInt8.self), Int32(image.width), Int32(image.stride), Int32(image.height),
            Int32(TJPF_BGRA.rawValue), &output, &length, Int32(subsampling.rawValue), Int32(quality), flags
        )
        guard status == 0, let output else {
            throw TestSetupError(description: "tjCompress2 failed: \(String(cString: tjGetErrorStr2(encoder)))")
        }
        defer { tjFree(output) }
        return Data(bytes: output, count: Int(length))
    }

    /// The image as WebP: lossless, or lossy at `quality` 0-100. Alpha is kept either way (a
    /// lossy image's alpha is compressed without loss).
    public static func webp(_ image: RasterImage, lossless: Bool, quality: Float = 80) throws -> Data {
        // libwebp takes straight (not premultiplied) alpha.
        var straight = [UInt8]()
        straight.reserveCapacity(image.width * image.height * 4)
        image.withRows { _, row in
            for word in row {
                let colour = RasterImage.colour(ofPremultipliedWord: word)
                straight += [colour.blueLevel, colour.greenLevel, colour.redLevel, colour.alphaLevel]
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        let width = Int32(image.width), height = Int32(image.height), stride = Int32(image.width * 4)
        let length = lossless
            ? WebPEncodeLosslessBGRA(straight, width, height, stride, &output)
            : WebPEncodeBGRA(straight, width, height, stride, quality, &output)
        guard length > 0, let output else { throw TestSetupError(description: "libwebp could not encode a \(width)x\(height) image") }
        defer { WebPFree(output) }
        return Data(bytes: output, count: length)
    }
}
