import Foundation
import Screens
import TileStore

/// Scene files (`SceneFile.parse`) against the built-in styles. Refusing an input is fine;
/// crashing, hanging or running out of memory is a defect.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? SceneFile.parse(Data(bytes: bytes, count: count), name: "fuzz.json", catalog: .builtin)
    return 0
}
