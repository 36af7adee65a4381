import Foundation
import Payloads

/// CycleStreets Photomap answers, XML or GeoJSON, told apart by content (`PhotosParser.parse`),
/// as scripts read them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhotos(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? PhotosParser.parse(Data(bytes: bytes, count: count))
    return 0
}
