import Foundation
import FrameRequest
import MapGeometry
import MapRender
import TileStore

/// The static-map front doors: an input is a request target, `/staticmap?...` (Google's
/// grammar) or `/styles/v1/{user}/{style}/static/...` (Mapbox's), read as the server reads it,
/// then placed as `fuzz-scene` places a scene. Refusing an input is fine; crashing, hanging or
/// running out of memory is a defect.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStaticMap(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let catalog = StyleCatalog.builtin
    let target = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let path = target.prefix { $0 != "?" }
    let parameters: [(String, String)] = target.dropFirst(path.count + 1).split(separator: "&").map { pair in
        let name = pair.prefix { $0 != "=" }
        let value = pair.dropFirst(name.count + 1)
        return (String(name).removingPercentEncoding ?? "", String(value).removingPercentEncoding ?? "")
    }
    let scene: Scene?
    if path == "/staticmap" {
        scene = try? GoogleStaticMap.frame(from: parameters, catalog: catalog).scene
    } else {
        let parts = path.split(separator: "/", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[1] == "styles", parts[2] == "v1", let marker = path.range(of: "/static/") else { return 0 }
        scene = try? MapboxStaticMap.scene(style: String(parts[4]), rest: path[marker.upperBound...], parameters: parameters, catalog: catalog)
    }
    guard let scene, let source = catalog[scene.style] else { return 0 }
    let geometry = FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
    _ = geometry.tilePlacements(in: source.tileSet.grid)
    _ = FrameRenderer.changesTiles(scene, geometry: geometry, tileSet: source.tileSet)
    return 0
}
