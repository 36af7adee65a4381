import Foundation
import MapGeometry
import Payloads

/// Encoded polylines (`EncodedPolyline.decode`), as scenes' `enc:` paths, Google Static Maps
/// requests and routing answers give them. The first byte chooses the reading: bit 0 precision
/// 6 rather than 5, bit 1 a third value (an elevation) per point; the rest is the polyline.
/// What is read is written again and read back, and must give the same points.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolyline(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let precision = bytes[0] & 1 == 1 ? 6 : 5
    let elevations = bytes[0] & 2 == 2
    let text = String(decoding: UnsafeBufferPointer(start: bytes + 1, count: count - 1), as: UTF8.self)
    guard let points = try? EncodedPolyline.decode(text[...], precision: precision, elevations: elevations) else { return 0 }
    let again = EncodedPolyline.encode(points, precision: precision)
    guard let reread = try? EncodedPolyline.decode(again[...], precision: precision), reread == points else {
        fatalError("\(points.count) points written as \(again.prefix(80)) read back differently")
    }
    return 0
}
