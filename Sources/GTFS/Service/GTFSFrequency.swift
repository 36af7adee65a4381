/// One row of `frequencies.txt`: a trip's pattern of stop times repeated every `headway` seconds,
/// its first run leaving its first stop at `start` and the last before `end`.
public struct GTFSFrequency: Hashable, Sendable {
    public var start: GTFSTime
    /// When this headway ends: no run leaves at or after it.
    public var end: GTFSTime
    public var headwaySeconds: Int
    /// `exact_times` 1: the runs leave exactly on the headway, and are timetabled; 0 (the default):
    /// about that often, so a rider is told only roughly when.
    public var exactTimes: Bool

    /// The start times of the runs leaving from `earliest` onwards, at most `limit` of them.
    public func runs(from earliest: Int, limit: Int) -> [GTFSTime] {
        guard limit > 0, end.seconds > start.seconds else { return [] }
        let skipped = earliest <= start.seconds ? 0 : (earliest - start.seconds + headwaySeconds - 1) / headwaySeconds
        var runs: [GTFSTime] = []
        var seconds = start.seconds + skipped * headwaySeconds
        while seconds < end.seconds, runs.count < limit {
            runs.append(GTFSTime(seconds: seconds))
            seconds += headwaySeconds
        }
        return runs
    }
}

/// `frequencies.txt`, read whole when the feed opens.
enum FrequencyTable {
    static func read(_ table: inout TableReader, trips: [String: GTFSTrip]) throws(GTFSError) -> [String: [GTFSFrequency]] {
        let header = table.header
        let trip = try header.required("trip_id")
        let start = try header.required("start_time")
        let end = try header.required("end_time")
        let headway = try header.required("headway_secs")
        let exact = header.optional("exact_times")
        var frequencies: [String: [GTFSFrequency]] = [:]
        while let row = try table.next() {
            let tripID = try row.required(trip)
            guard trips.index(forKey: tripID) != nil else {
                throw row.error(trip, "\(row.quoted(tripID)) is not in trips.txt; allowed the trip_id of a row of trips.txt")
            }
            guard let first = try row.time(start) else { throw row.error(start, "is empty; a time is required") }
            guard let last = try row.time(end) else { throw row.error(end, "is empty; a time is required") }
            guard last > first else { throw row.error(end, "\(last) is not after the start_time \(first); allowed a later time") }
            guard let seconds = try row.integer(headway, in: 1...86_400) else { throw row.error(headway, "is empty; a value is required") }
            let exactTimes = try row.integer(exact, in: 0...1) ?? 0
            let frequency = GTFSFrequency(start: first, end: last, headwaySeconds: seconds, exactTimes: exactTimes == 1)
            if let overlapping = frequencies[tripID]?.first(where: { $0.start < last && first < $0.end }) {
                throw row.error(start, "\(first) to \(last) overlaps \(overlapping.start) to \(overlapping.end) for the same trip; allowed periods that do not overlap")
            }
            frequencies[tripID, default: []].append(frequency)
        }
        return frequencies.mapValues { $0.sorted { $0.start < $1.start } }
    }
}
