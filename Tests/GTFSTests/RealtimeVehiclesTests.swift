import Foundation
@testable import GTFS
import MapGeometry
import SwiftProtobuf
import Testing

extension RealtimeFeed {
    /// The vehicles of a whole file.
    static func vehicles(_ data: Data, file: String) throws(GTFSError) -> [RealtimeVehicle] {
        try read(data, file: file).vehicles
    }
}

/// GTFS-realtime VehiclePositions, built with the types generated from gtfs-realtime.proto,
/// serialized, and read back.
@Suite("GTFS-realtime vehicle positions")
struct RealtimeVehiclesTests {
    static func message(_ entities: [TransitRealtime_FeedEntity]) -> TransitRealtime_FeedMessage {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = 1_700_000_000
        message.entity = entities
        return message
    }

    static func entity(_ id: String, _ build: (inout TransitRealtime_VehiclePosition) -> Void) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        build(&entity.vehicle)
        return entity
    }

    @Test("a vehicle's trip, position, bearing, stop and status come back as sent")
    func roundTrip() throws {
        let stopped = Self.entity("tram-1") { vehicle in
            vehicle.trip.tripID = "T7-0830"
            vehicle.position.latitude = 57.7046
            vehicle.position.longitude = 11.9694
            vehicle.position.bearing = 135
            vehicle.currentStopSequence = 4
            vehicle.stopID = "S4"
            vehicle.currentStatus = .stoppedAt
        }
        let moving = Self.entity("bus-1") { vehicle in
            vehicle.trip.tripID = "B60-0845"
            vehicle.currentStopSequence = 2
        }
        var alert = TransitRealtime_FeedEntity()
        alert.id = "alert-1"
        alert.alert.informedEntity = [TransitRealtime_EntitySelector.with { $0.stopID = "S5" }]
        alert.alert.headerText.translation = [TransitRealtime_TranslatedString.Translation.with { $0.text = "Works at Brunnsparken" }]
        var deleted = Self.entity("tram-2") { $0.trip.tripID = "T7-2350" }
        deleted.isDeleted = true

        let data = try Self.message([stopped, alert, moving, deleted]).serializedData()
        let vehicles = try RealtimeFeed.vehicles(data, file: "vehicles.pb")
        #expect(vehicles == [
            RealtimeVehicle(
                tripID: "T7-0830", coordinate: Coordinate(latitude: Double(Float(57.7046)), longitude: Double(Float(11.9694))), bearing: 135,
                currentStopSequence: 4, stopID: "S4", status: .stoppedAt
            ),
            RealtimeVehicle(tripID: "B60-0845", currentStopSequence: 2, status: .inTransitTo),
        ])
    }

    @Test("a message without vehicle positions gives no vehicles")
    func noVehicles() throws {
        #expect(try RealtimeFeed.vehicles(Self.message([]).serializedData(), file: "vehicles.pb").isEmpty)
    }

    @Test("bytes that are not a feed message are refused", arguments: [
        Data("not a protocol buffer".utf8), Data([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), Data(),
    ])
    func garbage(_ data: Data) {
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.vehicles(data, file: "vehicles.pb") }
        #expect(error?.file == "vehicles.pb" && error?.line == nil)
        #expect(error?.description.hasPrefix("vehicles.pb: is not a GTFS-realtime feed message (") == true)
        #expect(error?.description.hasSuffix("); allowed a serialized FeedMessage") == true)
    }

    @Test("a message cut short is refused")
    func truncated() throws {
        let data = try Self.message([Self.entity("tram-1") { $0.trip.tripID = "T7-0830" }]).serializedData()
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.vehicles(data.prefix(data.count - 3), file: "vehicles.pb") }
        #expect(error?.description.hasPrefix("vehicles.pb: is not a GTFS-realtime feed message (") == true)
    }

    @Test("a position off the globe is refused, naming the entity")
    func positionOutOfRange() throws {
        let data = try Self.message([Self.entity("tram-1") { vehicle in
            vehicle.position.latitude = 95
            vehicle.position.longitude = 11.97
        }]).serializedData()
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.vehicles(data, file: "vehicles.pb") }
        #expect(error?.description == "vehicles.pb: entity[0].vehicle.position.latitude: 95.0 is out of range; allowed -90 to 90")
    }
}
