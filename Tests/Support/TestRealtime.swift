import Foundation
import GTFS
import SwiftProtobuf

/// GTFS-realtime files built through the code generated from `gtfs-realtime.proto`, as an
/// agency's server writes them: a FeedMessage of entities, serialized.
public enum TestRealtime {
    /// One StopTimeUpdate: its stop by sequence, id or both, and its events.
    public struct Stop {
        public var sequence: UInt32?
        public var stopID: String?
        public var arrivalDelay: Int32?
        public var arrivalTime: Int64?
        public var departureDelay: Int32?
        public var departureTime: Int64?
        public var relationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship?

        public init(
            sequence: UInt32? = nil, stopID: String? = nil, arrivalDelay: Int32? = nil, arrivalTime: Int64? = nil, departureDelay: Int32? = nil,
            departureTime: Int64? = nil, relationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship? = nil
        ) {
            self.sequence = sequence
            self.stopID = stopID
            self.arrivalDelay = arrivalDelay
            self.arrivalTime = arrivalTime
            self.departureDelay = departureDelay
            self.departureTime = departureTime
            self.relationship = relationship
        }
    }

    /// A message with a GTFS-realtime 2.0 header and `entities`.
    public static func message(timestamp: UInt64? = nil, _ entities: [TransitRealtime_FeedEntity]) -> TransitRealtime_FeedMessage {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        if let timestamp { message.header.timestamp = timestamp }
        message.entity = entities
        return message
    }

    public static func trip(
        _ tripID: String?, route: String? = nil, startDate: String? = nil, startTime: String? = nil,
        relationship: TransitRealtime_TripDescriptor.ScheduleRelationship? = nil
    ) -> TransitRealtime_TripDescriptor {
        var trip = TransitRealtime_TripDescriptor()
        if let tripID { trip.tripID = tripID }
        if let route { trip.routeID = route }
        if let startDate { trip.startDate = startDate }
        if let startTime { trip.startTime = startTime }
        if let relationship { trip.scheduleRelationship = relationship }
        return trip
    }

    /// A VehiclePosition entity.
    public static func vehicle(
        _ id: String, trip: TransitRealtime_TripDescriptor?, latitude: Float? = nil, longitude: Float? = nil, stopID: String? = nil,
        sequence: UInt32? = nil, status: TransitRealtime_VehiclePosition.VehicleStopStatus? = nil, timestamp: UInt64? = nil
    ) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        if let trip { entity.vehicle.trip = trip }
        if let latitude, let longitude {
            entity.vehicle.position.latitude = latitude
            entity.vehicle.position.longitude = longitude
        }
        if let stopID { entity.vehicle.stopID = stopID }
        if let sequence { entity.vehicle.currentStopSequence = sequence }
        if let status { entity.vehicle.currentStatus = status }
        if let timestamp { entity.vehicle.timestamp = timestamp }
        if trip == nil, latitude == nil, stopID == nil { entity.vehicle.vehicle.label = id }
        return entity
    }

    /// A TripUpdate entity.
    public static func tripUpdate(
        _ id: String, trip: TransitRealtime_TripDescriptor, stops: [Stop] = [], delay: Int32? = nil, headsign: String? = nil
    ) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        entity.tripUpdate.trip = trip
        if let delay { entity.tripUpdate.delay = delay }
        if let headsign { entity.tripUpdate.tripProperties.tripHeadsign = headsign }
        entity.tripUpdate.stopTimeUpdate = stops.map { stop in
            var update = TransitRealtime_TripUpdate.StopTimeUpdate()
            if let sequence = stop.sequence { update.stopSequence = sequence }
            if let stopID = stop.stopID { update.stopID = stopID }
            if stop.arrivalDelay != nil || stop.arrivalTime != nil {
                if let delay = stop.arrivalDelay { update.arrival.delay = delay }
                if let time = stop.arrivalTime { update.arrival.time = time }
            }
            if stop.departureDelay != nil || stop.departureTime != nil {
                if let delay = stop.departureDelay { update.departure.delay = delay }
                if let time = stop.departureTime { update.departure.time = time }
            }
            if let relationship = stop.relationship { update.scheduleRelationship = relationship }
            return update
        }
        return entity
    }

    /// What an alert's informed entity names.
    public struct Selector {
        public var agency: String?
        public var route: String?
        public var routeType: Int32?
        public var trip: String?
        public var stop: String?

        public init(agency: String? = nil, route: String? = nil, routeType: Int32? = nil, trip: String? = nil, stop: String? = nil) {
            self.agency = agency
            self.route = route
            self.routeType = routeType
            self.trip = trip
            self.stop = stop
        }
    }

    /// An Alert entity, its header in English (and `otherLanguages`, text by language code).
    public static func alert(
        _ id: String, header: String?, informing selectors: [Selector], periods: [(start: UInt64?, end: UInt64?)] = [], description: String? = nil,
        otherLanguages: [String: String] = [:]
    ) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        entity.alert.informedEntity = selectors.map { selector in
            var informed = TransitRealtime_EntitySelector()
            if let agency = selector.agency { informed.agencyID = agency }
            if let route = selector.route { informed.routeID = route }
            if let type = selector.routeType { informed.routeType = type }
            if let trip = selector.trip { informed.trip.tripID = trip }
            if let stop = selector.stop { informed.stopID = stop }
            return informed
        }
        entity.alert.activePeriod = periods.map { period in
            var range = TransitRealtime_TimeRange()
            if let start = period.start { range.start = start }
            if let end = period.end { range.end = end }
            return range
        }
        if let header {
            var translations = otherLanguages.sorted { $0.key < $1.key }.map { language, text in
                TransitRealtime_TranslatedString.Translation.with { $0.text = text; $0.language = language }
            }
            translations.append(TransitRealtime_TranslatedString.Translation.with { $0.text = header; $0.language = "en" })
            entity.alert.headerText.translation = translations
        }
        if let description {
            entity.alert.descriptionText.translation = [TransitRealtime_TranslatedString.Translation.with { $0.text = description }]
        }
        return entity
    }

    /// Writes `message` serialized to `url`.
    public static func write(_ message: TransitRealtime_FeedMessage, to url: URL) throws {
        try message.serializedData().write(to: url)
    }
}
