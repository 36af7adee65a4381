import Foundation

/// Valid PNG images of any size that are small on the wire, for upstreams that answer with
/// images of the wrong size: every pixel is black, one bit per pixel, and the pixel rows (all
/// zero bytes) are deflated as runs. An 8192x8192 image is about 52 KB, and 256 MiB decoded.
///
///     upstream.setResponse(.png(BlankPNG.data(width: 8192, height: 8192)), for: "/16/32793/21586.png")
public enum BlankPNG {
    /// The PNG bytes of a black `width` x `height` image (1-bit greyscale, not interlaced).
    public static func data(width: Int, height: Int) -> Data {
        precondition(width > 0 && height > 0, "a PNG is at least 1x1")
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Bit depth 1, colour type 0 (greyscale), deflate, adaptive filtering, no interlace.
        header.append(contentsOf: [1, 0, 0, 0, 0])
        // Each row is a filter byte (0, none) and width/8 bytes of pixels, rounded up: all zero.
        let rawLength = height * (1 + (width + 7) / 8)
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", ZeroRunDeflate.zlibStream(ofZeroBytes: rawLength))
        png.appendChunk("IEND", Data())
        return png
    }
}

/// A zlib stream (RFC 1950) holding `count` zero bytes: one deflate block with the fixed
/// Huffman codes (RFC 1951 section 3.2.6), a literal zero, then copies of the byte before,
/// 258 bytes at a time, then literal zeros for what is left.
enum ZeroRunDeflate {
    static func zlibStream(ofZeroBytes count: Int) -> Data {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL: the last block
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var written = 0
        if count > 0 {
            bits.writeCode(0x30, length: 8)  // literal 0
            written = 1
        }
        while count - written >= 258 {
            bits.writeCode(0xC5, length: 8)  // length symbol 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
            written += 258
        }
        while written < count {
            bits.writeCode(0x30, length: 8)
            written += 1
        }
        bits.writeCode(0, length: 7)  // symbol 256: end of block
        // CMF 0x78 (deflate, 32 KiB window) and FLG 0x01 make a header divisible by 31.
        var stream = Data([0x78, 0x01])
        stream.append(contentsOf: bits.bytes)
        // Adler-32 of zero bytes: the byte sum stays 1, and the second sum is 1 per byte.
        stream.appendBigEndian(UInt32(count % 65_521) << 16 | 1)
        return stream
    }

    /// Packs bits into bytes the way deflate does: fields from their least significant bit,
    /// Huffman codes from their most significant bit.
    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: UInt32, count: Int) {
            for bit in 0..<count { append(bit: (value >> bit) & 1) }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for bit in stride(from: length - 1, through: 0, by: -1) { append(bit: (code >> bit) & 1) }
        }

        private mutating func append(bit: UInt32) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(bit) << used
            used += 1
        }
    }
}

extension Data {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    /// Appends a PNG chunk: length, type, data and the CRC-32 of type and data.
    fileprivate mutating func appendChunk(_ type: String, _ data: Data) {
        appendBigEndian(UInt32(data.count))
        let typed = Data(type.utf8) + data
        append(typed)
        appendBigEndian(CRC32.checksum(typed))
    }
}

/// The CRC-32 PNG chunks carry (ISO 3309, the one zlib and Ethernet use).
private enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
