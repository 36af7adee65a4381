import Foundation
import MapGeometry
import SwiftProtobuf

/// One vehicle of a GTFS-realtime VehiclePositions feed message.
public struct RealtimeVehicle: Hashable, Sendable {
    /// Where the vehicle is relative to `currentStopSequence` or `stopID`.
    public enum Status: String, Hashable, Sendable {
        /// About to arrive at the stop.
        case incomingAt
        /// Standing at the stop.
        case stoppedAt
        /// Has left the previous stop and is on its way to this one.
        case inTransitTo
    }

    /// The trip the vehicle runs, when the message says.
    public var tripID: String?
    /// The vehicle's position, when the message gives one.
    public var coordinate: Coordinate?
    /// The direction it faces, in degrees clockwise from north, when given.
    public var bearing: Double?
    /// The `stop_sequence` of the stop `status` is about, when given.
    public var currentStopSequence: Int?
    /// The `stop_id` of the stop `status` is about, when given.
    public var stopID: String?
    /// `IN_TRANSIT_TO` when the message leaves it out, as the GTFS-realtime reference says.
    public var status: Status

    public init(
        tripID: String? = nil, coordinate: Coordinate? = nil, bearing: Double? = nil, currentStopSequence: Int? = nil,
        stopID: String? = nil, status: Status = .inTransitTo
    ) {
        self.tripID = tripID
        self.coordinate = coordinate
        self.bearing = bearing
        self.currentStopSequence = currentStopSequence
        self.stopID = stopID
        self.status = status
    }
}

/// The vehicles of a GTFS-realtime VehiclePositions feed (`gtfs-realtime.proto`, decoded by the
/// code generated from it in `gtfs-realtime.pb.swift`).
public enum RealtimeVehicles {
    /// The vehicles of the serialized FeedMessage `data`, in the order of its entities; `file`
    /// names it in errors. Entities without a vehicle position, or being deleted, are skipped.
    public static func read(_ data: Data, file: String) throws(GTFSError) -> [RealtimeVehicle] {
        let message: TransitRealtime_FeedMessage
        do {
            message = try TransitRealtime_FeedMessage(serializedBytes: data)
        } catch {
            throw GTFSError(file: file, message: "is not a GTFS-realtime feed message (\(error)); allowed a serialized FeedMessage")
        }
        var vehicles: [RealtimeVehicle] = []
        for entity in message.entity where entity.hasVehicle && !entity.isDeleted {
            vehicles.append(try vehicle(entity.vehicle, entity: entity.id, file: file))
        }
        return vehicles
    }

    private static func vehicle(_ position: TransitRealtime_VehiclePosition, entity: String, file: String) throws(GTFSError) -> RealtimeVehicle {
        var vehicle = RealtimeVehicle(status: status(position.currentStatus))
        if position.hasTrip, position.trip.hasTripID {
            vehicle.tripID = position.trip.tripID
        }
        if position.hasPosition {
            let latitude = try checked(position.position.latitude, in: -90...90, "position.latitude", entity: entity, file: file)
            let longitude = try checked(position.position.longitude, in: -180...180, "position.longitude", entity: entity, file: file)
            vehicle.coordinate = Coordinate(latitude: latitude, longitude: longitude)
            if position.position.hasBearing {
                vehicle.bearing = try checked(position.position.bearing, in: 0...360, "position.bearing", entity: entity, file: file)
            }
        }
        if position.hasCurrentStopSequence {
            vehicle.currentStopSequence = Int(position.currentStopSequence)
        }
        if position.hasStopID {
            vehicle.stopID = position.stopID
        }
        return vehicle
    }

    private static func status(_ status: TransitRealtime_VehiclePosition.VehicleStopStatus) -> RealtimeVehicle.Status {
        switch status {
        case .incomingAt: .incomingAt
        case .stoppedAt: .stoppedAt
        case .inTransitTo: .inTransitTo
        }
    }

    private static func checked(_ value: Float, in range: ClosedRange<Double>, _ field: String, entity: String, file: String) throws(GTFSError) -> Double {
        let value = Double(value)
        guard range.contains(value) else {
            throw GTFSError(
                file: file, column: field,
                message: "\(value) in entity \"\(entity)\" is out of range; allowed \(Int(range.lowerBound)) to \(Int(range.upperBound))"
            )
        }
        return value
    }
}
