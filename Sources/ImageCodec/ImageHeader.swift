import Foundation

/// An encoded image's format and pixel size, read from its first bytes without decoding a
/// pixel: enough to refuse an image before it costs any memory (an 8192x8192 PNG can be a
/// few kilobytes and decode to 256 MiB).
public struct ImageHeader: Hashable, Sendable {
    public enum Format: String, Hashable, Sendable {
        case png
    }

    public let format: Format
    public let width: Int
    public let height: Int

    init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the header of an image, recognising its format by its signature.
    ///
    /// Only PNG is read today. Another format is added here by its signature, with a reader
    /// of its own: JPEG starts FF D8 FF (its size is in the SOFn segment), WebP with "RIFF",
    /// four bytes, then "WEBP" (its size is in the VP8, VP8L or VP8X chunk).
    public static func read(_ data: Data) throws(ImageCodecError) -> ImageHeader {
        if PNGCodec.hasSignature(data) { return try readPNG(data) }
        throw ImageCodecError("not a PNG image (no PNG signature)")
    }

    /// A PNG's size from its IHDR chunk, which must come first, straight after the signature:
    /// length 13, type "IHDR", then width and height as big-endian 32-bit numbers.
    private static func readPNG(_ data: Data) throws(ImageCodecError) -> ImageHeader {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24 else { throw ImageCodecError("a truncated PNG: \(data.count) bytes, too short for its header") }
        guard bytes[8..<16].elementsEqual([0, 0, 0, 13] + Array("IHDR".utf8)) else {
            throw ImageCodecError("not a valid PNG: its first chunk is not a 13-byte IHDR")
        }
        func number(at offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = number(at: 16), height = number(at: 20)
        // PNG allows 1 to 2^31 - 1 pixels a side.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw ImageCodecError("not a valid PNG: its header gives \(width)x\(height) pixels")
        }
        return ImageHeader(format: .png, width: width, height: height)
    }
}
