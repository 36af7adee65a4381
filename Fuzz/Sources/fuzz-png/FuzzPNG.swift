import Foundation
import ImageCodec

/// Tile decoding (`PNGCodec.decode`). A decoded image must have the size the decoder allows, and
/// small ones are encoded and decoded again, which must give the same size back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let image = try? PNGCodec.decode(Data(bytes: bytes, count: count)) else { return 0 }
    precondition((1...8192).contains(image.width) && (1...8192).contains(image.height), "decoded \(image.width)x\(image.height)")
    if image.width * image.height <= 65_536 {
        let again = try! PNGCodec.decode(image.pngData())
        precondition(again.width == image.width && again.height == image.height, "re-encoding changed the size")
    }
    return 0
}
