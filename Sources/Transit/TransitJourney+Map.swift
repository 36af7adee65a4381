import GTFS
import MapGeometry
import MapRender

extension TransitJourney {
    /// The journey as drawn with the followed vehicle where `report` puts it (nil: no vehicle).
    ///
    /// The first leg's trip runs grey up to the boarding stop, from where its vehicle is when
    /// that vehicle is the one followed and has not yet reached the stop, else from the trip's
    /// first stop. Each leg runs in its line's colour between its stops. Every stop passed on
    /// the way has a dot; the first boarding stop is the start node, the last alighting stop
    /// the end node (none in the departures view, which rides to the end of the line), and
    /// the stops where legs meet are transfer nodes.
    public func map(vehicle report: VehicleReport?) -> TransitMap {
        // The followed vehicle: its place among the calls, where its icon stands, and how far
        // along its trip's path that is.
        let followed = followedLeg.flatMap { index -> (leg: Int, place: VehiclePlace, coordinate: Coordinate, distance: Double)? in
            let path = legs[index].path
            switch report {
            case .scheduled(let time)?:
                let place = VehiclePlace(scheduledAt: time, on: path)
                let distance = place.distance(on: path)
                return (index, place, path.point(at: distance), distance)
            case .realtime(let vehicle)?:
                let reported = vehicle.coordinate.map(path.distance(nearest:))
                guard let place = VehiclePlace(reported: vehicle, distance: reported, on: path) else { return nil }
                let distance = reported ?? place.distance(on: path)
                return (index, place, vehicle.coordinate ?? path.point(at: distance), distance)
            case nil:
                return nil
            }
        }
        var lines: [TransitMap.Line] = []
        var stops: [TransitMap.Stop] = []
        let first = legs[0]
        let boardDistance = first.path.calls[first.boardIndex].distance
        var approachStart: Double? = 0
        if let followed, followed.leg == 0 {
            approachStart = (followed.place.nextCall ?? .max) <= first.boardIndex ? followed.distance : nil
        }
        if let start = approachStart, start < boardDistance {
            lines.append(TransitMap.Line(
                kind: .approach, path: first.path.path(from: start, to: boardDistance), colour: first.line.colour,
                casing: first.line.textColour, label: "\(first.line.name) towards \(first.headsign), before your stop"
            ))
            for call in first.path.calls[..<first.boardIndex] where call.distance >= start {
                stops.append(TransitMap.Stop(role: .passed, coordinate: call.stop.coordinate, label: "\(call.stop.name), \(call.arrival.clock)"))
            }
        }
        for (index, leg) in legs.enumerated() {
            let calls = leg.path.calls
            lines.append(TransitMap.Line(
                kind: .ride, path: leg.path.path(from: calls[leg.boardIndex].distance, to: calls[leg.alightIndex].distance),
                colour: leg.line.colour, casing: leg.line.textColour, label: "\(leg.line.name) towards \(leg.headsign)"
            ))
            let passedEnd = isDeparture ? leg.alightIndex + 1 : leg.alightIndex
            for call in calls[(leg.boardIndex + 1)..<passedEnd] {
                stops.append(TransitMap.Stop(role: .passed, coordinate: call.stop.coordinate, label: "\(call.stop.name), \(call.arrival.clock)"))
            }
            let board = calls[leg.boardIndex]
            if index == 0 {
                let label = isDeparture
                    ? "\(board.stop.name), your stop, \(leg.line.nameInSentence) at \(board.departure.clock)"
                    : "\(board.stop.name), board \(leg.line.nameInSentence) at \(board.departure.clock)"
                stops.append(TransitMap.Stop(role: .start, coordinate: board.stop.coordinate, label: label))
            } else {
                let previous = legs[index - 1], arrival = previous.path.calls[previous.alightIndex]
                let transfer = "transfer to \(leg.line.nameInSentence) at \(board.departure.clock)"
                if arrival.stop.id != board.stop.id {
                    stops.append(TransitMap.Stop(
                        role: .transfer, coordinate: arrival.stop.coordinate,
                        label: "\(arrival.stop.name), alight from \(previous.line.nameInSentence) to \(transfer) from \(board.stop.name)"
                    ))
                }
                stops.append(TransitMap.Stop(role: .transfer, coordinate: board.stop.coordinate, label: "\(board.stop.name), \(transfer)"))
            }
        }
        if !isDeparture, let last = legs.last {
            let alight = last.path.calls[last.alightIndex]
            stops.append(TransitMap.Stop(
                role: .end, coordinate: alight.stop.coordinate,
                label: "\(alight.stop.name), alight from \(last.line.nameInSentence) at \(alight.arrival.clock)"
            ))
        }
        guard let followed else { return TransitMap(lines: lines, stops: stops, vehicle: nil, sentence: nil) }
        let leg = legs[followed.leg]
        let vehicle = TransitMap.Vehicle(
            coordinate: followed.coordinate, name: leg.line.iconText, colour: leg.line.colour, textColour: leg.line.textColour,
            label: "\(leg.line.name) towards \(leg.headsign), \(whereabouts(followed.place, on: leg))"
        )
        return TransitMap(lines: lines, stops: stops, vehicle: vehicle, sentence: sentence(followed.place, on: leg))
    }

    /// "between Järntorget and Vasaplatsen", "at Järntorget", "waiting at Angered".
    private func whereabouts(_ place: VehiclePlace, on leg: PlacedLeg) -> String {
        let calls = leg.path.calls
        switch place {
        case .waiting(let index): return "waiting at \(calls[index].stop.name)"
        case .at(let index): return "at \(calls[index].stop.name)"
        case .between(let from, let to): return "between \(calls[from].stop.name) and \(calls[to].stop.name)"
        case .finished: return "at \(calls[calls.count - 1].stop.name), the end of its trip"
        }
    }

    /// Where the vehicle is and when it reaches your stop: the boarding stop until it gets
    /// there, then (on a leg you ride) the stop where you alight. "Tram 7 is between
    /// Järntorget and Vasaplatsen, 2 stops before yours. It arrives at 08:45."
    private func sentence(_ place: VehiclePlace, on leg: PlacedLeg) -> String {
        let calls = leg.path.calls, name = leg.line.name
        guard let next = place.nextCall else {
            return "\(name) has reached the end of its trip at \(calls[calls.count - 1].stop.name)."
        }
        let target = next <= leg.boardIndex || isDeparture ? leg.boardIndex : leg.alightIndex
        let yours = calls[target]
        guard next <= target else {
            return "\(name) has passed your stop, \(yours.stop.name)."
        }
        /// The stops still to reach before yours; nil when the next stop is yours.
        let stopsBefore: Int?
        let whereabouts: String
        switch place {
        case .waiting(let index):
            if index == target { return "\(name) has not yet left your stop, \(yours.stop.name). It leaves at \(yours.departure.clock)." }
            whereabouts = "\(name) has not yet left \(calls[index].stop.name)"
            stopsBefore = target - index - 1
        case .at(let index):
            if index == target {
                return target == leg.boardIndex
                    ? "\(name) is at your stop, \(yours.stop.name). It leaves at \(yours.departure.clock)."
                    : "\(name) is at your stop, \(yours.stop.name), where you alight."
            }
            whereabouts = "\(name) is at \(calls[index].stop.name)"
            stopsBefore = target - index - 1
        case .between(let from, let to):
            whereabouts = to == target
                ? "\(name) is between \(calls[from].stop.name) and your stop, \(yours.stop.name)"
                : "\(name) is between \(calls[from].stop.name) and \(calls[to].stop.name)"
            stopsBefore = to == target ? nil : target - to
        case .finished:
            return ""
        }
        let count = switch stopsBefore {
        case nil: ""
        case 0?: ", the stop before yours"
        case 1?: ", 1 stop before yours"
        case let stops?: ", \(stops) stops before yours"
        }
        return "\(whereabouts)\(count). It arrives at \(yours.arrival.clock)."
    }
}
