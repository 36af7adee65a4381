import Foundation
import ImageCodec

/// Real images with headers that lie, as a hostile upstream or cache file would hold them. Each
/// is a few hundred bytes; what it declares would take gigabytes decoded.
public enum HostileImages {
    /// A real 16x16 JPEG whose frame header (SOF0) is rewritten to declare 65,500 x 65,500.
    public static func giantJPEG() throws -> Data {
        var jpeg = try TestImageEncoder.jpeg(TestPictures.gradient(width: 16, height: 16))
        guard let frame = jpeg.firstRange(of: Data([0xFF, 0xC0]))?.lowerBound else {
            throw TestSetupError(description: "the JPEG has no SOF0 segment")
        }
        // FF C0, length (2), precision (1), then height and width as big-endian 16-bit numbers.
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
        return jpeg
    }

    /// An extended WebP whose VP8X canvas is 65,500 x 65,500, holding a real 16x16 lossless image.
    public static func giantWebP() throws -> Data {
        let small = try TestImageEncoder.webp(TestPictures.gradient(width: 16, height: 16), lossless: true)
        let side = littleEndian(65_500 - 1, count: 3)
        let chunks = Data("VP8X".utf8) + littleEndian(10, count: 4) + Data([0, 0, 0, 0]) + side + side + small.dropFirst(12)
        return Data("RIFF".utf8) + littleEndian(UInt32(4 + chunks.count), count: 4) + Data("WEBP".utf8) + chunks
    }

    /// A real 8-bit RGB PNG `side` pixels square whose IHDR is rewritten (with a correct CRC) to
    /// declare another size, bit depth or colour type. Its rows have no filter, so that a row read
    /// longer than it is takes its filter byte from a pixel.
    public static func lyingPNG(side: Int = 16, width: UInt32, height: UInt32, depth: UInt8 = 8, colourType: UInt8 = 2) throws -> Data {
        let image = try RasterImage(width: side, height: side, filledWith: Colour(redLevel: 40, greenLevel: 90, blueLevel: 160))
        let honest = try image.pngData(options: .zlib(level: 1, filters: .none))
        let header = pngChunk("IHDR", bigEndian(width) + bigEndian(height) + [depth, colourType, 0, 0, 0])
        // The signature (8 bytes), then the honest IHDR chunk (25 bytes), replaced.
        return honest.prefix(8) + Data(header) + honest.dropFirst(33)
    }

    /// The first two thirds of `data`: a file cut short, with its header whole.
    public static func truncated(_ data: Data) -> Data {
        data.prefix(data.count * 2 / 3)
    }

    /// One PNG chunk: length (or `declaredLength`), type, data and CRC.
    public static func pngChunk(_ type: String, _ data: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(declaredLength ?? UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func littleEndian(_ value: UInt32, count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// The CRC-32 PNG chunks end with.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
