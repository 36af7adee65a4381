import GTFS
import MapGeometry
import MapRender
import Wording

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
                casing: first.line.textColour, label: Phrase(.lineBeforeYourStop, first.line.name, .text(first.headsign))
            ))
            for call in first.path.calls[..<first.boardIndex] where call.distance >= start {
                stops.append(passed(call))
            }
        }
        for (index, leg) in legs.enumerated() {
            let calls = leg.path.calls
            lines.append(TransitMap.Line(
                kind: .ride, path: leg.path.path(from: calls[leg.boardIndex].distance, to: calls[leg.alightIndex].distance),
                colour: leg.line.colour, casing: leg.line.textColour, label: Phrase(.lineTowards, leg.line.name, .text(leg.headsign))
            ))
            let passedEnd = isDeparture ? leg.alightIndex + 1 : leg.alightIndex
            for call in calls[(leg.boardIndex + 1)..<passedEnd] {
                stops.append(passed(call))
            }
            let board = calls[leg.boardIndex]
            if index == 0 {
                let label = Phrase(isDeparture ? .stopYours : .stopBoard, .text(board.stop.name), leg.line.name, .clock(seconds: board.departure.seconds))
                stops.append(TransitMap.Stop(role: .start, coordinate: board.stop.coordinate, name: board.stop.name, label: label))
            } else {
                let previous = legs[index - 1], arrival = previous.path.calls[previous.alightIndex]
                let transfer = Phrase(.transferTo, leg.line.name, .clock(seconds: board.departure.seconds))
                if arrival.stop.id != board.stop.id {
                    stops.append(TransitMap.Stop(
                        role: .transfer, coordinate: arrival.stop.coordinate, name: arrival.stop.name,
                        label: Phrase(.stopAlightToTransfer, .text(arrival.stop.name), previous.line.name, transfer, .text(board.stop.name))
                    ))
                }
                stops.append(TransitMap.Stop(
                    role: .transfer, coordinate: board.stop.coordinate, name: board.stop.name, label: Phrase(.stopTransfer, .text(board.stop.name), transfer)
                ))
            }
        }
        if !isDeparture, let last = legs.last {
            let alight = last.path.calls[last.alightIndex]
            stops.append(TransitMap.Stop(
                role: .end, coordinate: alight.stop.coordinate, name: alight.stop.name,
                label: Phrase(.stopAlight, .text(alight.stop.name), last.line.name, .clock(seconds: alight.arrival.seconds))
            ))
        }
        guard let followed else { return TransitMap(lines: lines, stops: stops, vehicle: nil, sentence: nil) }
        let leg = legs[followed.leg]
        let vehicle = TransitMap.Vehicle(
            coordinate: followed.coordinate, name: leg.line.iconText, colour: leg.line.colour, textColour: leg.line.textColour,
            label: Phrase(.vehicle, leg.line.name, .text(leg.headsign), whereabouts(followed.place, on: leg))
        )
        return TransitMap(lines: lines, stops: stops, vehicle: vehicle, sentence: sentence(followed.place, on: leg))
    }

    /// A stop passed on the way, with its time: "Vasaplatsen, 08:36".
    private func passed(_ call: TripPath.Call) -> TransitMap.Stop {
        TransitMap.Stop(
            role: .passed, coordinate: call.stop.coordinate, name: call.stop.name,
            label: Phrase(.stopPassed, .text(call.stop.name), .clock(seconds: call.arrival.seconds))
        )
    }

    /// "between Järntorget and Vasaplatsen", "at Järntorget", "waiting at Angered".
    private func whereabouts(_ place: VehiclePlace, on leg: PlacedLeg) -> Phrase {
        let calls = leg.path.calls
        func stop(_ index: Int) -> Phrase { .text(calls[index].stop.name) }
        switch place {
        case .waiting(let index): return Phrase(.vehicleWaitingAt, stop(index))
        case .at(let index): return Phrase(.vehicleAt, stop(index))
        case .between(let from, let to): return Phrase(.vehicleBetween, stop(from), stop(to))
        case .finished: return Phrase(.vehicleAtEnd, stop(calls.count - 1))
        }
    }

    /// Where the vehicle is and when it reaches your stop: the boarding stop until it gets
    /// there, then (on a leg you ride) the stop where you alight. "Tram 7 is between
    /// Järntorget and Vasaplatsen, 2 stops before yours. It arrives at 08:45."
    private func sentence(_ place: VehiclePlace, on leg: PlacedLeg) -> Phrase {
        let calls = leg.path.calls, name = leg.line.name
        func stop(_ index: Int) -> Phrase { .text(calls[index].stop.name) }
        guard let next = place.nextCall else {
            return Phrase(.vehicleReachedEnd, name, stop(calls.count - 1))
        }
        let target = next <= leg.boardIndex || isDeparture ? leg.boardIndex : leg.alightIndex
        let yours = calls[target], leaves = Phrase.clock(seconds: yours.departure.seconds)
        guard next <= target else {
            return Phrase(.vehiclePassedYourStop, name, stop(target))
        }
        /// The stops still to reach before yours; nil when the next stop is yours.
        let stopsBefore: Int?
        let whereabouts: Phrase
        switch place {
        case .waiting(let index):
            if index == target { return Phrase(.vehicleNotLeftYourStop, name, stop(target), leaves) }
            whereabouts = Phrase(.vehicleNotLeft, name, stop(index))
            stopsBefore = target - index - 1
        case .at(let index):
            if index == target {
                return target == leg.boardIndex
                    ? Phrase(.vehicleAtYourStop, name, stop(target), leaves)
                    : Phrase(.vehicleAtYourStopToAlight, name, stop(target))
            }
            whereabouts = Phrase(.vehicleIsAt, name, stop(index))
            stopsBefore = target - index - 1
        case .between(let from, let to):
            whereabouts = to == target
                ? Phrase(.vehicleBetweenYourStop, name, stop(from), stop(target))
                : Phrase(.vehicleIsBetween, name, stop(from), stop(to))
            stopsBefore = to == target ? nil : target - to
        case .finished:
            return .text("")
        }
        let arrives = Phrase.clock(seconds: yours.arrival.seconds)
        return switch stopsBefore {
        case nil: Phrase(.arrives, whereabouts, arrives)
        case 0?: Phrase(.arrivesAtStopBefore, whereabouts, arrives)
        case let stops?: Phrase(.arrivesAfterStops, whereabouts, .count(stops), arrives)
        }
    }
}
