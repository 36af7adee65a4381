import Foundation
@testable import GTFS
import MapFrameTestSupport
import Testing

/// A feed keeps the trips and shapes it has read, so a server drawing the same journey again
/// does not read `stop_times.txt` or `shapes.txt` again, and forgets them all past a bound.
@Suite struct RowMemoryTests {
    @Test func aTripReadOnceIsNotReadAgain() throws {
        try withTemporaryDirectory { directory in
            try TestGTFSFeed.twoLines.write(to: directory)
            let feed = try GTFSFeed.open(at: directory)
            let first = try feed.stopTimes(ofTrips: ["T7-0830"])
            // With the file gone, only a remembered trip can still be answered.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("stop_times.txt"))
            #expect(try feed.stopTimes(ofTrips: ["T7-0830"]) == first)
            #expect(throws: GTFSError.self) { try feed.stopTimes(ofTrips: ["T7-0830", "B60-0845"]) }
            let shape = try feed.shapes(["SH7"])
            try FileManager.default.removeItem(at: directory.appendingPathComponent("shapes.txt"))
            #expect(try feed.shapes(["SH7"]) == shape && shape["SH7"]?.isEmpty == false)
        }
    }

    @Test func theMemoryForgetsEverythingPastItsBound() {
        func trip(_ id: String, calls: Int) -> [String: [GTFSStopTime]] {
            [id: (0..<calls).map { GTFSStopTime(tripID: id, sequence: $0, stopID: "S", arrival: nil, departure: nil, distanceTravelled: nil) }]
        }
        var memory = RowMemory<GTFSStopTime>()
        memory.remember(trip("A", calls: RowMemory<GTFSStopTime>.maxRows - 10))
        #expect(memory.rows(of: ["A"]) != nil)
        memory.remember(trip("B", calls: 20))
        #expect(memory.rows(of: ["A"]) == nil && memory.rows(of: ["B"]) != nil)
        memory.remember(trip("C", calls: RowMemory<GTFSStopTime>.maxRows + 1))
        #expect(memory.rows(of: ["C"]) == nil, "a trip larger than the whole bound is not kept")
    }
}
