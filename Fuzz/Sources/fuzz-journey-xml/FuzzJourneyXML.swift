import Foundation
import Screens

/// CycleStreets journey XML (`JourneyXMLParser.parse`), as `POST /routes` and scripts read them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJourneyXML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? JourneyXMLParser.parse(Data(bytes: bytes, count: count))
    return 0
}
