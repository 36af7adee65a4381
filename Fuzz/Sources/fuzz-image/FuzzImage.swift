import Foundation
import ImageCodec

/// Tile decoding, for every format read: the header reader that refuses a tile by its size
/// before decoding (`ImageHeader.read`) and the decoder (`ImageDecoder.decode`) of PNG, JPEG and
/// WebP. An image that decodes must have the size its header gives and the decoder allows, and
/// small ones are encoded as PNG and decoded again, which must give the same size back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let header = try? ImageHeader.read(data)
    guard let image = try? ImageDecoder.decode(data) else { return 0 }
    let largest = ImageDecoder.largestSide
    precondition((1...largest).contains(image.width) && (1...largest).contains(image.height), "decoded \(image.width)x\(image.height)")
    precondition(
        header?.width == image.width && header?.height == image.height,
        "decoded \(image.width)x\(image.height), but the header reader gave \(String(describing: header))"
    )
    if image.width * image.height <= 65_536 {
        let again = try! ImageDecoder.decode(image.pngData())
        precondition(again.width == image.width && again.height == image.height, "re-encoding changed the size")
    }
    return 0
}
