import GTFS

/// A trip's timetable as a GTFS-realtime TripUpdate predicts it: each call's predicted arrival
/// and departure, in seconds since 1970, where the update reaches it, and the calls it skips.
///
/// As the GTFS-realtime reference says, a stop's delay holds for the stops after it until the
/// next update; the stops before the first update take the trip's own delay, when it gives one;
/// an update with no data ends what the stops before it said.
struct TripPrediction: Hashable, Sendable {
    struct Call: Hashable, Sendable {
        var arrival: Int?
        var departure: Int?
        var skipped = false
    }

    /// One per call of the trip, in order.
    let calls: [Call]
    let isCancelled: Bool

    /// `scheduled` are the trip's calls (`stop_sequence`, `stop_id` and times of the service day
    /// starting at `dayStart`, seconds since 1970).
    init(update: RealtimeTripUpdate, scheduled: [(sequence: Int, stopID: String, arrival: GTFSTime, departure: GTFSTime)], dayStart: Int) {
        isCancelled = update.trip.isCancelled
        // Each update's call: by stop_sequence, else the next call at its stop_id. An update
        // about a stop the trip does not call at is passed over.
        var updates: [Int: RealtimeTripUpdate.StopUpdate] = [:]
        var searchFrom = 0
        for stop in update.stops {
            let index = stop.sequence.map { sequence in scheduled.firstIndex { $0.sequence == sequence } }
                ?? scheduled[min(searchFrom, scheduled.count)...].firstIndex { $0.stopID == stop.stopID }
            guard let index else { continue }
            updates[index] = stop
            searchFrom = index + 1
        }
        var delay = update.delay
        var predicted: [Call] = []
        for (index, call) in scheduled.enumerated() {
            let arrival = dayStart + call.arrival.seconds, departure = dayStart + call.departure.seconds
            guard let stop = updates[index] else {
                predicted.append(Call(arrival: delay.map { arrival + $0 }, departure: delay.map { departure + $0 }))
                continue
            }
            switch stop.relationship {
            case .noData:
                delay = nil
                predicted.append(Call())
                continue
            case .skipped:
                predicted.append(Call(arrival: delay.map { arrival + $0 }, departure: delay.map { departure + $0 }, skipped: true))
                continue
            case .scheduled, .unscheduled:
                break
            }
            // An absolute time, when given, wins over a delay; a departure left out leaves no
            // earlier than the arrival's delay allows.
            let arrivalTime = stop.arrival.flatMap { $0.time ?? $0.delay.map { arrival + $0 } }
            let arrivalDelay = arrivalTime.map { $0 - arrival } ?? delay
            let departureTime = stop.departure.flatMap { $0.time ?? $0.delay.map { departure + $0 } }
                ?? arrivalDelay.map { max(departure + $0, arrivalTime ?? .min) }
            delay = departureTime.map { $0 - departure } ?? arrivalDelay
            predicted.append(Call(arrival: arrivalTime ?? arrivalDelay.map { arrival + $0 }, departure: departureTime))
        }
        calls = predicted
    }
}
