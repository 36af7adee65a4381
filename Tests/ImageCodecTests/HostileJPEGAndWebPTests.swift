import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// A JPEG or WebP of a few hundred bytes may declare 65,500 pixels a side, 16 GiB decoded; one
/// cut short must not be drawn half grey. Each is refused with a message, before any pixel
/// memory is allocated for what it declares.
@Suite("Hostile JPEGs and WebPs")
struct HostileJPEGAndWebPTests {
    static let picture = TestPictures.gradient(width: 256, height: 256, alpha: { _, _ in 255 })

    /// A real 16x16 JPEG whose frame header (SOF0) is rewritten to declare 65,500 x 65,500.
    static func giantJPEG() throws -> Data {
        var jpeg = try TestImageEncoder.jpeg(TestPictures.gradient(width: 16, height: 16, alpha: { _, _ in 255 }))
        let frame = try #require(jpeg.firstRange(of: Data([0xFF, 0xC0])), "the JPEG has no SOF0 segment").lowerBound
        // FF C0, length (2), precision (1), then height and width as big-endian 16-bit numbers.
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
        return jpeg
    }

    /// An extended WebP whose VP8X canvas is 65,500 x 65,500, holding a real 16x16 lossless image.
    static func giantWebP() throws -> Data {
        let small = try TestImageEncoder.webp(TestPictures.gradient(width: 16, height: 16, alpha: { _, _ in 255 }), lossless: true)
        let side = littleEndian(65_500 - 1, count: 3)
        let extended = Data("VP8X".utf8) + littleEndian(10, count: 4) + [0, 0, 0, 0] + side + side
        let chunks = extended + small.dropFirst(12)
        return Data("RIFF".utf8) + littleEndian(UInt32(4 + chunks.count), count: 4) + Data("WEBP".utf8) + chunks
    }

    static func littleEndian(_ value: UInt32, count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    @Test("a JPEG declaring 65,500 x 65,500 pixels is refused from its header")
    func giantJPEGIsRefused() throws {
        let jpeg = try Self.giantJPEG()
        let header = try ImageHeader.read(jpeg)
        #expect(header.format == .jpeg && header.width == 65_500 && header.height == 65_500)
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(jpeg) }
        #expect(refusal?.description == "the JPEG is 65500x65500 pixels; at most 8192x8192 are decoded")
        let tileRefusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(jpeg, maxSide: 512) }
        #expect(tileRefusal?.description == "the JPEG is 65500x65500 pixels; at most 512x512 are decoded")
    }

    @Test("a WebP declaring 65,500 x 65,500 pixels is refused from its header")
    func giantWebPIsRefused() throws {
        let webp = try Self.giantWebP()
        let header = try ImageHeader.read(webp)
        #expect(header.format == .webp && header.width == 65_500 && header.height == 65_500)
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(webp) }
        #expect(refusal?.description == "the WebP is 65500x65500 pixels; at most 8192x8192 are decoded")
    }

    @Test("a truncated JPEG is refused, not drawn in part", arguments: [TestImageEncoder.JPEGKind.baseline, .progressive])
    func truncatedJPEG(_ kind: TestImageEncoder.JPEGKind) throws {
        let jpeg = try TestImageEncoder.jpeg(Self.picture, kind: kind)
        let cut = jpeg.prefix(jpeg.count * 2 / 3)
        #expect(try ImageHeader.read(cut).width == 256, "its header is whole")
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(cut) }
        #expect(refusal?.description == "Premature end of JPEG file")
    }

    @Test("a truncated WebP is refused", arguments: [true, false])
    func truncatedWebP(lossless: Bool) throws {
        let webp = try TestImageEncoder.webp(Self.picture, lossless: lossless)
        let cut = webp.prefix(webp.count * 2 / 3)
        #expect(try ImageHeader.read(cut).width == 256, "its header is whole")
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(cut) }
        #expect(refusal?.description == "the WebP is truncated")
    }

    @Test("a JPEG cut inside its headers is refused by the header reader", arguments: [3, 20, 100])
    func jpegCutInItsHeaders(length: Int) throws {
        let jpeg = try TestImageEncoder.jpeg(Self.picture)
        #expect(throws: ImageCodecError.self) { try ImageHeader.read(jpeg.prefix(length)) }
        #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(jpeg.prefix(length)) }
    }
}
