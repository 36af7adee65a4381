import Foundation
import Payloads

/// CycleStreets placefinder answers, XML or GeoJSON, told apart by content
/// (`GeocoderParser.parse`), as scripts read them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeocoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? GeocoderParser.parse(Data(bytes: bytes, count: count))
    return 0
}
