import Foundation
import Screens

/// CycleStreets geocoder XML (`GeocoderXMLParser.parse`), as scripts read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeocoderXML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? GeocoderXMLParser.parse(Data(bytes: bytes, count: count))
    return 0
}
