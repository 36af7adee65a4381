import Foundation
import Payloads

/// CycleStreets journey answers, XML or JSON, told apart by content (`JourneyParser.parse`),
/// as scripts read them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJourney(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? JourneyParser.parse(Data(bytes: bytes, count: count))
    return 0
}
