import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// A JPEG or WebP of a few hundred bytes may declare 65,500 pixels a side, 16 GiB decoded; one
/// cut short must not be drawn half grey. Each is refused with a message, before any pixel
/// memory is allocated for what it declares.
@Suite("Hostile JPEGs and WebPs")
struct HostileJPEGAndWebPTests {
    static let picture = TestPictures.gradient(width: 256, height: 256)

    @Test("a JPEG declaring 65,500 x 65,500 pixels is refused from its header")
    func giantJPEGIsRefused() throws {
        let jpeg = try HostileImages.giantJPEG()
        let header = try ImageHeader.read(jpeg)
        #expect(header.format == .jpeg && header.width == 65_500 && header.height == 65_500)
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(jpeg) }
        #expect(refusal?.description == "the JPEG is 65500x65500 pixels; at most 8192x8192 are decoded")
        let tileRefusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(jpeg, maxSide: 512) }
        #expect(tileRefusal?.description == "the JPEG is 65500x65500 pixels; at most 512x512 are decoded")
    }

    @Test("a WebP declaring 65,500 x 65,500 pixels is refused from its header")
    func giantWebPIsRefused() throws {
        let webp = try HostileImages.giantWebP()
        let header = try ImageHeader.read(webp)
        #expect(header.format == .webp && header.width == 65_500 && header.height == 65_500)
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(webp) }
        #expect(refusal?.description == "the WebP is 65500x65500 pixels; at most 8192x8192 are decoded")
    }

    @Test("a truncated JPEG is refused, not drawn in part", arguments: [TestImageEncoder.JPEGKind.baseline, .progressive])
    func truncatedJPEG(_ kind: TestImageEncoder.JPEGKind) throws {
        let jpeg = try TestImageEncoder.jpeg(Self.picture, kind: kind)
        let cut = HostileImages.truncated(jpeg)
        #expect(try ImageHeader.read(cut).width == 256, "its header is whole")
        let refusal = #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(cut) }
        #expect(refusal?.description == "Premature end of JPEG file")
    }

    @Test("a JPEG with stray bytes before its end marker decodes as its encoder meant: libjpeg's warning is harmless")
    func extraneousBytesAreHarmless() throws {
        let jpeg = try TestImageEncoder.jpeg(Self.picture, quality: 95)
        let whole = try ImageDecoder.decode(jpeg)
        try #require(jpeg.suffix(2) == Data([0xFF, 0xD9]), "ends with EOI")
        // Some encoders leave padding between the entropy-coded data and a marker; libjpeg says
        // "Corrupt JPEG data: 3 extraneous bytes before marker 0xd9" and decodes every pixel.
        let padded = jpeg.dropLast(2) + Data([0x01, 0x02, 0x03, 0xFF, 0xD9])
        let image = try ImageDecoder.decode(padded)
        #expect(image.width == 256 && image.height == 256)
        for (x, y) in [(0, 0), (128, 128), (255, 255)] {
            #expect(image.pixel(x: x, y: y) == whole.pixel(x: x, y: y))
        }
    }

    @Test("a truncated WebP is refused", arguments: [true, false])
    func truncatedWebP(lossless: Bool) throws {
        let webp = try TestImageEncoder.webp(Self.picture, lossless: lossless)
        let cut = HostileImages.truncated(webp)
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
