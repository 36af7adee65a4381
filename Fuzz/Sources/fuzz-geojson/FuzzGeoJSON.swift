import Foundation
import Screens

/// GeoJSON routes, a LineString or a Feature (`GeoJSONParser.parse`), as `POST /routes` reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? GeoJSONParser.parse(Data(bytes: bytes, count: count))
    return 0
}
