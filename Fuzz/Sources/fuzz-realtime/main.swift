import Foundation
import GTFS

/// GTFS-realtime feed messages, as a scene's `vehicle.realtime` file is read (`RealtimeVehicles.read`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRealtime(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? RealtimeVehicles.read(Data(bytes: bytes, count: count), file: "fuzz.pb")
    return 0
}
