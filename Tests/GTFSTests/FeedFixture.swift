import Foundation
import GTFS
import MapFrameTestSupport

/// Runs `body` with `feed` written as a folder and opened, in a temporary directory removed after.
func withOpenedFeed<T>(_ feed: TestGTFSFeed, _ body: (GTFSFeed) throws -> T) throws -> T {
    try withTemporaryDirectory { directory in
        try feed.write(to: directory)
        return try body(GTFSFeed.open(at: directory))
    }
}

/// What reading `feed` as a journey would fails with: opening it, then reading the stop times of
/// `trips` and their shapes. Nil when all of that succeeds.
func readingError(_ feed: TestGTFSFeed, trips: Set<String> = []) throws -> String? {
    try withTemporaryDirectory { directory in
        try feed.write(to: directory)
        return readingError(at: directory, trips: trips)
    }
}

/// What reading the feed at `url` fails with, as `readingError(_:trips:)`.
func readingError(at url: URL, trips: Set<String> = []) -> String? {
    do throws(GTFSError) {
        let opened = try GTFSFeed.open(at: url)
        _ = try opened.stopTimes(ofTrips: trips)
        _ = try opened.shapes(Set(trips.compactMap { opened.trips[$0]?.shapeID }))
        return nil
    } catch {
        return error.description
    }
}
