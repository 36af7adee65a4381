import Foundation
import GTFS

/// The bytes as a feed's `stop_times.txt`, beside fixed agency, routes, trips and stops: opened,
/// and every trip's stop times read, as a journey reads them (`GTFSFeed.stopTimes`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGTFS(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let stopTimes = FeedFolder.shared.appendingPathComponent("stop_times.txt")
    guard (try? Data(bytes: bytes, count: count).write(to: stopTimes)) != nil,
          let feed = try? GTFSFeed.open(at: FeedFolder.shared)
    else { return 0 }
    _ = try? feed.stopTimes(ofTrips: Set(feed.trips.keys))
    return 0
}

/// A folder, made once per process, holding the feed's other files.
enum FeedFolder {
    static let shared: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-fuzz-gtfs-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = [
            "agency.txt": "agency_name,agency_url,agency_timezone\nFuzz,https://example.org,Europe/London\n",
            "routes.txt": "route_id,route_short_name,route_type\nR1,1,0\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,D,T1\nR1,D,T2\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.2,0.1\nS2,Two,52.21,0.11\nS3,Three,52.22,0.12\n",
        ]
        for (name, text) in files { try? Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }()
}
