import CLibDeflate
import Foundation

/// An encoded image's format and pixel size, read from its first bytes without decoding a
/// pixel: enough to refuse an image before it costs any memory (an 8192x8192 PNG can be a
/// few kilobytes and decode to 256 MiB).
public struct ImageHeader: Hashable, Sendable {
    /// The image formats MapFrame reads, told apart by their signatures.
    public enum Format: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case png, jpeg, webp

        /// The media type an image of this format is sent with.
        public var mimeType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            }
        }

        /// The format's name for messages: "PNG", "JPEG" or "WebP".
        public var description: String {
            switch self {
            case .png: "PNG"
            case .jpeg: "JPEG"
            case .webp: "WebP"
            }
        }
    }

    public let format: Format
    public let width: Int
    public let height: Int

    init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the header of an image, recognising its format by its signature, never by a file
    /// name or a content type: PNG (its IHDR chunk), JPEG (its SOFn segment) or WebP (its VP8,
    /// VP8L or VP8X chunk).
    public static func read(_ data: Data) throws(ImageCodecError) -> ImageHeader {
        let header = data.withUnsafeBytes { bytes in Result { () throws(ImageCodecError) in try read(HeaderBytes(bytes)) } }
        return try header.get()
    }

    private static func read(_ bytes: HeaderBytes) throws(ImageCodecError) -> ImageHeader {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try readPNG(bytes) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try readJPEG(bytes) }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.matches(Array("WEBP".utf8), at: 8) { return try readWebP(bytes) }
        let start = (0..<min(8, bytes.count)).map { String(format: "%02X", bytes[$0]) }.joined(separator: " ")
        throw ImageCodecError("not a PNG, JPEG or WebP image (it starts \(start.isEmpty ? "with nothing" : start))")
    }

    /// A PNG's size from its IHDR chunk, which must come first, straight after the signature:
    /// length 13, type "IHDR", then width and height as big-endian 32-bit numbers.
    private static func readPNG(_ bytes: HeaderBytes) throws(ImageCodecError) -> ImageHeader {
        guard bytes.count >= 24 else { throw ImageCodecError("a truncated PNG: \(bytes.count) bytes, too short for its header") }
        guard bytes.matches([0, 0, 0, 13] + Array("IHDR".utf8), at: 8) else {
            throw ImageCodecError("not a valid PNG: its first chunk is not a 13-byte IHDR")
        }
        let width = bytes.bigEndian(at: 16, count: 4), height = bytes.bigEndian(at: 20, count: 4)
        // PNG allows 1 to 2^31 - 1 pixels a side.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw ImageCodecError("not a valid PNG: its header gives \(width)x\(height) pixels")
        }
        return ImageHeader(format: .png, width: width, height: height)
    }

    /// A JPEG's size from its frame header (SOF0 to SOF15, less DHT, JPG and DAC, which share the
    /// numbering): the segments after the SOI marker are walked by their lengths until one is
    /// found. Its height and width follow the sample precision, as big-endian 16-bit numbers.
    private static func readJPEG(_ bytes: HeaderBytes) throws(ImageCodecError) -> ImageHeader {
        let truncated = ImageCodecError("a truncated JPEG: \(bytes.count) bytes, and no frame header (SOFn) in them")
        var offset = 2
        while true {
            guard offset < bytes.count else { throw truncated }
            guard bytes[offset] == 0xFF else {
                throw ImageCodecError("not a valid JPEG: byte \(offset) should start a marker (FF), not \(String(format: "%02X", bytes[offset]))")
            }
            // A marker may be preceded by any number of FF fill bytes.
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { throw truncated }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // TEM and RSTn stand alone, without a length
            case 0xD8, 0xD9, 0xDA:
                throw ImageCodecError("not a valid JPEG: no frame header (SOFn) before its \(marker == 0xDA ? "scan" : "end")")
            default:
                break
            }
            guard offset + 2 <= bytes.count else { throw truncated }
            let length = bytes.bigEndian(at: offset, count: 2)
            guard length >= 2 else { throw ImageCodecError("not a valid JPEG: the segment at byte \(offset - 2) declares \(length) bytes") }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader {
                guard length >= 8, offset + 7 <= bytes.count else {
                    throw ImageCodecError("a truncated JPEG: its frame header at byte \(offset - 2) is cut short")
                }
                let height = bytes.bigEndian(at: offset + 3, count: 2), width = bytes.bigEndian(at: offset + 5, count: 2)
                // A height of 0 defers it to a DNL marker, which libjpeg does not read.
                guard width > 0, height > 0 else {
                    throw ImageCodecError("not a valid JPEG: its frame header gives \(width)x\(height) pixels")
                }
                return ImageHeader(format: .jpeg, width: width, height: height)
            }
            offset += length
        }
    }

    /// A WebP's size from the first chunk after "RIFF", the file length and "WEBP":
    /// - "VP8 " (lossy): a 3-byte frame tag, the start code 9D 01 2A, then width and height as
    ///   little-endian 16-bit numbers whose top 2 bits are a scaling hint;
    /// - "VP8L" (lossless): the signature 2F, then width - 1 and height - 1 in 14 bits each;
    /// - "VP8X" (extended): flags and 3 reserved bytes, then canvas width - 1 and height - 1 in
    ///   24 bits each.
    private static func readWebP(_ bytes: HeaderBytes) throws(ImageCodecError) -> ImageHeader {
        guard bytes.count >= 20 else { throw ImageCodecError("a truncated WebP: \(bytes.count) bytes, too short for its first chunk") }
        let chunk = bytes.text(at: 12, count: 4)
        let data = 20
        let size: (width: Int, height: Int)
        switch chunk {
        case "VP8 ":
            guard bytes.count >= data + 10 else { throw ImageCodecError("a truncated WebP: its VP8 frame header is cut short") }
            guard bytes.matches([0x9D, 0x01, 0x2A], at: data + 3) else {
                throw ImageCodecError("not a valid WebP: its VP8 chunk does not start with a key frame")
            }
            size = (bytes.littleEndian(at: data + 6, count: 2) & 0x3FFF, bytes.littleEndian(at: data + 8, count: 2) & 0x3FFF)
        case "VP8L":
            guard bytes.count >= data + 5 else { throw ImageCodecError("a truncated WebP: its VP8L header is cut short") }
            guard bytes[data] == 0x2F else { throw ImageCodecError("not a valid WebP: its VP8L chunk lacks the lossless signature") }
            let bits = bytes.littleEndian(at: data + 1, count: 4)
            size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard bytes.count >= data + 10 else { throw ImageCodecError("a truncated WebP: its VP8X header is cut short") }
            size = (bytes.littleEndian(at: data + 4, count: 3) + 1, bytes.littleEndian(at: data + 7, count: 3) + 1)
        default:
            throw ImageCodecError("not a valid WebP: its first chunk is '\(chunk)', not VP8, VP8L or VP8X")
        }
        guard size.width > 0, size.height > 0 else {
            throw ImageCodecError("not a valid WebP: its header gives \(size.width)x\(size.height) pixels")
        }
        return ImageHeader(format: .webp, width: size.width, height: size.height)
    }
}

extension ImageHeader {
    /// Checks that `data`, whose header this is, holds the whole image, without decoding a
    /// pixel: a body cut short in transfer, or bytes damaged on the way, are refused.
    /// - PNG: every chunk is whole and its CRC matches, at least one IDAT, and IEND at the end.
    /// - JPEG: the image ends with its end-of-image marker (FF D9; zero padding after it allowed).
    /// - WebP: the RIFF container holds as many bytes as its header declares.
    public func checkWhole(_ data: Data) throws(ImageCodecError) {
        let check = data.withUnsafeBytes { bytes in
            Result { () throws(ImageCodecError) in
                let image = HeaderBytes(bytes)
                switch format {
                case .png: try Self.checkWholePNG(image)
                case .jpeg: try Self.checkWholeJPEG(image)
                case .webp: try Self.checkWholeWebP(image)
                }
            }
        }
        try check.get()
    }

    private static func checkWholePNG(_ bytes: HeaderBytes) throws(ImageCodecError) {
        var offset = 8
        var sawImageData = false
        while offset + 12 <= bytes.count {
            let length = bytes.bigEndian(at: offset, count: 4)
            let type = bytes.text(at: offset + 4, count: 4)
            guard length <= bytes.count - offset - 12 else {
                throw ImageCodecError("a truncated PNG: its \(type) chunk at byte \(offset) declares \(length) bytes, more than are left")
            }
            let stored = UInt32(bytes.bigEndian(at: offset + 8 + length, count: 4))
            let computed = UInt32(libdeflate_crc32(0, bytes.bytes.baseAddress! + offset + 4, 4 + length))
            guard stored == computed else { throw ImageCodecError("a damaged PNG: the CRC of its \(type) chunk at byte \(offset) does not match") }
            if type == "IDAT" { sawImageData = true }
            if type == "IEND" {
                guard sawImageData else { throw ImageCodecError("not a valid PNG: it has no image data (IDAT) before its end") }
                return
            }
            offset += 12 + length
        }
        throw ImageCodecError("a truncated PNG: \(bytes.count) bytes, and no end (IEND) in them")
    }

    private static func checkWholeJPEG(_ bytes: HeaderBytes) throws(ImageCodecError) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        guard end >= 4, bytes[end - 2] == 0xFF, bytes[end - 1] == 0xD9 else {
            throw ImageCodecError("a truncated JPEG: \(bytes.count) bytes, and no end-of-image marker (FF D9) at the end")
        }
    }

    private static func checkWholeWebP(_ bytes: HeaderBytes) throws(ImageCodecError) {
        let declared = bytes.littleEndian(at: 4, count: 4) + 8
        guard declared <= bytes.count else {
            throw ImageCodecError("a truncated WebP: \(bytes.count) bytes, where its RIFF header declares \(declared)")
        }
    }
}

/// The bytes of an encoded image, read as header fields: each read is within `count`, which
/// callers check first.
private struct HeaderBytes {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    subscript(offset: Int) -> UInt8 { bytes[offset] }

    func starts(with prefix: [UInt8]) -> Bool { matches(prefix, at: 0) }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        offset + expected.count <= count && expected.indices.allSatisfy { bytes[offset + $0] == expected[$0] }
    }

    func bigEndian(at offset: Int, count: Int) -> Int {
        (offset..<offset + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    func littleEndian(at offset: Int, count: Int) -> Int {
        (offset..<offset + count).reversed().reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    /// Bytes as text, with anything unprintable as "?".
    func text(at offset: Int, count: Int) -> String {
        String((offset..<offset + count).map { (0x20..<0x7F).contains(bytes[$0]) ? Character(UnicodeScalar(bytes[$0])) : "?" })
    }
}
