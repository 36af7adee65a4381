import GTFS
import MapGeometry
import MapRender
import Wording

extension TransitJourney {
    /// The time of the followed trip's service day at `moment` (seconds since 1970), when a
    /// realtime file has placed that day; nil otherwise.
    public func serviceTime(at moment: Int) -> GTFSTime? {
        guard let followedLeg, let live = legs[followedLeg].live else { return nil }
        return GTFSTime(seconds: moment - live.dayStart)
    }

    /// The journey as drawn with the followed vehicle where `report` puts it (nil: no vehicle),
    /// and the disturbances in force at `moment` (seconds since 1970; nil: every one the
    /// realtime files hold about the journey).
    ///
    /// The first leg's trip runs grey up to the boarding stop, from where its vehicle is when
    /// that vehicle is the one followed and has not yet reached the stop, else from the trip's
    /// first stop. Each leg runs in its line's colour between its stops, dashed where the trip's
    /// shape falls short and the line is estimated from stop to stop. Every stop passed on the
    /// way has a dot; the first boarding stop is the start node, the last alighting stop the end
    /// node (none in the departures view, which rides to the end of the line), and the stops
    /// where legs meet are transfer nodes. Times are the realtime predictions where a TripUpdate
    /// gives them.
    public func map(vehicle report: VehicleReport?, alertsAt moment: Int? = nil) -> TransitMap {
        let followed = followedLeg.flatMap { index -> (leg: Int, place: VehiclePlace, coordinate: Coordinate, distance: Double)? in
            let leg = legs[index], path = leg.timedPath
            guard leg.live?.prediction.isCancelled != true else { return nil }
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
            let label = Phrase(.lineBeforeYourStop, first.line.name, .text(first.headsign))
            for piece in first.path.pieces(from: start, to: boardDistance) {
                lines.append(TransitMap.Line(
                    kind: .approach, path: piece.path, colour: first.line.colour, casing: first.line.textColour,
                    label: piece.isEstimated ? TransitWording.estimated(label) : label, isEstimated: piece.isEstimated
                ))
            }
            for index in 0..<first.boardIndex where first.path.calls[index].distance >= start {
                stops.append(passed(index, on: first))
            }
        }
        for (index, leg) in legs.enumerated() {
            let calls = leg.timedPath.calls
            let label = Phrase(.lineTowards, leg.line.name, .text(leg.headsign))
            for piece in leg.path.pieces(from: calls[leg.boardIndex].distance, to: calls[leg.alightIndex].distance) {
                lines.append(TransitMap.Line(
                    kind: .ride, path: piece.path, colour: leg.line.colour, casing: leg.line.textColour,
                    label: piece.isEstimated ? TransitWording.estimated(label) : label, isEstimated: piece.isEstimated
                ))
            }
            let passedEnd = isDeparture ? leg.alightIndex + 1 : leg.alightIndex
            for call in (leg.boardIndex + 1)..<passedEnd {
                stops.append(passed(call, on: leg))
            }
            let board = calls[leg.boardIndex]
            if index == 0 {
                let label = Phrase(isDeparture ? .stopYours : .stopBoard, .text(board.stop.name), leg.line.name, .clock(seconds: board.departure.seconds))
                stops.append(TransitMap.Stop(role: .start, coordinate: board.stop.coordinate, name: board.stop.name, label: label))
            } else {
                let previous = legs[index - 1], arrival = previous.timedPath.calls[previous.alightIndex]
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
            let alight = last.timedPath.calls[last.alightIndex]
            stops.append(TransitMap.Stop(
                role: .end, coordinate: alight.stop.coordinate, name: alight.stop.name,
                label: Phrase(.stopAlight, .text(alight.stop.name), last.line.name, .clock(seconds: alight.arrival.seconds))
            ))
        }
        let notices = notices(at: moment)
        if let cancelled = followedLeg.map({ legs[$0] }), cancelled.live?.prediction.isCancelled == true {
            return TransitMap(
                lines: lines, stops: stops, vehicle: nil, sentence: TransitWording.cancelled(line: cancelled.line.name, headsign: cancelled.headsign), notices: notices
            )
        }
        guard let followed else { return TransitMap(lines: lines, stops: stops, vehicle: nil, sentence: nil, notices: notices) }
        let leg = legs[followed.leg]
        var label = Phrase(.vehicle, leg.line.name, .text(leg.headsign), whereabouts(followed.place, on: leg))
        if leg.isAdded { label = TransitWording.extraTrip(label) }
        if case .realtime(let vehicle)? = report, vehicle.tripID != leg.path.trip.id {
            label = TransitWording.matchedByRoute(label, reportedTrip: vehicle.tripID)
        }
        let vehicle = TransitMap.Vehicle(coordinate: followed.coordinate, name: leg.line.iconText, colour: leg.line.colour, textColour: leg.line.textColour, label: label)
        return TransitMap(lines: lines, stops: stops, vehicle: vehicle, sentence: sentence(followed.place, on: leg), notices: notices)
    }

    /// A stop passed on the way: "Newmarket Road, 08:32", with the predicted time where realtime
    /// gives one, and "skipped" where the vehicle does not call.
    private func passed(_ index: Int, on leg: PlacedLeg) -> TransitMap.Stop {
        let call = leg.timedPath.calls[index]
        let label = leg.live?.prediction.calls[safe: index]?.skipped == true
            ? TransitWording.skippedStop(call.stop.name)
            : Phrase(.stopPassed, .text(call.stop.name), .clock(seconds: call.arrival.seconds))
        return TransitMap.Stop(role: .passed, coordinate: call.stop.coordinate, name: call.stop.name, label: label)
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

    /// Where the vehicle is, how late or early it runs when realtime says, and when it reaches
    /// your stop: the boarding stop until it gets there, then (on a leg you ride) the stop where
    /// you alight. "Tram 7 is 3 minutes late, between Järntorget and Vasaplatsen, 2 stops before
    /// yours. It arrives at 08:48."
    private func sentence(_ place: VehiclePlace, on leg: PlacedLeg) -> Phrase {
        let calls = leg.timedPath.calls, name = leg.line.name
        func stop(_ index: Int) -> Phrase { .text(calls[index].stop.name) }
        guard let next = place.nextCall else {
            return Phrase(.vehicleReachedEnd, name, stop(calls.count - 1))
        }
        let target = next <= leg.boardIndex || isDeparture ? leg.boardIndex : leg.alightIndex
        let yours = calls[target], leaves = Phrase.clock(seconds: yours.departure.seconds)
        guard next <= target else {
            return Phrase(.vehiclePassedYourStop, name, stop(target))
        }
        if leg.live?.prediction.calls[safe: target]?.skipped == true {
            return TransitWording.skipsYourStop(line: name, stop: yours.stop.name)
        }
        /// How late or early it runs, when realtime says: "3 minutes late".
        let delay = leg.isAdded ? nil : leg.live?.delay(at: next, on: leg.path).map(TransitWording.delay(seconds:))
        /// The stops still to reach before yours; nil when the next stop is yours.
        let stopsBefore: Int?
        let whereabouts: Phrase
        switch place {
        case .waiting(let index):
            if index == target {
                return delay.map { Phrase(.vehicleLateNotLeftYourStop, name, $0, stop(target), leaves) }
                    ?? Phrase(.vehicleNotLeftYourStop, name, stop(target), leaves)
            }
            whereabouts = delay.map { Phrase(.vehicleLateNotLeft, name, $0, stop(index)) } ?? Phrase(.vehicleNotLeft, name, stop(index))
            stopsBefore = target - index - 1
        case .at(let index):
            if index == target {
                return target == leg.boardIndex
                    ? delay.map { Phrase(.vehicleLateAtYourStop, name, $0, stop(target), leaves) } ?? Phrase(.vehicleAtYourStop, name, stop(target), leaves)
                    : delay.map { Phrase(.vehicleLateAtYourStopToAlight, name, $0, stop(target)) } ?? Phrase(.vehicleAtYourStopToAlight, name, stop(target))
            }
            whereabouts = delay.map { Phrase(.vehicleLateIsAt, name, $0, stop(index)) } ?? Phrase(.vehicleIsAt, name, stop(index))
            stopsBefore = target - index - 1
        case .between(let from, let to):
            whereabouts = to == target
                ? delay.map { Phrase(.vehicleLateBetweenYourStop, name, $0, stop(from), stop(target)) } ?? Phrase(.vehicleBetweenYourStop, name, stop(from), stop(target))
                : delay.map { Phrase(.vehicleLateIsBetween, name, $0, stop(from), stop(to)) } ?? Phrase(.vehicleIsBetween, name, stop(from), stop(to))
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

    /// The disturbances in force at `moment` that touch the journey: its routes, trips or the
    /// stops it calls at, or all of its agency's or route type's lines.
    private func notices(at moment: Int?) -> [TransitNotice] {
        let touched = TouchedEntities(
            routes: legs.map(\.route), trips: legs.map { ($0.path.trip.id, $0.route.id) },
            stops: legs.flatMap { leg in leg.path.calls[leg.boardIndex...leg.alightIndex].map(\.stop.id) }
        )
        let lines = Dictionary(legs.map { ($0.route.id, $0.line) }, uniquingKeysWith: { first, _ in first })
        return touched.notices(alerts, at: moment, lines: lines)
    }
}

/// The routes, trips and stops a frame draws, against which disturbances are filtered: an alert
/// is shown when one of its informed entities names only things drawn (every field an
/// EntitySelector gives narrows it), and left out otherwise, as Västtrafik's app filtered its 40
/// messages down to the few that concerned the traveller.
struct TouchedEntities {
    let routes: [GTFSRoute]
    /// The route of each trip drawn, by `trip_id`.
    let trips: [String: String]
    let stops: Set<String>

    init(routes: [GTFSRoute], trips: [(trip: String, route: String)], stops: [String]) {
        self.routes = routes
        self.trips = Dictionary(trips, uniquingKeysWith: { first, _ in first })
        self.stops = Set(stops)
    }

    /// The routes `selector` picks among those drawn: a trip's own route for a selector that
    /// names a trip, every one of them for a selector that names only a stop drawn.
    func routes(touchedBy selector: RealtimeAlert.Selector) -> [GTFSRoute]? {
        var tripRoute: String?
        if let trip = selector.tripID {
            guard let route = trips[trip] else { return nil }
            tripRoute = route
        }
        if let stop = selector.stopID, !stops.contains(stop) { return nil }
        let picked = routes.filter { route in
            (tripRoute.map { $0 == route.id } ?? true) && (selector.routeID.map { $0 == route.id } ?? true) && (selector.routeType.map { $0 == route.type } ?? true)
                && (selector.agencyID.map { $0 == (route.agencyID ?? $0) } ?? true)
        }
        guard !picked.isEmpty else { return nil }
        let namesLines = selector.routeID != nil || selector.routeType != nil || selector.agencyID != nil || selector.tripID != nil
        return namesLines ? picked : []
    }

    /// The banners of the alerts in force at `moment` that touch what is drawn, in the files'
    /// order, each with the icons of the lines it touches.
    func notices(_ alerts: [RealtimeAlert], at moment: Int?, lines known: [String: TransitLine]) -> [TransitNotice] {
        var notices: [TransitNotice] = []
        for alert in alerts where moment.map(alert.isActive(at:)) ?? true {
            let touched = alert.informed.compactMap(routes(touchedBy:))
            guard !touched.isEmpty else { continue }
            var seen: Set<String> = []
            let lines = touched.flatMap { $0 }.filter { seen.insert($0.id).inserted }.compactMap { known[$0.id] }
            notices.append(TransitNotice(
                lines: lines.map(\.badge), text: alert.header, label: TransitWording.disturbance(lines: lines.map(\.name), header: alert.header)
            ))
        }
        return notices
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
