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

/// How a PNG is encoded: fast, for frames and tiles as they are served, or through libpng's zlib
/// with its row filters, for files kept in a repository.
public enum PNGEncodingOptions: Hashable, Sendable {
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

    /// The run-length encoder (`mf_png_encode_run_length`), for live frames and tiles: encoding
    /// is most of a frame's cost, and map frames are flat colours, which it codes as runs
    /// without searching for matches.
    case fast
    /// libpng, with zlib at `level` (0, store, to 9, smallest) and these filters.
    case zlib(level: Int32, filters: Filters)

    /// Smaller files for images kept in a repository (goldens, fixture tiles).
    public static let compact = PNGEncodingOptions.zlib(level: 9, filters: .all)
}

/// PNG decoding and encoding through libpng, and the run-length encoder.
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
        let status = switch options {
        case .fast:
            mf_png_encode_run_length(bytes, Int32(width), Int32(height), Int32(stride), opaque ? 1 : 0, &png, &length, &message, message.count)
        case .zlib(let level, let filters):
            mf_png_encode(
                bytes, Int32(width), Int32(height), Int32(stride), opaque ? 1 : 0, level, filters.rawValue, &png, &length, &message, message.count
            )
        }
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

    /// Whether every pixel has full alpha: known from the image's format, else looked at.
    public var isOpaque: Bool {
        if isKnownOpaque { return true }
        var opaque = true
        withRows { _, row in
            if opaque, row.contains(where: { $0 >> 24 != 0xff }) { opaque = false }
        }
        return opaque
    }
}
