import GTFS
import MapGeometry

/// What is known of the followed vehicle: its timetable at a moment, or a GTFS-realtime report.
public enum VehicleReport: Hashable, Sendable {
    /// Where the timetable puts it at this time of the service day.
    case scheduled(GTFSTime)
    /// Where a GTFS-realtime VehiclePositions feed says it is.
    case realtime(RealtimeVehicle)
}

/// Where a vehicle is along its trip, by its calls' indices.
enum VehiclePlace: Hashable, Sendable {
    /// Not yet left call `index` (the trip's first, by the timetable).
    case waiting(Int)
    /// Standing at call `index`.
    case at(Int)
    /// Left call `from`, not yet at call `to` (`from + 1`).
    case between(from: Int, to: Int)
    /// Past its last call.
    case finished

    /// The timetable's answer, as Västtrafik's app estimated it: at a stop between its arrival
    /// and departure, otherwise between the previous and the next stop. A time before the
    /// trip's first call that fits the trip a day later (a trip past midnight, asked about at
    /// 00:20 rather than 24:20) is taken a day later.
    init(scheduledAt time: GTFSTime, on path: TripPath) {
        let calls = path.calls
        var seconds = time.seconds
        if seconds < calls[0].arrival.seconds, seconds + 86_400 <= calls[calls.count - 1].departure.seconds {
            seconds += 86_400
        }
        guard seconds >= calls[0].arrival.seconds else {
            self = .waiting(0)
            return
        }
        for index in calls.indices {
            if seconds <= calls[index].departure.seconds {
                self = seconds >= calls[index].arrival.seconds ? .at(index) : .between(from: index - 1, to: index)
                return
            }
        }
        self = .finished
    }

    /// A realtime report's answer: its stop (by sequence, else by stop id) and status, or, when
    /// it names no stop, where its position lies along the trip (`distance`, the metres along the
    /// path nearest its coordinate); nil when it gives neither.
    init?(reported vehicle: RealtimeVehicle, distance: Double?, on path: TripPath) {
        let calls = path.calls
        let named = vehicle.currentStopSequence.flatMap { sequence in calls.firstIndex { $0.sequence == sequence } }
            ?? vehicle.stopID.flatMap { id in calls.firstIndex { $0.stop.id == id } }
        if let index = named {
            if vehicle.status == .stoppedAt {
                self = .at(index)
            } else {
                self = index == 0 ? .waiting(0) : .between(from: index - 1, to: index)
            }
            return
        }
        guard let distance else { return nil }
        let passed = calls.lastIndex { $0.distance <= distance } ?? 0
        if distance - calls[passed].distance <= TripPath.sameStopTolerance {
            self = passed == calls.count - 1 ? .finished : .at(passed)
        } else {
            self = passed == calls.count - 1 ? .finished : .between(from: passed, to: passed + 1)
        }
    }

    /// The next call the vehicle reaches, or the one it stands at; nil once it has finished.
    var nextCall: Int? {
        switch self {
        case .waiting(let index), .at(let index): index
        case .between(_, let to): to
        case .finished: nil
        }
    }

    /// How far along the path it is drawn: at its stop, or halfway between two.
    func distance(on path: TripPath) -> Double {
        switch self {
        case .waiting(let index), .at(let index): path.calls[index].distance
        case .between(let from, let to): (path.calls[from].distance + path.calls[to].distance) / 2
        case .finished: path.calls[path.calls.count - 1].distance
        }
    }
}
