import Foundation
import GTFS
import MapFrameTestSupport

/// Opening a generated feed with 1,000,000 `stop_times` rows (20,000 trips of 50 stops) and
/// reading one trip's stop times from it: the time, and the peak memory it takes (target under
/// 3 s and under 300 MB).
func benchmarkGTFS() throws {
    let trips = 20_000, stopsPerTrip = 50
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-bench-gtfs-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try TestGTFSFeed.writeLarge(to: folder, trips: trips, stopsPerTrip: stopsPerTrip)

    resetPeakMemory()
    let start = DispatchTime.now().uptimeNanoseconds
    let feed = try GTFSFeed.open(at: folder)
    let opened = DispatchTime.now().uptimeNanoseconds
    let calls = try feed.stopTimes(ofTrips: ["T\(trips / 2)"])
    let read = DispatchTime.now().uptimeNanoseconds
    guard calls["T\(trips / 2)"]?.count == stopsPerTrip else { throw GTFSError(file: folder.path, message: "the benchmark trip is not whole") }

    print("GTFS: a generated feed of \(trips * stopsPerTrip) stop_times rows (\(trips) trips of \(stopsPerTrip) stops), read once")
    report("  open: agency, routes, trips and stops whole", Double(opened - start) / 1_000_000)
    report("  one trip's stop times: a pass over stop_times", Double(read - opened) / 1_000_000)
    report("  open + one trip (target < 3000 ms)", Double(read - start) / 1_000_000)
    if let peak = peakMemoryMiB() {
        print("  peak memory, from the open (target < 300 MB)".padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8d MiB", peak))
    }
}

/// Starts counting the process's peak resident memory afresh (Linux: /proc/self/clear_refs).
private func resetPeakMemory() {
    try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
}

/// The process's peak resident memory since the last reset, in MiB (VmHWM); nil where /proc has none.
private func peakMemoryMiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let match = status.firstMatch(of: /VmHWM:\s+(\d+) kB/), let kibibytes = Int(match.1)
    else { return nil }
    return kibibytes / 1024
}
