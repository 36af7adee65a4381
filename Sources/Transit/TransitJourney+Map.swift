import GTFS
import MapGeometry
import MapRender

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
            let label = "\(first.line.name) towards \(first.headsign), before your stop"
            for piece in first.path.pieces(from: start, to: boardDistance) {
                lines.append(TransitMap.Line(
                    kind: .approach, path: piece.path, colour: first.line.colour, casing: first.line.textColour,
                    label: piece.isEstimated ? TransitWording.estimated(label) : label, isEstimated: piece.isEstimated
                ))
            }
            for index in 0..<first.boardIndex where first.path.calls[index].distance >= start {
                stops.append(TransitMap.Stop(role: .passed, coordinate: first.path.calls[index].stop.coordinate, label: stopLabel(index, on: first)))
            }
        }
        for (index, leg) in legs.enumerated() {
            let calls = leg.timedPath.calls
            let label = "\(leg.line.name) towards \(leg.headsign)"
            for piece in leg.path.pieces(from: calls[leg.boardIndex].distance, to: calls[leg.alightIndex].distance) {
                lines.append(TransitMap.Line(
                    kind: .ride, path: piece.path, colour: leg.line.colour, casing: leg.line.textColour,
                    label: piece.isEstimated ? TransitWording.estimated(label) : label, isEstimated: piece.isEstimated
                ))
            }
            let passedEnd = isDeparture ? leg.alightIndex + 1 : leg.alightIndex
            for call in (leg.boardIndex + 1)..<passedEnd {
                stops.append(TransitMap.Stop(role: .passed, coordinate: calls[call].stop.coordinate, label: stopLabel(call, on: leg)))
            }
            let board = calls[leg.boardIndex]
            if index == 0 {
                let label = isDeparture
                    ? "\(board.stop.name), your stop, \(leg.line.nameInSentence) at \(board.departure.clock)"
                    : "\(board.stop.name), board \(leg.line.nameInSentence) at \(board.departure.clock)"
                stops.append(TransitMap.Stop(role: .start, coordinate: board.stop.coordinate, label: label))
            } else {
                let previous = legs[index - 1], arrival = previous.timedPath.calls[previous.alightIndex]
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
            let alight = last.timedPath.calls[last.alightIndex]
            stops.append(TransitMap.Stop(
                role: .end, coordinate: alight.stop.coordinate,
                label: "\(alight.stop.name), alight from \(last.line.nameInSentence) at \(alight.arrival.clock)"
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
        var label = "\(leg.line.name) towards \(leg.headsign), \(whereabouts(followed.place, on: leg))"
        if leg.isAdded { label = TransitWording.extraTrip(label) }
        if case .realtime(let vehicle)? = report, vehicle.tripID != leg.path.trip.id {
            label = TransitWording.matchedByRoute(label, reportedTrip: vehicle.tripID)
        }
        let vehicle = TransitMap.Vehicle(coordinate: followed.coordinate, name: leg.line.iconText, colour: leg.line.colour, textColour: leg.line.textColour, label: label)
        return TransitMap(lines: lines, stops: stops, vehicle: vehicle, sentence: sentence(followed.place, on: leg), notices: notices)
    }

    /// "Newmarket Road, 08:32", with the predicted time where realtime gives one, and "skipped"
    /// where the vehicle does not call.
    private func stopLabel(_ index: Int, on leg: PlacedLeg) -> String {
        let call = leg.timedPath.calls[index]
        if leg.live?.prediction.calls[safe: index]?.skipped == true { return TransitWording.skippedStop(call.stop.name) }
        return "\(call.stop.name), \(call.arrival.clock)"
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

    /// Where the vehicle is, how late or early it runs when realtime says, and when it reaches
    /// your stop: the boarding stop until it gets there, then (on a leg you ride) the stop where
    /// you alight. "Tram 7 is 3 minutes late, between Järntorget and Vasaplatsen, 2 stops before
    /// yours. It arrives at 08:48."
    private func sentence(_ place: VehiclePlace, on leg: PlacedLeg) -> String {
        let calls = leg.timedPath.calls, name = leg.line.name
        guard let next = place.nextCall else {
            return "\(name) has reached the end of its trip at \(calls[calls.count - 1].stop.name)."
        }
        let target = next <= leg.boardIndex || isDeparture ? leg.boardIndex : leg.alightIndex
        let yours = calls[target]
        guard next <= target else {
            return "\(name) has passed your stop, \(yours.stop.name)."
        }
        if leg.live?.prediction.calls[safe: target]?.skipped == true {
            return TransitWording.skipsYourStop(line: name, stop: yours.stop.name)
        }
        let delay = leg.isAdded ? nil : leg.live?.delay(at: next, on: leg.path).map(TransitWording.delay(seconds:))
        /// "Tram 7 is 3 minutes late, between …", "Tram 7 is 3 minutes late and has not yet left …".
        func subject(_ predicate: String) -> String {
            guard let delay else { return "\(name) \(predicate)" }
            return predicate.hasPrefix("is ") ? "\(name) is \(delay), \(predicate.dropFirst(3))" : "\(name) is \(delay) and \(predicate)"
        }
        /// The stops still to reach before yours; nil when the next stop is yours.
        let stopsBefore: Int?
        let whereabouts: String
        switch place {
        case .waiting(let index):
            if index == target { return subject("has not yet left your stop, \(yours.stop.name)") + ". It leaves at \(yours.departure.clock)." }
            whereabouts = subject("has not yet left \(calls[index].stop.name)")
            stopsBefore = target - index - 1
        case .at(let index):
            if index == target {
                return target == leg.boardIndex
                    ? subject("is at your stop, \(yours.stop.name)") + ". It leaves at \(yours.departure.clock)."
                    : subject("is at your stop, \(yours.stop.name), where you alight") + "."
            }
            whereabouts = subject("is at \(calls[index].stop.name)")
            stopsBefore = target - index - 1
        case .between(let from, let to):
            whereabouts = to == target
                ? subject("is between \(calls[from].stop.name) and your stop, \(yours.stop.name)")
                : subject("is between \(calls[from].stop.name) and \(calls[to].stop.name)")
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
                lines: lines.map(\.badge), text: alert.header, label: TransitWording.disturbance(lines: lines.map(\.nameInSentence), header: alert.header)
            ))
        }
        return notices
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
