/// A trip's call at a stop, as a departure board reads it from one pass over `stop_times.txt`,
/// with what it needs of the rest of the trip.
public struct GTFSStopCall: Hashable, Sendable {
    public var stopTime: GTFSStopTime
    /// The departure from the trip's first stop, from which a frequency-based trip's runs count.
    public var tripStart: GTFSTime
    /// The arrival at the trip's last stop. A call with no time of its own lies between the two.
    public var tripEnd: GTFSTime
    /// The `stop_id` of the trip's last stop, whose name stands for a headsign the trip lacks.
    public var lastStopID: String
    /// Whether this is the trip's last call, where it only arrives.
    public var isLast: Bool
}

/// The calls at a set of stops, from one pass over `stop_times.txt` that checks every row and
/// keeps, besides the calls, only each trip's first and last call: a board for the busiest stop
/// of a feed of millions of rows holds its own calls and no more.
enum StopCallTable {
    /// A trip's ends as the pass has seen them so far.
    private struct Ends {
        var firstSequence = Int.max, firstDeparture: GTFSTime?, firstLine = 0
        var lastSequence = Int.min, lastArrival: GTFSTime?, lastStopID = "", lastLine = 0
    }

    static func read(
        _ table: inout TableReader, at stopIDs: Set<String>, ofTrips tripIDs: Set<String>, trips: [String: GTFSTrip], stops: StopTable.Stops
    ) throws(GTFSError) -> [GTFSStopCall] {
        let file = table.header.file
        var ends: [String: Ends] = [:]
        var calls: [GTFSStopTime] = []
        try StopTimeTable.forEachCall(&table, trips: trips, stops: stops) { call, row throws(GTFSError) in
            guard tripIDs.contains(call.tripID) else { return }
            var trip = ends[call.tripID] ?? Ends()
            if call.sequence < trip.firstSequence {
                (trip.firstSequence, trip.firstDeparture, trip.firstLine) = (call.sequence, call.departure, row.line)
            }
            if call.sequence > trip.lastSequence {
                (trip.lastSequence, trip.lastArrival, trip.lastStopID, trip.lastLine) = (call.sequence, call.arrival, call.stopID, row.line)
            }
            ends[call.tripID] = trip
            if stopIDs.contains(call.stopID) { calls.append(call) }
        }
        return try calls.map { call throws(GTFSError) in
            let trip = ends[call.tripID]!
            guard let start = trip.firstDeparture else {
                throw GTFSError(file: file, line: trip.firstLine, column: "departure_time", message: "is empty at the first stop of trip \(call.tripID); a time is required at a trip's first and last stop")
            }
            guard let end = trip.lastArrival else {
                throw GTFSError(file: file, line: trip.lastLine, column: "arrival_time", message: "is empty at the last stop of trip \(call.tripID); a time is required at a trip's first and last stop")
            }
            return GTFSStopCall(stopTime: call, tripStart: start, tripEnd: end, lastStopID: trip.lastStopID, isLast: call.sequence == trip.lastSequence)
        }
    }
}
