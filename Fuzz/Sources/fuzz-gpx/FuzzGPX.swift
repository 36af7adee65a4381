import Foundation
import Payloads

/// GPX routes and tracks (`GPXParser.parse`), as `POST /routes` reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? GPXParser.parse(Data(bytes: bytes, count: count))
    return 0
}
