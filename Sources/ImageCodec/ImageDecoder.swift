import CJPEGCodec
import CPNGCodec
import CWebPCodec
import Foundation

/// Decodes PNG, JPEG and WebP images into premultiplied ARGB32 pixels, recognising each by its
/// signature (`ImageHeader`), never by a file name or a content type.
public enum ImageDecoder {
    /// The widest and tallest image decoded, unless a caller allows less: 8192 px a side is
    /// 256 MiB of pixels.
    public static let largestSide = 8192

    /// Decodes an image of any format `ImageHeader.Format` names. An image wider or taller than
    /// `maxSide` is refused from its header, before any pixel memory is allocated; so is one that
    /// is damaged or cut short, rather than decoded in part.
    public static func decode(_ data: Data, maxSide: Int = largestSide) throws(ImageCodecError) -> RasterImage {
        let header = try ImageHeader.read(data)
        // The C decoders check the size their library reads too, before they allocate.
        guard header.width <= maxSide, header.height <= maxSide else {
            throw ImageCodecError("the \(header.format) is \(header.width)x\(header.height) pixels; at most \(maxSide)x\(maxSide) are decoded")
        }
        let image: RasterImage
        switch header.format {
        case .png: image = try decode(data, maxSide: maxSide, with: mf_png_decode)
        case .jpeg: image = try decode(data, maxSide: maxSide, with: mf_jpeg_decode)
        case .webp: image = try decode(data, maxSide: maxSide, with: mf_webp_decode)
        }
        // Each library reads the size for itself; an image whose pixels disagree with the header
        // that sizes were checked against is refused.
        guard image.width == header.width, image.height == header.height else {
            throw ImageCodecError(
                "the \(header.format) header gives \(header.width)x\(header.height) pixels, but the image decodes to \(image.width)x\(image.height)"
            )
        }
        return image
    }

    /// The shape of the C decoders (`mf_png_decode`, `mf_jpeg_decode`, `mf_webp_decode`): bytes,
    /// length and largest side in; malloc'ed ARGB32 pixels, width, height and whether the format
    /// says every pixel is opaque, or a message, out.
    typealias CDecoder = @convention(c) (
        UnsafePointer<UInt8>?, Int, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
        UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<CChar>?, Int
    ) -> Int32

    /// Runs one of the C decoders and takes ownership of its pixels.
    static func decode(_ data: Data, maxSide: Int, with decoder: CDecoder) throws(ImageCodecError) -> RasterImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, opaque: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes in
            decoder(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, Int32(clamping: maxSide),
                &pixels, &width, &height, &opaque, &message, message.count
            )
        }
        guard status == 0, let pixels else {
            throw ImageCodecError(cMessage: message)
        }
        return RasterImage(
            owningMallocedPixels: UnsafeMutableRawPointer(pixels), width: Int(width), height: Int(height), stride: Int(width) * 4,
            isKnownOpaque: opaque != 0
        )
    }
}
