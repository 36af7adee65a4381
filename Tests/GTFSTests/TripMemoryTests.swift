import Foundation
@testable import GTFS
import MapFrameTestSupport
import Testing

/// A feed keeps the trips it has read, so a server drawing the same journey again does not
/// read `stop_times.txt` again, and forgets them all past a bound.
@Suite struct TripMemoryTests {
    @Test func aTripReadOnceIsNotReadAgain() throws {
        try withTemporaryDirectory { directory in
            try TestGTFSFeed.twoLines.write(to: directory)
            let feed = try GTFSFeed.open(at: directory)
            let first = try feed.stopTimes(ofTrips: ["T7-0830"])
            // With the file gone, only a remembered trip can still be answered.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("stop_times.txt"))
            #expect(try feed.stopTimes(ofTrips: ["T7-0830"]) == first)
            #expect(throws: GTFSError.self) { try feed.stopTimes(ofTrips: ["T7-0830", "B60-0845"]) }
        }
    }

    @Test func theMemoryForgetsEverythingPastItsBound() {
        func trip(_ id: String, calls: Int) -> [String: [GTFSStopTime]] {
            [id: (0..<calls).map { GTFSStopTime(tripID: id, sequence: $0, stopID: "S", arrival: nil, departure: nil, distanceTravelled: nil) }]
        }
        var memory = TripMemory()
        memory.remember(trip("A", calls: TripMemory.maxCalls - 10))
        #expect(memory.stopTimes(of: ["A"]) != nil)
        memory.remember(trip("B", calls: 20))
        #expect(memory.stopTimes(of: ["A"]) == nil && memory.stopTimes(of: ["B"]) != nil)
        memory.remember(trip("C", calls: TripMemory.maxCalls + 1))
        #expect(memory.stopTimes(of: ["C"]) == nil, "a trip larger than the whole bound is not kept")
    }
}
