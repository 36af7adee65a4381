import Foundation
import CMalloc
import GTFS
import MapGeometry
import MapRender
import TileStore
import MapFrameTestSupport
import PhoneScreen
import SwiftProtobuf
import Transit

/// Opening a generated feed with 1,000,000 `stop_times` rows (20,000 trips of 50 stops) and
/// drawing one journey from it: the time, and the peak memory it takes (target under 3 s and
/// under 300 MB). Then the departure board of the feed's busiest stop, a pass over
/// `stop_times.txt` each time, alone and with a realtime file of 100,000 trip updates: the
/// median time and the peak memory of each.
func benchmarkGTFS() throws {
    let trips = 20_000, stopsPerTrip = 50
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-bench-gtfs-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try TestGTFSFeed.writeLarge(to: folder, trips: trips, stopsPerTrip: stopsPerTrip)

    resetPeakMemory()
    let start = DispatchTime.now().uptimeNanoseconds
    let feed = try GTFSFeed.open(at: folder)
    let opened = DispatchTime.now().uptimeNanoseconds
    // One journey on the trip in the middle of the file: board at its 5th call, alight at its 30th.
    let trip = "T\(trips / 2)", stops = TestGTFSFeed.largeFeedStops(ofTrip: trips / 2, count: stopsPerTrip)
    let journey = try TransitJourney(.legs([.init(trip: trip, board: stops[4], alight: stops[29])]), following: trip, in: feed)
    let read = DispatchTime.now().uptimeNanoseconds
    guard let departure = try feed.stopTimes(ofTrips: [trip])[trip]?.first?.departure else {
        throw GTFSError(file: folder.path, message: "the benchmark trip has no departure")
    }
    let map = journey.map(vehicle: .scheduled(departure.adding(seconds: 300)))
    let scene = Scene(camera: .fitAll(padding: MapDefaults.fitPadding), transit: map)
    let frame = try FrameRenderer().render(scene, tileSet: StyleCatalog.builtin["osm"]!.tileSet, tiles: NoTiles()).canvas.pngData(opaque: true)
    let drawn = DispatchTime.now().uptimeNanoseconds
    guard !frame.isEmpty, map.sentence != nil else { throw GTFSError(file: folder.path, message: "the benchmark journey was not drawn") }

    print("GTFS: a generated feed of \(trips * stopsPerTrip) stop_times rows (\(trips) trips of \(stopsPerTrip) stops), read once")
    report("  open (agency, routes, trips, stops)", Double(opened - start) / 1_000_000)
    report("  one journey's trip (one pass over stop_times.txt)", Double(read - opened) / 1_000_000)
    report("  its frame (placing, drawing, PNG)", Double(drawn - read) / 1_000_000)
    report("  open + one journey drawn (target < 3000 ms)", Double(drawn - start) / 1_000_000)
    if let peak = peakMemoryMiB() {
        print("  peak memory while reading (target < 300 MB)".padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8d MiB", peak))
    }
    try benchmarkBoard(feed: feed, folder: folder, trips: trips, stopsPerTrip: stopsPerTrip)
}

/// The board of the busiest stop of the large feed at 08:00 on a Friday: median of 5 after one
/// untimed, its frame drawn and encoded each time.
private func benchmarkBoard(feed: GTFSFeed, folder: URL, trips: Int, stopsPerTrip: Int) throws {
    let (stop, calls) = TestGTFSFeed.largeFeedBusiestStop(trips: trips, stopsPerTrip: stopsPerTrip)
    let date = GTFSDate(year: 2024, month: 3, day: 15)!, time = GTFSTime(parsing: "08:00:00")!
    let realtime = folder.appendingPathComponent("trip-updates.pb")
    try writeTripUpdates(count: 100_000, at: UInt64(date.serviceDayStart(in: feed.timeZone) + time.seconds), to: realtime)
    let realtimeBytes = (try? realtime.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0

    func board(reading files: [URL]) throws {
        let departures = try Departures(at: stop, on: date, time: time, count: 8, in: feed) { interest throws(TransitError) in
            var merged = RealtimeFeed()
            for file in files {
                do throws(GTFSError) {
                    merged.merge(try RealtimeFeed.read(contentsOf: file, keeping: interest))
                } catch {
                    throw TransitError(field: "realtime", message: error.description)
                }
            }
            return merged
        }
        let scene = Scene(camera: .fixed(MapDefaults.fallbackCamera), attribution: .hidden, departureBoard: departures.board)
        let frame = try FrameRenderer().render(scene, tileSet: StyleCatalog.builtin["osm"]!.tileSet, tiles: NoTiles()).canvas.pngData(opaque: true)
        guard departures.departures.count == 8, !frame.isEmpty else { throw GTFSError(file: folder.path, message: "the benchmark board was not drawn") }
    }

    malloc_trim(0)  // hands the message's freed pages back, so the peaks below are the boards' own
    print("Departure board: the busiest stop (\(stop), \(calls) calls) of the same feed, a pass over stop_times.txt each")
    resetPeakMemory()
    report("  its board, median of 5", try medianMilliseconds(iterations: 5, warmUp: 1) { try board(reading: []) })
    if let peak = peakMemoryMiB() {
        print("  peak memory of those boards".padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8d MiB", peak))
    }
    resetPeakMemory()
    report("  with 100,000 trip updates (\(realtimeBytes >> 20) MiB), median of 5", try medianMilliseconds(iterations: 5, warmUp: 1) { try board(reading: [realtime]) })
    if let peak = peakMemoryMiB() {
        print("  peak memory of those boards".padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8d MiB", peak))
    }
}

/// Writes a realtime file of `count` trip updates of ten stops each. The message is built and
/// dropped here, so that the boards' peak memory is theirs alone.
private func writeTripUpdates(count: Int, at timestamp: UInt64, to file: URL) throws {
    var message = TestRealtime.message(timestamp: timestamp, [])
    message.entity = (0..<count).map { index in
        let stops = (0..<10).map { call in TestRealtime.Stop(sequence: UInt32(call + 1), arrivalDelay: Int32(index % 600)) }
        return TestRealtime.tripUpdate("tu-\(index)", trip: TestRealtime.trip("T\(index)"), stops: stops)
    }
    try TestRealtime.write(message, to: file)
}

/// The large feed lies far from the fixture tiles: its frame is drawn over the missing-tile grey.
private struct NoTiles: TileProviding {
    func tile(_ id: TileID) -> TileLookup { .missing(MissingTile(tile: id, reason: .notCached)) }
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
