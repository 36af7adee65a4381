import Foundation
import Payloads

/// Routes in every format `POST /routes` takes, told apart by content (`RouteParser.parse`):
/// GeoJSON (LineString, MultiLineString, Feature, FeatureCollection), journey XML and JSON, GPX,
/// KML, TCX, and OSRM, Mapbox, Valhalla, Google Directions and GraphHopper answers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoute(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? RouteParser.parse(Data(bytes: bytes, count: count))
    return 0
}
