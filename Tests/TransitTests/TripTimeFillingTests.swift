@testable import GTFS
import Testing
@testable import Transit

/// Untimed stop times are filled in linear time: a trip that times only its ends cannot hold a
/// thread for long, however many stops it calls at.
@Suite struct TripTimeFillingTests {
    /// A trip of `count` calls, 10 m apart, timed only at its first (08:00) and last (09:00).
    private static func untimedTrip(_ count: Int) -> (stopTimes: [GTFSStopTime], distances: [Double]) {
        let stopTimes = (0..<count).map { index in
            let time = index == 0 ? GTFSTime(seconds: 8 * 3600) : index == count - 1 ? GTFSTime(seconds: 9 * 3600) : nil
            return GTFSStopTime(tripID: "long", sequence: index, stopID: "S\(index)", arrival: time, departure: time, distanceTravelled: nil)
        }
        return (stopTimes, (0..<count).map { Double($0) * 10 })
    }

    @Test func aMillionUntimedStopsAreFilledInUnderTwoSeconds() throws {
        let trip = Self.untimedTrip(1_000_000)
        let started = ContinuousClock.now
        let times = try TripPath.fillTimes(trip.stopTimes, distances: trip.distances, trip: "long")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(2), "filling took \(elapsed)")
        // Interpolated by distance: the call halfway along is at 08:30.
        #expect(times.count == 1_000_000)
        #expect(times[500_000].arrival == GTFSTime(seconds: 8 * 3600 + 1800))
        #expect(times[999_999].departure == GTFSTime(seconds: 9 * 3600))
    }
}
