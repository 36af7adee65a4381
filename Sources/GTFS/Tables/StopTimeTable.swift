/// `stop_times.txt`: every call of every trip at a stop, millions of rows in a large feed. One
/// pass checks every row and keeps only the trips asked for.
enum StopTimeTable {
    /// A kept row and the line it came from, for errors about the trip as a whole.
    private struct Call {
        var stopTime: GTFSStopTime
        var line: Int
    }

    /// Where the columns are.
    struct Columns {
        let trip, arrival, departure, stop, sequence: Column
        let distance, pickup: Column?

        init(_ header: TableHeader) throws(GTFSError) {
            trip = try header.required("trip_id")
            arrival = try header.required("arrival_time")
            departure = try header.required("departure_time")
            stop = try header.required("stop_id")
            sequence = try header.required("stop_sequence")
            distance = header.optional("shape_dist_traveled")
            pickup = header.optional("pickup_type")
        }
    }

    /// Reads the rows of `table` one at a time, checking every one: its format, and that its trip
    /// and stop exist. `visit` gets each row's call; a time given alone is both the arrival and
    /// the departure.
    static func forEachCall(
        _ table: inout TableReader, trips: [String: GTFSTrip], stops: StopTable.Stops, _ visit: (GTFSStopTime, TableRow) throws(GTFSError) -> Void
    ) throws(GTFSError) {
        let columns = try Columns(table.header)
        while let row = try table.next() {
            let tripID = try row.required(columns.trip)
            // index(forKey:) rather than a lookup, which would copy the trip, a million times.
            guard trips.index(forKey: tripID) != nil else {
                throw row.error(columns.trip, "\(row.quoted(tripID)) is not in trips.txt; allowed the trip_id of a row of trips.txt")
            }
            let stopID = try row.required(columns.stop)
            if let type = stops.otherLocationTypes[stopID] {
                throw row.error(
                    columns.stop, "\(row.quoted(stopID)) is \(StopTable.locationTypeNames[type]!) (location_type \(type)); allowed a stop or platform (location_type 0)"
                )
            }
            guard stops.located.index(forKey: stopID) != nil else {
                throw row.error(columns.stop, "\(row.quoted(stopID)) is not in stops.txt; allowed the stop_id of a row of stops.txt")
            }
            guard let sequenceNumber = try row.integer(columns.sequence, in: 0...Int.max) else { throw row.error(columns.sequence, "is empty; a value is required") }
            let arrivalTime = try row.time(columns.arrival)
            let departureTime = try row.time(columns.departure)
            if let arrivalTime, let departureTime, departureTime < arrivalTime {
                throw row.error(columns.departure, "\(departureTime) is before the arrival_time \(arrivalTime); allowed \(arrivalTime) or later")
            }
            let distanceTravelled = try row.number(columns.distance, in: 0...Double.infinity)
            let pickup = try row.integer(columns.pickup, in: 0...3) ?? 0
            try visit(GTFSStopTime(
                tripID: tripID, sequence: sequenceNumber, stopID: stopID, arrival: arrivalTime ?? departureTime,
                departure: departureTime ?? arrivalTime, distanceTravelled: distanceTravelled, allowsBoarding: pickup != 1
            ), row)
        }
    }

    static func read(
        _ table: inout TableReader, keeping ids: Set<String>, trips: [String: GTFSTrip], stops: StopTable.Stops
    ) throws(GTFSError) -> [String: [GTFSStopTime]] {
        let file = table.header.file
        var kept: [String: [Call]] = [:]
        try forEachCall(&table, trips: trips, stops: stops) { stopTime, row throws(GTFSError) in
            guard ids.contains(stopTime.tripID) else { return }
            kept[stopTime.tripID, default: []].append(Call(stopTime: stopTime, line: row.line))
        }
        var stopTimes: [String: [GTFSStopTime]] = [:]
        for tripID in ids {
            guard let calls = kept[tripID] else {
                let why = trips[tripID] == nil ? "is not in trips.txt" : "has no rows"
                throw GTFSError(file: file, column: "trip_id", message: "the trip \(tripID) \(why); a trip needs at least two stops")
            }
            stopTimes[tripID] = try ordered(calls, file: file)
        }
        return stopTimes
    }

    /// A trip's calls in `stop_sequence` order, each sequence number once, timed at the first and
    /// last stop, and never earlier than the call before.
    private static func ordered(_ calls: [Call], file: String) throws(GTFSError) -> [GTFSStopTime] {
        let calls = calls.sorted { $0.stopTime.sequence < $1.stopTime.sequence }
        let tripID = calls[0].stopTime.tripID
        guard calls.count >= 2 else {
            throw GTFSError(file: file, line: calls[0].line, column: "trip_id", message: "the trip \(tripID) has only this row; a trip needs at least two stops")
        }
        for (call, end) in [(calls[0], "first"), (calls[calls.count - 1], "last")] where call.stopTime.arrival == nil {
            throw GTFSError(
                file: file, line: call.line, column: "arrival_time",
                message: "is empty at the \(end) stop of trip \(tripID); a time is required at a trip's first and last stop"
            )
        }
        var previous: Call?
        var lastTimed = calls[0]
        for call in calls {
            if let previous, previous.stopTime.sequence == call.stopTime.sequence {
                throw GTFSError(
                    file: file, line: call.line, column: "stop_sequence",
                    message: "\(call.stopTime.sequence) is used on line \(previous.line) for the same trip; allowed once per trip"
                )
            }
            if let arrival = call.stopTime.arrival, let before = lastTimed.stopTime.departure {
                guard arrival >= before else {
                    throw GTFSError(
                        file: file, line: call.line, column: "arrival_time",
                        message: "\(arrival) is before the departure \(before) from the stop on line \(lastTimed.line); allowed \(before) or later"
                    )
                }
                lastTimed = call
            }
            previous = call
        }
        return calls.map(\.stopTime)
    }
}
