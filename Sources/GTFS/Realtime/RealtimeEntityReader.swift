import MapGeometry

/// The language a realtime file's translated texts are taken in: the first translation in
/// English, else one with no language, else the first. Every spoken string is English.
public enum RealtimeLanguage {
    public static let preferred = "en"

    static func text(of string: TransitRealtime_TranslatedString) -> String? {
        let translations = string.translation.filter { !$0.text.isEmpty }
        let english = translations.first { $0.language.lowercased() == preferred || $0.language.lowercased().hasPrefix(preferred + "-") }
        return (english ?? translations.first { !$0.hasLanguage || $0.language.isEmpty } ?? translations.first)?.text
    }
}

/// One entity of a realtime file checked and read into MapFrame's records. Errors name the file,
/// the entity by its index and the field by its path in `gtfs-realtime.proto`.
struct RealtimeEntityReader {
    let file: String
    let index: Int

    init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    private func error(_ field: String, _ message: String) -> GTFSError {
        GTFSError(file: file, message: "entity[\(index)].\(field): \(message)")
    }

    func vehicle(_ position: TransitRealtime_VehiclePosition) throws(GTFSError) -> RealtimeVehicle {
        var vehicle = RealtimeVehicle(status: status(position.currentStatus))
        if position.hasTrip {
            let trip = try trip(position.trip, field: "vehicle.trip")
            (vehicle.tripID, vehicle.routeID, vehicle.startTime, vehicle.startDate) = (trip.tripID, trip.routeID, trip.startTime, trip.startDate)
        }
        if position.hasVehicle, position.vehicle.hasLabel, !position.vehicle.label.isEmpty { vehicle.label = position.vehicle.label }
        if position.hasPosition {
            let latitude = try checked(position.position.latitude, in: -90...90, "vehicle.position.latitude")
            let longitude = try checked(position.position.longitude, in: -180...180, "vehicle.position.longitude")
            // Trackers with no fix report 0, 0, in the Gulf of Guinea: no position at all.
            if latitude != 0 || longitude != 0 { vehicle.coordinate = Coordinate(latitude: latitude, longitude: longitude) }
            if position.position.hasBearing {
                vehicle.bearing = try checked(position.position.bearing, in: 0...360, "vehicle.position.bearing")
            }
        }
        if position.hasCurrentStopSequence { vehicle.currentStopSequence = Int(position.currentStopSequence) }
        if position.hasStopID, !position.stopID.isEmpty { vehicle.stopID = position.stopID }
        if position.hasTimestamp, position.timestamp > 0 { vehicle.timestamp = Int(clamping: position.timestamp) }
        return vehicle
    }

    func tripUpdate(_ update: TransitRealtime_TripUpdate) throws(GTFSError) -> RealtimeTripUpdate {
        var read = RealtimeTripUpdate(trip: try trip(update.trip, field: "trip_update.trip"))
        if update.hasDelay { read.delay = Int(update.delay) }
        if update.hasTimestamp, update.timestamp > 0 { read.timestamp = Int(clamping: update.timestamp) }
        if update.hasTripProperties, update.tripProperties.hasTripHeadsign, !update.tripProperties.tripHeadsign.isEmpty {
            read.headsign = update.tripProperties.tripHeadsign
        }
        var previous: Int?
        for (offset, stop) in update.stopTimeUpdate.enumerated() {
            let field = "trip_update.stop_time_update[\(offset)]"
            var stopUpdate = RealtimeTripUpdate.StopUpdate(relationship: relationship(stop.scheduleRelationship))
            if stop.hasStopSequence { stopUpdate.sequence = Int(stop.stopSequence) }
            if stop.hasStopID, !stop.stopID.isEmpty { stopUpdate.stopID = stop.stopID }
            guard stopUpdate.sequence != nil || stopUpdate.stopID != nil else {
                throw error(field, "names neither stop_sequence nor stop_id; allowed one or both")
            }
            if let sequence = stopUpdate.sequence {
                if let previous, sequence <= previous {
                    throw error("\(field).stop_sequence", "\(sequence) does not come after the \(previous) before it; allowed the updates in increasing stop_sequence order")
                }
                previous = sequence
            }
            if stop.hasArrival { stopUpdate.arrival = try event(stop.arrival, field: "\(field).arrival") }
            if stop.hasDeparture { stopUpdate.departure = try event(stop.departure, field: "\(field).departure") }
            if stopUpdate.relationship == .scheduled, stopUpdate.arrival == nil, stopUpdate.departure == nil {
                throw error(field, "gives neither arrival nor departure; allowed one or both, unless schedule_relationship is SKIPPED or NO_DATA")
            }
            read.stops.append(stopUpdate)
        }
        return read
    }

    func alert(_ alert: TransitRealtime_Alert, id: String) throws(GTFSError) -> RealtimeAlert {
        guard !alert.informedEntity.isEmpty else {
            throw error("alert.informed_entity", "is empty; allowed at least one entity the alert is about")
        }
        var informed: [RealtimeAlert.Selector] = []
        for (offset, entity) in alert.informedEntity.enumerated() {
            let field = "alert.informed_entity[\(offset)]"
            var selector = RealtimeAlert.Selector()
            if entity.hasAgencyID, !entity.agencyID.isEmpty { selector.agencyID = entity.agencyID }
            if entity.hasRouteID, !entity.routeID.isEmpty { selector.routeID = entity.routeID }
            if entity.hasRouteType { selector.routeType = Int(entity.routeType) }
            if entity.hasDirectionID { selector.directionID = Int(entity.directionID) }
            if entity.hasStopID, !entity.stopID.isEmpty { selector.stopID = entity.stopID }
            if entity.hasTrip {
                let trip = try trip(entity.trip, field: "\(field).trip")
                selector.tripID = trip.tripID
                if selector.routeID == nil { selector.routeID = trip.routeID }
            }
            guard selector.routeID != nil || selector.tripID != nil || selector.stopID != nil || selector.agencyID != nil || selector.routeType != nil else {
                throw error(field, "names no route, trip or stop (nor an agency or route type); allowed at least one")
            }
            informed.append(selector)
        }
        var periods: [RealtimeAlert.Period] = []
        for (offset, range) in alert.activePeriod.enumerated() {
            let period = RealtimeAlert.Period(
                start: range.hasStart && range.start > 0 ? Int(clamping: range.start) : nil, end: range.hasEnd && range.end > 0 ? Int(clamping: range.end) : nil
            )
            if let start = period.start, let end = period.end, end < start {
                throw error("alert.active_period[\(offset)].end", "\(end) is before its start \(start); allowed \(start) or later")
            }
            periods.append(period)
        }
        guard alert.hasHeaderText, let header = RealtimeLanguage.text(of: alert.headerText) else {
            throw error("alert.header_text", "is missing or empty; allowed a translated text saying what the disturbance is")
        }
        let details = alert.hasDescriptionText ? RealtimeLanguage.text(of: alert.descriptionText) : nil
        return RealtimeAlert(id: id, periods: periods, informed: informed, header: header, details: details)
    }

    private func trip(_ trip: TransitRealtime_TripDescriptor, field: String) throws(GTFSError) -> RealtimeTrip {
        var read = RealtimeTrip(relationship: relationship(trip.scheduleRelationship))
        if trip.hasTripID, !trip.tripID.isEmpty { read.tripID = trip.tripID }
        if trip.hasRouteID, !trip.routeID.isEmpty { read.routeID = trip.routeID }
        if trip.hasDirectionID { read.directionID = Int(trip.directionID) }
        if trip.hasStartTime, !trip.startTime.isEmpty {
            guard let time = GTFSTime(parsing: trip.startTime[...]) else {
                throw error("\(field).start_time", "\"\(trip.startTime.prefix(40))\" is not a time; allowed HH:MM:SS")
            }
            read.startTime = time
        }
        if trip.hasStartDate, !trip.startDate.isEmpty {
            guard let date = GTFSDate(gtfs: trip.startDate[...]) else {
                throw error("\(field).start_date", "\"\(trip.startDate.prefix(40))\" is not a date; allowed YYYYMMDD")
            }
            read.startDate = date
        }
        return read
    }

    private func event(_ event: TransitRealtime_TripUpdate.StopTimeEvent, field: String) throws(GTFSError) -> RealtimeTripUpdate.Event? {
        let read = RealtimeTripUpdate.Event(delay: event.hasDelay ? Int(event.delay) : nil, time: event.hasTime && event.time > 0 ? Int(event.time) : nil)
        guard read.delay != nil || read.time != nil else {
            throw error(field, "gives neither delay nor time; allowed one or both")
        }
        return read
    }

    private func status(_ status: TransitRealtime_VehiclePosition.VehicleStopStatus) -> RealtimeVehicle.Status {
        switch status {
        case .incomingAt: .incomingAt
        case .stoppedAt: .stoppedAt
        case .inTransitTo: .inTransitTo
        }
    }

    private func relationship(_ relationship: TransitRealtime_TripDescriptor.ScheduleRelationship) -> RealtimeTrip.Relationship {
        switch relationship {
        case .scheduled: .scheduled
        case .added: .added
        case .unscheduled: .unscheduled
        case .canceled: .cancelled
        case .replacement: .replacement
        case .duplicated: .duplicated
        case .deleted: .deleted
        case .new: .new
        }
    }

    private func relationship(_ relationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship) -> RealtimeTripUpdate.StopRelationship {
        switch relationship {
        case .scheduled: .scheduled
        case .skipped: .skipped
        case .noData: .noData
        case .unscheduled: .unscheduled
        }
    }

    private func checked(_ value: Float, in range: ClosedRange<Double>, _ field: String) throws(GTFSError) -> Double {
        let value = Double(value)
        guard range.contains(value) else {
            throw error(field, "\(value) is out of range; allowed \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
        return value
    }
}
