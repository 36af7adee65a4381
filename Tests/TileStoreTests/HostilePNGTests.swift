import Foundation
import ImageCodec
import Testing

/// Tiles come from upstream servers and cache files, so the decoder must refuse hostile PNGs
/// cheaply. These inputs follow what the PNG fuzz target (`make fuzz`) found.
@Suite("Hostile PNGs")
struct HostilePNGTests {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// IHDR of a 1x1 8-bit greyscale image.
    static let header = chunk("IHDR", bigEndian(1) + bigEndian(1) + [8, 0, 0, 0, 0])
    /// IDAT holding the one row of that image (filter 0, grey 0x80) as a stored zlib block.
    static let pixels = chunk("IDAT", [0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x00, 0x80] + bigEndian(0x0082_0081))
    static let end = chunk("IEND", [])

    /// libpng allocates a chunk's declared length before reading it (on read, a length over its
    /// limit is only a warning), so a 60-byte file like this made every decode allocate a gigabyte.
    @Test("a chunk declaring more bytes than the file holds is refused before libpng reads it")
    func chunkLongerThanTheFile() {
        let png = Data(Self.signature + Self.header + Self.chunk("tEXt", Array("Comment\0x".utf8), declaredLength: 1_000_000_000))
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
            #expect(image.pixel(x: 0, y: 0) == RGBA(red: 0x80, green: 0x80, blue: 0x80))
        }
    }

    /// One PNG chunk: length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(declaredLength ?? UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

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
