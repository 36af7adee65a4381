import Foundation
import MapGeometry
import TileStore

/// Expire lists (`ExpiryList`), as `mapframe cache expire` reads them, a line at a time. Every
/// block a line names must lie inside the world at its zoom, and widen to the deepest zoom
/// without leaving it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpiry(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        guard let block = try? ExpiryList.block(inLine: line) else { continue }
        for widened in block.withDescendants(through: TileID.maxZoom) {
            let side = TileID.tilesPerSide(zoom: widened.zoom)
            guard widened.columns.lowerBound >= 0, widened.rows.lowerBound >= 0, widened.columns.upperBound < side, widened.rows.upperBound < side else {
                fatalError("\(line) names \(widened), outside the world at zoom \(widened.zoom)")
            }
        }
    }
    return 0
}
