import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// Tiles come from upstream servers and cache files, so the decoder must refuse hostile PNGs
/// cheaply. Some of these inputs follow what the image fuzz target (`make fuzz`) found.
@Suite("Hostile PNGs")
struct HostilePNGTests {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// IHDR of a 1x1 8-bit greyscale image.
    static let header = HostileImages.pngChunk("IHDR", HostileImages.bigEndian(1) + HostileImages.bigEndian(1) + [8, 0, 0, 0, 0])
    /// IDAT holding the one row of that image (filter 0, grey 0x80) as a stored zlib block.
    static let pixels = HostileImages.pngChunk("IDAT", [0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x00, 0x80] + HostileImages.bigEndian(0x0082_0081))
    static let end = HostileImages.pngChunk("IEND", [])

    /// libpng allocates a chunk's declared length before reading it (on read, a length over its
    /// limit is only a warning), so a 60-byte file like this made every decode allocate a gigabyte.
    @Test("a chunk declaring more bytes than the file holds is refused before libpng reads it")
    func chunkLongerThanTheFile() {
        let png = Data(Self.signature + Self.header + HostileImages.pngChunk("tEXt", Array("Comment\0x".utf8), declaredLength: 1_000_000_000))
        do {
            let image = try PNGCodec.decode(png)
            Issue.record("decoded a \(image.width)x\(image.height) image")
        } catch {
            #expect(error.description == "PNG chunk 'tEXt' at byte 33 declares 1000000000 bytes; only 9 bytes follow it")
        }
    }

    /// The check must not refuse good files, nor data after IEND, which libpng ignores.
    @Test("a good PNG still decodes, with or without bytes after IEND")
    func goodPNGStillDecodes() throws {
        let png = Self.signature + Self.header + Self.pixels + Self.end
        for data in [Data(png), Data(png + Array("trailing bytes".utf8))] {
            let image = try PNGCodec.decode(data)
            #expect(image.width == 1 && image.height == 1)
            #expect(image.pixel(x: 0, y: 0) == Colour(redLevel: 0x80, greenLevel: 0x80, blueLevel: 0x80))
        }
    }

    /// An IHDR that lies about a real 16x16 8-bit RGB PNG.
    struct LyingHeader: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let width: UInt32, height: UInt32, depth: UInt8, colourType: UInt8
        /// What the refusal says.
        let message: String
    }

    static let lyingHeaders = [
        LyingHeader(testDescription: "65,500 x 65,500 pixels", width: 65_500, height: 65_500, depth: 8, colourType: 2,
                    message: "the PNG is 65500x65500 pixels; at most 8192x8192 are decoded"),
        LyingHeader(testDescription: "256 x 256 pixels", width: 256, height: 256, depth: 8, colourType: 2, message: "Not enough image data"),
        // Longer rows than the data holds: the second row's filter byte is read from the first's pixels.
        LyingHeader(testDescription: "16-bit samples", width: 16, height: 16, depth: 16, colourType: 2, message: "bad adaptive filter value"),
        LyingHeader(testDescription: "an alpha channel", width: 16, height: 16, depth: 8, colourType: 6, message: "bad adaptive filter value"),
        LyingHeader(testDescription: "a bit depth RGB cannot have", width: 16, height: 16, depth: 4, colourType: 2, message: "Invalid IHDR data"),
    ]

    @Test("a PNG whose IHDR lies about its size or layout is refused, and what it declares is never allocated", arguments: lyingHeaders)
    func lyingHeader(_ lie: LyingHeader) throws {
        let lying = try HostileImages.lyingPNG(width: lie.width, height: lie.height, depth: lie.depth, colourType: lie.colourType)
        #expect(try ImageHeader.read(lying).width == Int(lie.width), "the header reader reports what the file declares")
        // PNGCodec goes straight to libpng, which checks the size it reads itself.
        let refusals = [
            #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(lying) },
            #expect(throws: ImageCodecError.self) { try PNGCodec.decode(lying) },
        ]
        for refusal in refusals {
            #expect(refusal?.description.contains(lie.message) == true, "\(String(describing: refusal))")
        }
    }

    @Test("a PNG whose IHDR fails its CRC is refused")
    func headerFailingItsCRC() throws {
        var png = try RasterImage(width: 16, height: 16, filledWith: Colour(redLevel: 40, greenLevel: 90, blueLevel: 160)).pngData()
        png[png.startIndex + 19] = 0x20  // the width's low byte: 16 becomes 32, and the CRC no longer matches
        do {
            let image = try ImageDecoder.decode(png)
            Issue.record("decoded a \(image.width)x\(image.height) image")
        } catch {
            #expect(error.description.contains("CRC error"), "\(error)")
        }
    }
}
