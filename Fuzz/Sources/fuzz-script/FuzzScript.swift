import Foundation
import MapGeometry
import Screens
import TileStore

/// The styles a script may name, with their zoom ranges, as `mapframe play` offers them.
let styles: [String: ZoomRange] = {
    let catalog = StyleCatalog.builtin
    return Dictionary(uniqueKeysWithValues: catalog.names.compactMap { name in catalog[name].map { (name, $0.tileSet.zoomRange) } })
}()

/// The folder relative payload paths resolve against. The parser only resolves paths, so the
/// files need not exist.
let scriptDirectory: URL = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-fuzz-script", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}()

/// Scripts (`ScriptParser.parse`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? ScriptParser.parse(Data(bytes: bytes, count: count), relativeTo: scriptDirectory, styles: styles)
    return 0
}
