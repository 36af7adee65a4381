import Foundation
@testable import GTFS
import MapFrameTestSupport
import MapGeometry
import SwiftProtobuf
import Testing

/// GTFS-realtime files holding VehiclePositions, TripUpdates and Alerts in any mix, built with
/// the types generated from gtfs-realtime.proto, serialized, and read back an entity at a time.
@Suite("GTFS-realtime feeds of every kind")
struct RealtimeFeedTests {
    private func data(_ entities: [TransitRealtime_FeedEntity]) throws -> Data {
        try TestRealtime.message(timestamp: 1_710_491_760, entities).serializedData()
    }

    @Test("vehicles, trip updates and alerts in one file, an entity holding more than one kind")
    func mixed() throws {
        var both = TestRealtime.tripUpdate("both", trip: TestRealtime.trip("T1", route: "R1", startDate: "20240315", startTime: "25:10:00"), stops: [
            .init(sequence: 3, stopID: "S3", arrivalDelay: 120, departureTime: 1_710_492_000), .init(sequence: 5, relationship: .skipped),
            .init(sequence: 6, relationship: .noData),
        ], delay: 60, headsign: "Hill")
        both.vehicle = TestRealtime.vehicle("both", trip: TestRealtime.trip("T1"), latitude: 57.7, longitude: 11.9, sequence: 3, status: .stoppedAt).vehicle
        var deleted = TestRealtime.alert("gone", header: "Old news", informing: [.init(route: "R1")])
        deleted.isDeleted = true
        let feed = try RealtimeFeed.read(data([
            TestRealtime.vehicle("v", trip: nil, latitude: 57.71, longitude: 11.97),
            both,
            TestRealtime.alert("a", header: "Lift out of order", informing: [.init(stop: "S3"), .init(trip: "T1")], periods: [(100, 200), (nil, 50)], description: "Use the ramp"),
            deleted,
        ]), file: "mixed.pb")
        #expect(feed.timestamp == 1_710_491_760)
        #expect(feed.vehicles.count == 2 && feed.vehicles[1].tripID == "T1" && feed.vehicles[1].status == .stoppedAt && feed.vehicles[1].currentStopSequence == 3)
        let update = try #require(feed.tripUpdates.first)
        #expect(update.trip == RealtimeTrip(tripID: "T1", routeID: "R1", startTime: GTFSTime(parsing: "25:10:00"), startDate: GTFSDate(year: 2024, month: 3, day: 15)))
        #expect(update.delay == 60 && update.headsign == "Hill")
        #expect(update.stops == [
            .init(sequence: 3, stopID: "S3", arrival: .init(delay: 120), departure: .init(time: 1_710_492_000)),
            .init(sequence: 5, relationship: .skipped), .init(sequence: 6, relationship: .noData),
        ])
        #expect(feed.alerts == [RealtimeAlert(
            id: "a", periods: [.init(start: 100, end: 200), .init(end: 50)], informed: [.init(stopID: "S3"), .init(tripID: "T1")],
            header: "Lift out of order", details: "Use the ramp"
        )], "the deleted alert is left out")
        #expect(feed.alerts[0].isActive(at: 150) && feed.alerts[0].isActive(at: 10) && !feed.alerts[0].isActive(at: 70))
    }

    @Test("a translated text is taken in English, else in no language, else the first")
    func languages() throws {
        let english = TestRealtime.alert("en", header: "Tram 7 diverted", informing: [.init(route: "R7")], otherLanguages: ["sv": "Spårvagn 7 omleds"])
        var swedish = TestRealtime.alert("sv", header: nil, informing: [.init(route: "R7")])
        swedish.alert.headerText.translation = [.with { $0.text = "Spårvagn 7 omleds"; $0.language = "sv" }, .with { $0.text = "ספּורווגן"; $0.language = "he" }]
        var plain = TestRealtime.alert("plain", header: nil, informing: [.init(route: "R7")])
        plain.alert.headerText.translation = [.with { $0.text = "Spårvagn 7 omleds"; $0.language = "sv" }, .with { $0.text = "Tram 7 diverted" }]
        let feed = try RealtimeFeed.read(data([english, swedish, plain]), file: "alerts.pb")
        #expect(feed.alerts.map(\.header) == ["Tram 7 diverted", "Spårvagn 7 omleds", "Tram 7 diverted"])
    }

    @Test("a tracker with no fix, at 0, 0, has no position")
    func nullIsland() throws {
        let feed = try RealtimeFeed.read(data([TestRealtime.vehicle("lost", trip: TestRealtime.trip(nil, route: "RS"), latitude: 0, longitude: 0)]), file: "vehicles.pb")
        #expect(feed.vehicles.count == 1 && feed.vehicles[0].coordinate == nil && feed.vehicles[0].routeID == "RS")
    }

    @Test("what a drawing does not need is dropped as it is read")
    func interest() throws {
        let entities = [
            TestRealtime.vehicle("on trip", trip: TestRealtime.trip("T1"), latitude: 57.7, longitude: 11.9),
            TestRealtime.vehicle("on route", trip: TestRealtime.trip(nil, route: "R1"), latitude: 57.7, longitude: 11.9),
            TestRealtime.vehicle("elsewhere", trip: TestRealtime.trip("T9", route: "R9"), latitude: 57.7, longitude: 11.9),
            TestRealtime.tripUpdate("at stop", trip: TestRealtime.trip("NEW", route: "R9", relationship: .added), stops: [.init(stopID: "S3", arrivalTime: 5)]),
            TestRealtime.tripUpdate("other", trip: TestRealtime.trip("T8"), stops: [.init(stopID: "S8", arrivalTime: 5)]),
            TestRealtime.alert("agency", header: "Strike", informing: [.init(agency: "HL")]),
            TestRealtime.alert("buses", header: "Buses late", informing: [.init(routeType: 3)]),
            TestRealtime.alert("trams", header: "Trams late", informing: [.init(routeType: 0)]),
        ]
        let interest = RealtimeInterest(tripIDs: ["T1"], routeIDs: ["R1"], stopIDs: ["S3"], agencyIDs: ["HL"], routeTypes: [3])
        let feed = try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("all.pb")
            try data(entities).write(to: url)
            return try RealtimeFeed.read(contentsOf: url, keeping: interest)
        }
        #expect(feed.vehicles.map(\.tripID) == ["T1", nil])
        #expect(feed.otherVehicleTrips == ["T9"])
        #expect(feed.tripUpdates.map(\.trip.tripID) == ["NEW"])
        #expect(feed.alerts.map(\.id) == ["agency", "buses"])
    }

    /// Entities that break a rule of the GTFS-realtime reference, each after three good ones, and
    /// the message naming the file, the entity and the field.
    static let badEntities: [(TransitRealtime_FeedEntity, String)] = [
        (TestRealtime.alert("a", header: "Closed", informing: [.init()]),
         "alerts.pb: entity[3].alert.informed_entity[0]: names no route, trip or stop (nor an agency or route type); allowed at least one"),
        (TestRealtime.alert("a", header: "Closed", informing: []),
         "alerts.pb: entity[3].alert.informed_entity: is empty; allowed at least one entity the alert is about"),
        (TestRealtime.alert("a", header: nil, informing: [.init(route: "R1")]),
         "alerts.pb: entity[3].alert.header_text: is missing or empty; allowed a translated text saying what the disturbance is"),
        (TestRealtime.alert("a", header: "Closed", informing: [.init(route: "R1")], periods: [(200, 100)]),
         "alerts.pb: entity[3].alert.active_period[0].end: 100 is before its start 200; allowed 200 or later"),
        (TestRealtime.tripUpdate("t", trip: TestRealtime.trip("T1"), stops: [.init(arrivalDelay: 60)]),
         "alerts.pb: entity[3].trip_update.stop_time_update[0]: names neither stop_sequence nor stop_id; allowed one or both"),
        (TestRealtime.tripUpdate("t", trip: TestRealtime.trip("T1"), stops: [.init(sequence: 4, arrivalDelay: 60), .init(sequence: 2, arrivalDelay: 60)]),
         "alerts.pb: entity[3].trip_update.stop_time_update[1].stop_sequence: 2 does not come after the 4 before it; allowed the updates in increasing stop_sequence order"),
        (TestRealtime.tripUpdate("t", trip: TestRealtime.trip("T1"), stops: [.init(sequence: 4)]),
         "alerts.pb: entity[3].trip_update.stop_time_update[0]: gives neither arrival nor departure; allowed one or both, unless schedule_relationship is SKIPPED or NO_DATA"),
        (TestRealtime.tripUpdate("t", trip: TestRealtime.trip("T1", startTime: "8.15"), stops: [.init(sequence: 4, arrivalDelay: 0)]),
         "alerts.pb: entity[3].trip_update.trip.start_time: \"8.15\" is not a time; allowed HH:MM:SS"),
        (TestRealtime.tripUpdate("t", trip: TestRealtime.trip("T1", startDate: "2024-03-15"), stops: [.init(sequence: 4, arrivalDelay: 0)]),
         "alerts.pb: entity[3].trip_update.trip.start_date: \"2024-03-15\" is not a date; allowed YYYYMMDD"),
        (TestRealtime.vehicle("v", trip: TestRealtime.trip("T1"), latitude: 57.7, longitude: 191),
         "alerts.pb: entity[3].vehicle.position.longitude: 191.0 is out of range; allowed -180 to 180"),
    ]

    @Test("an entity that breaks the reference is refused, naming the file, the entity and the field", arguments: badEntities.indices)
    func badEntity(_ index: Int) throws {
        let (bad, expected) = Self.badEntities[index]
        let good = (0..<3).map { TestRealtime.alert("\($0)", header: "Fine", informing: [.init(route: "R1")]) }
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.read(data(good + [bad]), file: "alerts.pb") }
        #expect(error?.description == expected)
    }

    @Test("an entity whose bytes are not a FeedEntity is refused by its index")
    func undecodableEntity() throws {
        var bytes = try data([TestRealtime.alert("0", header: "Fine", informing: [.init(route: "R1")])])
        // Field 2 (entity), length-delimited, 3 bytes: a varint that never ends.
        bytes.append(contentsOf: [0x12, 0x03, 0x08, 0xFF, 0xFF])
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.read(bytes, file: "vehicles.pb") }
        #expect(error?.description.hasPrefix("vehicles.pb: entity[1]: is not a FeedEntity that can be read (") == true)
    }

    @Test("a file of 100,000 entities is read an entity at a time, every one checked, keeping what is wanted")
    func aHundredThousandEntities() throws {
        // A region's file: 100,000 trip updates of 10 stops each, two of them about the trip drawn.
        var message = TestRealtime.message(timestamp: 1, [])
        func update(_ index: Int) -> TransitRealtime_FeedEntity {
            let trip = TestRealtime.trip(index % 50_000 == 7 ? "DRAWN" : "T\(index)", route: "R\(index % 300)")
            var stops: [TestRealtime.Stop] = []
            for call in 0..<10 {
                stops.append(TestRealtime.Stop(sequence: UInt32(call + 1), stopID: "S\(index % 5000)-\(call)", arrivalDelay: Int32(index % 600)))
            }
            return TestRealtime.tripUpdate("tu-\(index)", trip: trip, stops: stops)
        }
        message.entity = (0..<99_999).map(update)
        let first = try message.serializedData()
        /// The message with one more entity: a FeedMessage's entities are its field 2, so one is
        /// added by appending its key, its length and its bytes.
        func appending(_ entity: TransitRealtime_FeedEntity) throws -> Data {
            let bytes = try entity.serializedData()
            var data = first
            data.append(0x12)
            var length = bytes.count
            while length >= 0x80 {
                data.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            data.append(UInt8(length))
            return data + bytes
        }
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("region.pb")
            try appending(update(99_999)).write(to: url)
            let size = try #require(try url.resourceValues(forKeys: [.fileSizeKey]).fileSize)
            #expect(size > 8 * RealtimeEntities.blockSize, "the file spans many blocks: \(size) bytes")
            let feed = try RealtimeFeed.read(contentsOf: url, keeping: RealtimeInterest(tripIDs: ["DRAWN"]))
            #expect(feed.tripUpdates.map(\.stops.count) == [10, 10])

            // The last entity is checked too.
            try appending(TestRealtime.tripUpdate("bad", trip: TestRealtime.trip("T1"), stops: [.init(sequence: 1)])).write(to: url)
            let error = #expect(throws: GTFSError.self) { try RealtimeFeed.read(contentsOf: url, keeping: RealtimeInterest(tripIDs: ["DRAWN"])) }
            #expect(error?.description.hasPrefix("region.pb: entity[99999].trip_update.stop_time_update[0]: gives neither arrival nor departure") == true)
        }
    }

    @Test("more entities of a kind kept than any drawing needs is refused")
    func tooManyKept() throws {
        let entities = (0...RealtimeFeed.maxKept).map { TestRealtime.vehicle("v\($0)", trip: TestRealtime.trip("T1"), latitude: 57.7, longitude: 11.9) }
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.read(data(entities), file: "vehicles.pb", keeping: RealtimeInterest(tripIDs: ["T1"])) }
        #expect(error?.description == "vehicles.pb: holds more than 10000 entities of one kind about what is drawn; allowed up to 10000")
    }

    @Test("an entity larger than any real one is refused before it is read")
    func hugeEntity() throws {
        // Field 2, length-delimited, declaring 64 MiB.
        var bytes = try data([])
        bytes.append(contentsOf: [0x12, 0x80, 0x80, 0x80, 0x20])
        let error = #expect(throws: GTFSError.self) { try RealtimeFeed.read(bytes, file: "vehicles.pb") }
        #expect(error?.description.contains("entity[0] at byte") == true && error?.description.contains("declares 67108864 bytes; allowed up to 4 MiB") == true)
    }
}
