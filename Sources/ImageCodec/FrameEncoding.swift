import CJPEGCodec
import CWebPCodec
import Foundation

/// How a drawn frame is encoded: PNG, without loss, or JPEG or WebP at a quality, for clients of
/// static-map services that ask for them. Frames are opaque, so alpha is never written.
public enum FrameEncoding: Hashable, Sendable {
    case png
    /// Baseline JPEG with every pixel's colour kept (4:4:4), at `quality` 1-100.
    case jpeg(quality: Int)
    /// Lossy WebP at `quality` 1-100.
    case webp(quality: Int)

    /// The qualities a JPEG or WebP frame may be asked for.
    public static let qualities = 1...100
    /// The quality of a JPEG or WebP frame when none is asked for: high enough that thin route
    /// lines and small labels keep their edges.
    public static let defaultQuality = 90

    /// `format` at `quality`, which a PNG has no use for.
    public init(_ format: ImageHeader.Format, quality: Int) {
        switch format {
        case .png: self = .png
        case .jpeg: self = .jpeg(quality: quality)
        case .webp: self = .webp(quality: quality)
        }
    }

    /// The format of the encoded bytes.
    public var format: ImageHeader.Format {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .webp: .webp
        }
    }

    /// Encodes opaque premultiplied ARGB32 pixels (Cairo's layout); alpha is ignored.
    public func encode(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) throws(ImageCodecError) -> Data {
        let bytes = pixels.assumingMemoryBound(to: UInt8.self)
        var encoded: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status: Int32
        switch self {
        case .png:
            return try PNGCodec.encode(pixels: pixels, width: width, height: height, stride: stride, opaque: true)
        case .jpeg(let quality):
            try Self.check(quality)
            status = mf_jpeg_encode(bytes, Int32(width), Int32(height), Int32(stride), Int32(quality), &encoded, &length, &message, message.count)
        case .webp(let quality):
            try Self.check(quality)
            status = mf_webp_encode(bytes, Int32(width), Int32(height), Int32(stride), Int32(quality), &encoded, &length, &message, message.count)
        }
        guard status == 0, let encoded else { throw ImageCodecError(cMessage: message) }
        return Data(bytesNoCopy: encoded, count: length, deallocator: .free)
    }

    private static func check(_ quality: Int) throws(ImageCodecError) {
        guard qualities.contains(quality) else {
            throw ImageCodecError("quality \(quality) is not allowed; expected \(qualities.lowerBound) to \(qualities.upperBound)")
        }
    }
}
