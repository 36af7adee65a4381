import Foundation
import GTFS
import MapRender

/// A stop's next departures at a moment, from its feed's timetable and realtime files: the trips
/// that run that day (`calendar.txt` and `calendar_dates.txt`, the service days either side
/// included, so a trip of yesterday's service past midnight leaves today), frequency-based
/// trips expanded into their runs, and the realtime predictions, cancellations, skipped stops and
/// extra trips of TripUpdates, with the disturbances that touch them.
///
/// ```swift
/// let departures = try Departures(
///     at: "S5", on: GTFSDate(iso: "2024-03-15")!, time: GTFSTime(parsing: "08:41:00")!, count: 6, in: feed
/// ) { interest in try RealtimeFeed.read(contentsOf: url, keeping: interest) }
/// let board = departures.board   // what DepartureBoardPainter draws
/// ```
///
/// `stop_times.txt` is read in one pass that keeps only the stop's own calls and each trip's
/// ends (`GTFSFeed.calls(at:ofTrips:)`); only trips whose call at the stop has no time, or
/// that a TripUpdate speaks of, are read whole, a few at a time.
public struct Departures: Sendable {
    /// One departure from the stop.
    public struct Departure: Hashable, Sendable {
        public var tripID: String
        public var routeID: String
        /// The stop it leaves from: the board's stop, or one of its platforms.
        public var stopID: String
        public var serviceDate: GTFSDate
        /// The run's start, for a frequency-based trip.
        public var runStart: GTFSTime?
        /// The timetable's departure, in seconds since 1970; nil for an extra trip.
        public var scheduled: Int?
        /// The realtime prediction, in seconds since 1970; nil when there is none.
        public var predicted: Int?
        public var state: DepartureBoard.Row.State
        /// A frequency-based run whose times are not exact (`exact_times` 0): its headway.
        public var headway: Int?
        public var headsign: String

        /// When it leaves, as a rider should be told: the prediction, else the timetable.
        public var time: Int { predicted ?? scheduled ?? 0 }
    }

    /// The board's stop.
    public let stop: GTFSStop
    /// The moment the board shows, in seconds since 1970.
    public let moment: Int
    public let date: GTFSDate
    public let clock: GTFSTime
    /// The next departures, soonest first, at most the count asked for.
    public let departures: [Departure]
    public let notices: [TransitNotice]
    private let lines: [String: TransitLine]
    private let dayStart: Int

    /// How long before the moment a timetabled departure is still looked at, in case realtime
    /// says it runs late.
    static let lookBack = 3600
    /// How far after the moment departures are looked for.
    static let horizon = 24 * 3600

    /// The next `count` departures from `stopID` (a stop, or a station, whose platforms are
    /// taken together) at `time` on `date`, the feed's local clock. `realtime` reads the realtime
    /// files, keeping what concerns the candidates it is given.
    public init(
        at stopID: String, on date: GTFSDate, time: GTFSTime, count: Int, in feed: GTFSFeed,
        realtime: (RealtimeInterest) throws(TransitError) -> RealtimeFeed
    ) throws(TransitError) {
        guard let stop = feed.stops[stopID] else {
            throw TransitError(field: "stop", message: "\"\(stopID)\" is not a stop in the feed's stops.txt")
        }
        guard !feed.calendar.isEmpty else {
            throw TransitError(
                field: "feed", message: "has neither calendar.txt nor calendar_dates.txt, so the days its trips run are not known; a departure board needs one of them"
            )
        }
        let timeZone = feed.timeZone
        let days = [-1, 0, 1].map { date.adding(days: $0) }
        let dayStarts = days.map { $0.serviceDayStart(in: timeZone) }
        let moment = dayStarts[1] + time.seconds
        let window = (moment - Self.lookBack)...(moment + Self.horizon)
        let stopIDs = Set([stopID] + (feed.platforms[stopID] ?? []))

        // The days each service runs on, of the three.
        var serviceDays: [String: [Bool]] = [:]
        var running: Set<String> = []
        for trip in feed.trips.values {
            let runs = serviceDays[trip.serviceID] ?? days.map { feed.calendar.runs(trip.serviceID, on: $0) }
            serviceDays[trip.serviceID] = runs
            if runs.contains(true) { running.insert(trip.id) }
        }
        let calls: [GTFSStopCall]
        do {
            calls = try feed.calls(at: stopIDs, ofTrips: running).filter { !$0.isLast && $0.stopTime.allowsBoarding }
        } catch {
            throw TransitError(field: "feed", message: error.description)
        }
        // Calls with no time of their own take it from their trip's whole timetable.
        let untimed = Set(calls.filter { $0.stopTime.departure == nil }.map(\.stopTime.tripID))
        var paths = try Self.paths(of: untimed, in: feed)

        var scheduled: [Departure] = []
        for call in calls {
            let trip = feed.trips[call.stopTime.tripID]!
            let departure = call.stopTime.departure ?? paths[trip.id]?.calls.first { $0.sequence == call.stopTime.sequence }?.departure
            guard let departure else { continue }
            let headsign = trip.headsign.flatMap { $0.isEmpty ? nil : $0 } ?? feed.stops[call.lastStopID]?.name ?? call.lastStopID
            for (day, runs) in zip(days.indices, serviceDays[trip.serviceID] ?? []) where runs {
                func add(_ time: Int, run: GTFSTime?, headway: Int?) {
                    scheduled.append(Departure(
                        tripID: trip.id, routeID: trip.routeID, stopID: call.stopTime.stopID, serviceDate: days[day], runStart: run, scheduled: time,
                        predicted: nil, state: .running, headway: headway, headsign: headsign
                    ))
                }
                guard let frequencies = feed.frequencies[trip.id] else {
                    if window.contains(dayStarts[day] + departure.seconds) { add(dayStarts[day] + departure.seconds, run: nil, headway: nil) }
                    continue
                }
                let offset = departure.seconds - call.tripStart.seconds
                for frequency in frequencies {
                    for run in frequency.runs(from: window.lowerBound - dayStarts[day] - offset, limit: 2 * count + 2) {
                        let time = dayStarts[day] + run.seconds + offset
                        guard time <= window.upperBound else { break }
                        add(time, run: run, headway: frequency.exactTimes ? nil : frequency.headwaySeconds)
                    }
                }
            }
        }
        scheduled.sort { ($0.time, $0.tripID) < ($1.time, $1.tripID) }
        // Those due before the moment, in case they run late, and twice the count after it, in
        // case earlier ones are delayed past later ones.
        let candidates = Array(scheduled.prefix { $0.time < moment }) + Array(scheduled.drop { $0.time < moment }.prefix(2 * count))

        let candidateRoutes = Set(candidates.map(\.routeID)).compactMap { feed.routes[$0] }
        let live = try realtime(RealtimeInterest(
            tripIDs: Set(candidates.map(\.tripID)), routeIDs: Set(candidateRoutes.map(\.id)), stopIDs: stopIDs,
            agencyIDs: Set(candidateRoutes.map { $0.agencyID ?? feed.agencies[0].id }), routeTypes: Set(candidateRoutes.map(\.type))
        ))
        let updated = Set(live.tripUpdates.compactMap(\.trip.tripID)).intersection(candidates.map(\.tripID))
        for (tripID, path) in try Self.paths(of: updated.subtracting(paths.keys), in: feed) { paths[tripID] = path }

        var departures = candidates
        var matched: Set<Int> = []
        for update in live.tripUpdates {
            let matches = departures.indices.filter { index in
                let departure = departures[index]
                return update.trip.tripID == departure.tripID && (update.trip.startDate.map { $0 == departure.serviceDate } ?? true)
                    && (departure.runStart == nil || update.trip.startTime.map { $0 == departure.runStart } ?? true)
            }
            guard let index = matches.min(by: { abs(departures[$0].time - moment) < abs(departures[$1].time - moment) }) else {
                if let extra = Self.extraDeparture(update, at: stopIDs, feed: feed, date: date) { departures.append(extra) }
                continue
            }
            matched.insert(index)
            if update.trip.isCancelled {
                departures[index].state = .cancelled
                continue
            }
            guard let path = paths[departures[index].tripID] else { continue }
            let dayStart = (departures[index].serviceDate.serviceDayStart(in: timeZone))
            let shift = departures[index].runStart.map { $0.seconds - path.calls[0].departure.seconds } ?? 0
            let prediction = TripPrediction(
                update: update,
                scheduled: path.calls.map { ($0.sequence, $0.stop.id, $0.arrival.adding(seconds: shift), $0.departure.adding(seconds: shift)) }, dayStart: dayStart
            )
            guard let call = path.calls.firstIndex(where: { $0.stop.id == departures[index].stopID && dayStart + $0.departure.seconds + shift == departures[index].scheduled }) else { continue }
            let predicted = prediction.calls[call]
            if predicted.skipped { departures[index].state = .skipped }
            departures[index].predicted = predicted.departure ?? predicted.arrival
        }
        departures = departures.filter { $0.time >= moment }.sorted { ($0.time, $0.tripID) < ($1.time, $1.tripID) }
        departures = Array(departures.prefix(count))

        var lines: [String: TransitLine] = [:]
        for departure in departures where lines[departure.routeID] == nil {
            lines[departure.routeID] = TransitLine(feed.routes[departure.routeID] ?? GTFSRoute(id: departure.routeID, shortName: departure.routeID, longName: nil, type: 3, colour: nil, textColour: nil))
        }
        let touched = TouchedEntities(
            routes: departures.compactMap { feed.routes[$0.routeID] }, trips: departures.map { ($0.tripID, $0.routeID) }, stops: Array(stopIDs)
        )
        self.stop = stop
        self.moment = moment
        self.date = date
        self.clock = time
        self.departures = departures
        self.notices = touched.notices(live.alerts, at: moment, lines: lines)
        self.lines = lines
        self.dayStart = dayStarts[1]
    }

    /// The paths of `trips`, with every call timed, for calls the pass left untimed and for
    /// the predictions of TripUpdates.
    private static func paths(of trips: Set<String>, in feed: GTFSFeed) throws(TransitError) -> [String: TripPath] {
        guard !trips.isEmpty else { return [:] }
        do {
            let stopTimes = try feed.stopTimes(ofTrips: trips)
            let shapes = try feed.shapes(Set(trips.compactMap { feed.trips[$0]?.shapeID }))
            var paths: [String: TripPath] = [:]
            for id in trips {
                let trip = feed.trips[id]!
                paths[id] = try TripPath(trip: trip, stopTimes: stopTimes[id] ?? [], shape: trip.shapeID.flatMap { shapes[$0] } ?? [], stops: feed.stops)
            }
            return paths
        } catch let error as GTFSError {
            throw TransitError(field: "feed", message: error.description)
        } catch {
            throw TransitError(field: "feed", message: "\(error)")
        }
    }

    /// A departure of a trip the timetable lacks, when its TripUpdate gives a time at the stop.
    private static func extraDeparture(_ update: RealtimeTripUpdate, at stopIDs: Set<String>, feed: GTFSFeed, date: GTFSDate) -> Departure? {
        guard let tripID = update.trip.tripID, !update.trip.isCancelled, feed.trips[tripID] == nil || update.trip.isAdded,
              let routeID = update.trip.routeID ?? feed.trips[tripID]?.routeID,
              let stop = update.stops.first(where: { $0.stopID.map(stopIDs.contains) == true && $0.relationship != .skipped }),
              let time = stop.departure?.time ?? stop.arrival?.time,
              update.stops.last?.stopID != stop.stopID
        else { return nil }
        let lastStop = update.stops.last?.stopID.flatMap { feed.stops[$0]?.name }
        return Departure(
            tripID: tripID, routeID: routeID, stopID: stop.stopID!, serviceDate: update.trip.startDate ?? date, runStart: update.trip.startTime,
            scheduled: nil, predicted: time, state: .extra, headway: nil, headsign: update.headsign ?? lastStop ?? ""
        )
    }

    /// The board as drawn.
    public var board: DepartureBoard {
        let rows = departures.map { departure -> DepartureBoard.Row in
            let line = lines[departure.routeID]!
            let minutes = max(0, (departure.time - moment) / 60)
            let clock = GTFSTime(seconds: departure.time - dayStart).clock
            let isLive = departure.predicted != nil
            var note: String?, spokenNote: String?
            var shown = TransitWording.minutes(minutes, isLive: isLive), spoken = TransitWording.spokenMinutes(minutes, isLive: isLive)
            switch departure.state {
            case .cancelled: (shown, spoken, note) = ("", TransitWording.cancelledRow.lowercased(), TransitWording.cancelledRow)
            case .skipped: (shown, spoken, note) = ("", TransitWording.skippedRow.lowercased(), TransitWording.skippedRow)
            case .extra: (note, spokenNote) = (TransitWording.extraRow, TransitWording.extraRow.lowercased())
            case .running:
                if let predicted = departure.predicted, let scheduled = departure.scheduled, let delay = TransitWording.shortDelay(seconds: predicted - scheduled) {
                    (note, spokenNote) = (delay, TransitWording.delay(seconds: predicted - scheduled))
                }
                if let headway = departure.headway { (note, spokenNote) = (TransitWording.headway(seconds: headway), TransitWording.spokenHeadway(seconds: headway)) }
            }
            let spokenDestination = spokenNote.map { "\(IsolatedName.isolated(departure.headsign)), \($0)" } ?? departure.headsign
            return DepartureBoard.Row(
                line: line.badge, destination: departure.headsign, time: clock, minutes: shown, note: note, isLive: isLive, state: departure.state,
                spokenCells: [line.name, spokenDestination, clock, spoken]
            )
        }
        return DepartureBoard(
            title: stop.name, subtitle: TransitWording.boardSubtitle(clock: clock.clock), columns: TransitWording.columns,
            spokenColumns: TransitWording.spokenColumns, rows: rows, emptyText: TransitWording.noDepartures, notices: notices,
            label: TransitWording.board(stop: stop.name, clock: clock.clock)
        )
    }

    /// The departures view of departure `index` (counting from 0): its trip's line from its
    /// vehicle through the stop, and the service day it runs on.
    public func plan(ofDeparture index: Int) -> (plan: TransitJourney.Plan, date: GTFSDate) {
        let departure = departures[index]
        return (.departure(trip: departure.tripID, stop: departure.stopID, start: departure.runStart), departure.serviceDate)
    }
}
