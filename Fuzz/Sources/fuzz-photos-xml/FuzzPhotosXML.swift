import Foundation
import Screens

/// CycleStreets photos XML (`PhotosXMLParser.parse`), as scripts read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhotosXML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? PhotosXMLParser.parse(Data(bytes: bytes, count: count))
    return 0
}
