import CPNGCodec
import Foundation

/// Why an image could not be decoded or encoded.
public struct ImageCodecError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(cMessage: [CChar]) {
        description = String(decoding: cMessage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    init(_ description: String) {
        self.description = description
    }
}

/// How hard the PNG encoder works. Map frames are dominated by encoding time, so the
/// default favours speed: zlib level 1 with no row filter, which `make bench` measured both
/// faster and smaller than the Sub or Up filters on map frames (flat colours), and zlib's
/// run-length strategy slower, because its output was several times larger.
public struct PNGEncodingOptions: Hashable, Sendable {
    /// The row filters libpng may choose from.
    public struct Filters: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let none = Filters(rawValue: 0x08)
        public static let sub = Filters(rawValue: 0x10)
        public static let up = Filters(rawValue: 0x20)
        public static let average = Filters(rawValue: 0x40)
        public static let paeth = Filters(rawValue: 0x80)
        public static let all: Filters = [.none, .sub, .up, .average, .paeth]
    }

    /// The deflate level, 0 (store) to 9 (smallest): zlib's through libpng, or libdeflate's when
    /// there is no row filter.
    public var zlibLevel: Int32
    public var filters: Filters

    public init(zlibLevel: Int32, filters: Filters) {
        self.zlibLevel = zlibLevel
        self.filters = filters
    }

    /// Fast enough for live frames and tiles.
    public static let fast = PNGEncodingOptions(zlibLevel: 1, filters: .none)
    /// Smaller files for images kept in a repository (goldens, fixture tiles).
    public static let compact = PNGEncodingOptions(zlibLevel: 9, filters: .all)
}

/// PNG decoding and encoding through libpng, and unfiltered encoding through libdeflate.
public enum PNGCodec {
    /// Decodes PNG bytes into premultiplied ARGB32 pixels; `ImageDecoder.decode` reads any format.
    public static func decode(_ data: Data) throws(ImageCodecError) -> RasterImage {
        try ImageDecoder.decode(data, maxSide: ImageDecoder.largestSide, with: mf_png_decode)
    }

    /// Encodes premultiplied ARGB32 pixels. `opaque` writes RGB and drops alpha.
    public static func encode(
        pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, opaque: Bool,
        options: PNGEncodingOptions = .fast
    ) throws(ImageCodecError) -> Data {
        var png: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let bytes = pixels.assumingMemoryBound(to: UInt8.self)
        // With no row filter, libdeflate compresses the whole image in one call, faster than
        // libpng's zlib a row at a time; filtered encodes go through libpng.
        let status = options.filters == .none
            ? mf_png_encode_unfiltered(
                bytes, Int32(width), Int32(height), Int32(stride), opaque ? 1 : 0, options.zlibLevel, &png, &length, &message, message.count
            )
            : mf_png_encode(
                bytes, Int32(width), Int32(height), Int32(stride), opaque ? 1 : 0,
                options.zlibLevel, options.filters.rawValue, &png, &length, &message, message.count
            )
        guard status == 0, let png else {
            throw ImageCodecError(cMessage: message)
        }
        return Data(bytesNoCopy: png, count: length, deallocator: .free)
    }
}

extension RasterImage {
    /// The image as PNG bytes; RGB when every pixel is opaque, Colour otherwise.
    public func pngData(options: PNGEncodingOptions = .fast) throws(ImageCodecError) -> Data {
        try PNGCodec.encode(pixels: pixels, width: width, height: height, stride: stride, opaque: isOpaque, options: options)
    }

    /// Whether every pixel has full alpha.
    public var isOpaque: Bool {
        var opaque = true
        withRows { _, row in
            if opaque, row.contains(where: { $0 >> 24 != 0xff }) { opaque = false }
        }
        return opaque
    }
}
