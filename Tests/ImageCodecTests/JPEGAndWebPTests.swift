import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// JPEG (aerial imagery, exports from other tools) and WebP (newer tile servers) decode into the
/// same premultiplied ARGB32 pixels as PNG, recognised by their bytes alone.
@Suite("JPEG and WebP")
struct JPEGAndWebPTests {
    /// An opaque image with smooth gradients, as a photo or a map tile has, so that lossy
    /// formats keep it closely. Not square, so that width and height cannot be swapped unseen.
    static let opaque = TestPictures.gradient(width: 300, height: 200)

    /// The same with an alpha ramp: fully transparent at the left edge, opaque at the right.
    static let translucent = TestPictures.gradient(width: 300, height: 200, alpha: { x, _ in UInt8(x * 255 / 299) })

    @Test("a JPEG decodes, opaque and close to what was encoded", arguments: [TestImageEncoder.JPEGKind.baseline, .progressive, .grey])
    func jpegDecodes(_ kind: TestImageEncoder.JPEGKind) throws {
        let source = kind == .grey ? TestPictures.grey(Self.opaque) : Self.opaque
        let data = try TestImageEncoder.jpeg(source, quality: 95, kind: kind)
        let header = try ImageHeader.read(data)
        #expect(header.format == .jpeg && header.width == 300 && header.height == 200)
        let image = try ImageDecoder.decode(data)
        #expect(image.width == 300 && image.height == 200)
        #expect(image.isOpaque && image.isKnownOpaque)
        let worst = TestPictures.largestChannelDifference(image, source)
        #expect(worst <= 12, "a channel differs by \(worst) from what was encoded")
    }

    @Test("a lossless WebP decodes to exactly what was encoded")
    func losslessWebP() throws {
        let data = try TestImageEncoder.webp(Self.opaque, lossless: true)
        #expect(TestPictures.firstChunk(ofWebP: data) == "VP8L")
        let header = try ImageHeader.read(data)
        #expect(header.format == .webp && header.width == 300 && header.height == 200)
        let image = try ImageDecoder.decode(data)
        #expect(TestPictures.largestChannelDifference(image, Self.opaque) == 0)
    }

    @Test("a lossy WebP decodes, close to what was encoded")
    func lossyWebP() throws {
        let data = try TestImageEncoder.webp(Self.opaque, lossless: false, quality: 95)
        #expect(TestPictures.firstChunk(ofWebP: data) == "VP8 ")
        let header = try ImageHeader.read(data)
        #expect(header.format == .webp && header.width == 300 && header.height == 200)
        let image = try ImageDecoder.decode(data)
        #expect(image.isOpaque && image.isKnownOpaque)
        let worst = TestPictures.largestChannelDifference(image, Self.opaque)
        #expect(worst <= 12, "a channel differs by \(worst) from what was encoded")
    }

    @Test("a WebP with alpha comes out premultiplied, as Cairo draws it", arguments: [true, false])
    func webpWithAlpha(lossless: Bool) throws {
        let data = try TestImageEncoder.webp(Self.translucent, lossless: lossless, quality: 95)
        // Lossy WebP keeps alpha in a chunk of its own, so the file starts with the extended header.
        #expect(TestPictures.firstChunk(ofWebP: data) == (lossless ? "VP8L" : "VP8X"))
        let header = try ImageHeader.read(data)
        #expect(header.format == .webp && header.width == 300 && header.height == 200)
        let image = try ImageDecoder.decode(data)
        #expect(!image.isKnownOpaque)
        var notPremultiplied = 0, alphaChanged = 0, colourOff = 0
        image.withRows { y, row in
            for (x, word) in row.enumerated() {
                let alpha = word >> 24
                if (word >> 16) & 0xFF > alpha || (word >> 8) & 0xFF > alpha || word & 0xFF > alpha { notPremultiplied += 1 }
                let expected = Self.translucent.pixel(x: x, y: y)
                if UInt8(alpha) != expected.alphaLevel { alphaChanged += 1 }
                // Colours under little alpha cannot survive premultiplication closely.
                if alpha >= 128, RasterImage.colour(ofPremultipliedWord: word).maxChannelDifference(to: expected) > (lossless ? 2 : 14) {
                    colourOff += 1
                }
            }
        }
        #expect(notPremultiplied == 0, "\(notPremultiplied) pixels have a colour channel above their alpha")
        #expect(alphaChanged == 0, "alpha is kept without loss, even in lossy WebP")
        #expect(colourOff == 0, "\(colourOff) pixels' colours are off")
    }

    @Test("each format has its media type")
    func mediaTypes() {
        #expect(ImageHeader.Format.allCases.map(\.mimeType) == ["image/png", "image/jpeg", "image/webp"])
    }

    @Test("bytes of no format read are refused, naming what they start with")
    func unknownFormat() {
        for (bytes, start) in [(Data("<!DOCTYPE html>".utf8), "3C 21 44 4F 43 54 59 50"), (Data(), "with nothing"), (Data("GIF89a".utf8), "47 49 46 38 39 61")] {
            #expect(throws: ImageCodecError.self) { try ImageHeader.read(bytes) }
            do {
                _ = try ImageDecoder.decode(bytes)
                Issue.record("decoded \(bytes.count) bytes")
            } catch {
                #expect(error.description == "not a PNG, JPEG or WebP image (it starts \(start))")
            }
        }
    }
}
