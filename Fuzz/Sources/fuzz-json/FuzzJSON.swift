import Foundation
import StrictJSON

/// The strict JSON parser (`JSONValue.parse`). A parsed document's summary is also built, since
/// error messages quote values through it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if let value = try? JSONValue.parse(Data(bytes: bytes, count: count), documentName: "fuzz.json") {
        _ = value.summary
    }
    return 0
}
