import Foundation
import GTFS
import MapFrameTestSupport
import SwiftProtobuf
import Testing

/// What a departure board costs a server in memory, measured on `mapframe serve` in a process of
/// its own (its peak resident memory, VmHWM): a board for the busiest stop of a large feed, and
/// a board whose realtime file is a region's 100,000 entities, each takes less than the file it
/// reads would if it were held whole.
@Suite struct DeparturesMemoryTests {
    @Test func aBoardOfALargeFeedAndARegionsRealtimeFileStaysWithinTheFilesSizes() async throws {
        let directory = try TemporaryDirectory("departures-memory")
        defer { directory.remove() }
        let feed = directory.url.appendingPathComponent("gtfs")
        // 500,000 stop times: 10,000 trips of 50 calls.
        let trips = 10_000, calls = 50
        try TestGTFSFeed.writeLarge(to: feed, trips: trips, stopsPerTrip: calls)
        let stopTimesSize = try #require(try feed.appendingPathComponent("stop_times.txt").resourceValues(forKeys: [.fileSizeKey]).fileSize)
        let realtime = directory.url.appendingPathComponent("trip-updates.pb")
        try TestRealtime.write(TestRealtime.message(timestamp: 1_710_491_760, []), to: realtime)
        let server = try await ServeProcess.start([
            "--cache-dir", directory.path + "/tiles", "--offline", "--gtfs", "large=\(feed.path)", "--gtfs-realtime", "large=\(realtime.path)",
        ])
        defer { server.stop() }
        let busiest = TestGTFSFeed.largeFeedBusiestStop(trips: trips, stopsPerTrip: calls).stop
        let board = "/departures.png?feed=large&stop=\(busiest)&date=2024-03-15&time=8:00:00&count=20"
        // The first boards load the fonts and give the threads that read and draw their memory
        // arenas; what comes after is a board's own.
        for _ in 0..<3 {
            let warming = try await server.get(board)
            #expect(warming.status == 200, "\(warming)")
        }
        let settled = try server.peakMemory()

        let again = try await server.get(board)
        #expect(again.status == 200, "\(again)")
        let afterFeed = try server.peakMemory()
        print("DeparturesMemoryTests: stop_times.txt \(stopTimesSize >> 20) MiB; peak \(settled >> 20) MiB before a board, \(afterFeed >> 20) MiB after")
        #expect(afterFeed - settled < stopTimesSize, "a board of a \(stopTimesSize >> 20) MiB stop_times.txt took \((afterFeed - settled) >> 20) MiB more")

        // The realtime file becomes a region's: 100,000 trip updates of 10 stops each.
        var message = TestRealtime.message(timestamp: 1_710_491_760, [])
        message.entity = (0..<100_000).map(Self.update)
        try TestRealtime.write(message, to: realtime)
        let realtimeSize = try #require(try realtime.resourceValues(forKeys: [.fileSizeKey]).fileSize)
        let live = try await server.get(board)
        #expect(live.status == 200, "\(live)")
        let afterRealtime = try server.peakMemory()
        print("DeparturesMemoryTests: a realtime file of 100,000 entities, \(realtimeSize >> 20) MiB; peak \(afterRealtime >> 20) MiB after reading it")
        #expect(afterRealtime - afterFeed < realtimeSize, "a board reading a \(realtimeSize >> 20) MiB realtime file took \((afterRealtime - afterFeed) >> 20) MiB more")
    }

    /// A trip update of the large feed's trip `index`, 10 stops of it delayed.
    static func update(_ index: Int) -> TransitRealtime_FeedEntity {
        var stops: [TestRealtime.Stop] = []
        for call in 0..<10 { stops.append(TestRealtime.Stop(sequence: UInt32(call + 1), arrivalDelay: Int32(index % 600))) }
        return TestRealtime.tripUpdate("tu-\(index)", trip: TestRealtime.trip("T\(index)", route: "R\(index % 100)"), stops: stops)
    }
}
