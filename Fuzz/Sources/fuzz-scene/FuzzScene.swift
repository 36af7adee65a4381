import Foundation
import FrameRequest
import MapGeometry
import MapRender
import TileStore

/// Scene files (`SceneFile.parse`) against the built-in styles, then what `mapframe snapshot`
/// and `POST /frame` work out before drawing: the camera (fitted where the scene asks), the
/// tiles the frame needs and whether drawing changes its tiles. Refusing an input is fine;
/// crashing, hanging or running out of memory is a defect.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let catalog = StyleCatalog.builtin
    guard let scene = try? SceneFile.parse(Data(bytes: bytes, count: count), name: "fuzz.json", catalog: catalog),
          let source = catalog[scene.style] else { return 0 }
    let geometry = FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
    _ = geometry.tilePlacements(in: source.tileSet.grid)
    _ = FrameRenderer.changesTiles(scene, geometry: geometry, tileSet: source.tileSet)
    return 0
}
