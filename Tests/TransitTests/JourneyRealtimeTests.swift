import Foundation
import ImageCodec
import GTFS
import MapFrameTestSupport
import MapGeometry
import MapRender
import SwiftProtobuf
import Testing
@testable import Transit

/// A journey drawn with what realtime files say of it, the files built through the generated
/// protobuf code and read as a server reads them: TripUpdates' delays in the sentence and the
/// times, cancelled trips and skipped stops, trips the timetable lacks, the alerts that concern
/// the journey, vehicles that name only their route, and a shape that stops short of its stops.
@Suite struct JourneyRealtimeTests {
    static let tramLeg = TransitJourney.Plan.legs([.init(trip: "T7", board: "S3", alight: "S6")])
    /// Friday 15 March 2024, the service day of the tests' trips.
    static let friday = GTFSDate(year: 2024, month: 3, day: 15)!
    static let london = TimeZone(identifier: "Europe/London")!

    /// `clock` on Friday in London, in seconds since 1970.
    static func at(_ clock: String) -> Int {
        friday.serviceDayStart(in: london) + GTFSTime(parsing: Substring(clock))!.seconds
    }

    /// `message` serialized, then read back as a realtime file named `file`.
    private func read(_ message: TransitRealtime_FeedMessage, file: String = "realtime.pb") throws -> RealtimeFeed {
        try RealtimeFeed.read(message.serializedData(), file: file)
    }

    private func journey(
        _ entities: [TransitRealtime_FeedEntity], plan: TransitJourney.Plan = tramLeg, following trip: String = "T7", in directory: URL,
        changing changes: [String: String] = [:]
    ) throws -> TransitJourney {
        let live = try read(TestRealtime.message(timestamp: UInt64(Self.at("08:33:00")), entities))
        return try TransitJourney(plan, following: trip, in: TransitFeedFixture.open(in: directory, changing: changes), realtime: live, date: Self.friday)
    }

    @Test func aTripUpdatesDelayIsSaidInTheSentenceAndMovesTheTimes() throws {
        try withTemporaryDirectory { directory in
            // Three minutes late from Newmarket Road on; the stops before it keep the timetable.
            let update = TestRealtime.tripUpdate("late", trip: TestRealtime.trip("T7", startDate: "20240315"), stops: [.init(sequence: 2, arrivalDelay: 180)])
            let journey = try journey([update], in: directory)
            // With no position, the vehicle is where the predicted times put it.
            let time = try #require(journey.serviceTime(at: Self.at("08:33:00")))
            let map = journey.map(vehicle: .scheduled(time))
            #expect(map.sentence == "Tram 7 is 3 minutes late, between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:37.")
            #expect(map.stops.first { $0.role == .start }?.label == "Elizabeth Way, board tram 7 at 08:37")
            // An early one is said so, and one on time says nothing of it.
            let early = try self.journey([TestRealtime.tripUpdate("early", trip: TestRealtime.trip("T7"), stops: [.init(sequence: 1, departureDelay: -60)])], in: directory)
            #expect(early.map(vehicle: .scheduled(GTFSTime(parsing: "08:30:30")!)).sentence?.hasPrefix("Tram 7 is 1 minute early, between Coldham's Lane and Newmarket Road") == true)
            let onTime = try self.journey([TestRealtime.tripUpdate("on time", trip: TestRealtime.trip("T7"), delay: 20)], in: directory)
            #expect(onTime.map(vehicle: .scheduled(GTFSTime(parsing: "08:31:00")!)).sentence == "Tram 7 is on time, between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:34.")
        }
    }

    @Test func aCancelledTripHasNoVehicleAndSaysSo() throws {
        try withTemporaryDirectory { directory in
            let journey = try journey([TestRealtime.tripUpdate("gone", trip: TestRealtime.trip("T7", relationship: .canceled))], in: directory)
            let map = journey.map(vehicle: .scheduled(GTFSTime(parsing: "08:31:00")!))
            #expect(map.vehicle == nil)
            #expect(map.sentence == "Tram 7 towards Castle Hill is cancelled.")
        }
    }

    @Test func aSkippedStopIsSaidOnTheMapAndInTheSentence() throws {
        try withTemporaryDirectory { directory in
            // Newmarket Road passed by; then Elizabeth Way, your stop, too.
            let plan = TransitJourney.Plan.legs([.init(trip: "T7", board: "S1", alight: "S4")])
            let fromStart = try journey([TestRealtime.tripUpdate("skip", trip: TestRealtime.trip("T7"), stops: [.init(sequence: 2, relationship: .skipped)])], plan: plan, in: directory)
            #expect(fromStart.map(vehicle: nil).stops.contains { $0.label == "Newmarket Road, skipped" })
            let yours = try journey([TestRealtime.tripUpdate("skip yours", trip: TestRealtime.trip("T7"), stops: [.init(sequence: 3, relationship: .skipped)])], in: directory)
            #expect(yours.map(vehicle: .scheduled(GTFSTime(parsing: "08:31:00")!)).sentence == "Tram 7 does not stop at your stop, Elizabeth Way.")
        }
    }

    @Test(arguments: [TransitRealtime_TripDescriptor.ScheduleRelationship.added, .scheduled])
    func aTripTheTimetableLacksIsDrawnFromItsTripUpdate(relationship: TransitRealtime_TripDescriptor.ScheduleRelationship) throws {
        try withTemporaryDirectory { directory in
            // An extra tram: ADDED, or (as some agencies publish it) SCHEDULED on a trip_id trips.txt lacks.
            let extra = TestRealtime.tripUpdate(
                "extra", trip: TestRealtime.trip("T7-EXTRA", route: "R7", startDate: "20240315", relationship: relationship),
                stops: [
                    .init(stopID: "S3", departureTime: Int64(Self.at("08:50:00"))), .init(stopID: "S4", arrivalTime: Int64(Self.at("08:52:00"))),
                    .init(stopID: "S5", arrivalTime: Int64(Self.at("08:54:00"))),
                ],
                headsign: "Parker's Piece"
            )
            let plan = TransitJourney.Plan.legs([.init(trip: "T7-EXTRA", board: "S3", alight: "S5")])
            let journey = try journey([extra], plan: plan, following: "T7-EXTRA", in: directory)
            let map = journey.map(vehicle: .scheduled(GTFSTime(parsing: "08:51:00")!))
            #expect(map.vehicle?.label == "Tram 7 towards Parker's Piece, between Elizabeth Way and Midsummer Common, an extra trip")
            #expect(map.vehicle?.colour == Colour(hex: 0x0062A8), "in its route's colours")
            #expect(map.sentence == "Tram 7 is between Elizabeth Way and Midsummer Common, 1 stop before yours. It arrives at 08:54.")
            #expect(map.stops.last?.label == "Parker's Piece, alight from tram 7 at 08:54")
        }
    }

    @Test func aTripTheTimetableAndTheTripUpdatesLackIsRefusedNamingBoth() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: TransitError.self) {
                try journey([], plan: .legs([.init(trip: "T99", board: "S3", alight: "S5")]), following: "T99", in: directory)
            }
            #expect(error?.description == "legs[0].trip: \"T99\" is not a trip in the feed's trips.txt, nor in a realtime file's trip updates")
        }
    }

    @Test func onlyTheAlertsInForceThatTouchTheJourneyAreItsBanner() throws {
        let now = UInt64(Self.at("08:33:00"))
        try withTemporaryDirectory { directory in
            let plan = TransitJourney.Plan.legs([.init(trip: "T7", board: "S3", alight: "S5"), .init(trip: "B60", board: "S5", alight: "S9")])
            let journey = try journey([
                TestRealtime.alert("tram", header: "Tram 7 runs every 20 minutes", informing: [.init(route: "R7")], periods: [(now - 60, now + 60)]),
                TestRealtime.alert("airport", header: "No airport trains", informing: [.init(route: "R9")]),
                TestRealtime.alert("later", header: "Bus 60 diverted tonight", informing: [.init(route: "R60")], periods: [(now + 3600, nil)]),
                TestRealtime.alert("stop", header: "Parker's Piece stop closed", informing: [.init(stop: "S5")]),
                TestRealtime.alert("elsewhere", header: "Coldham's Lane stop moved", informing: [.init(stop: "S1")]),
                TestRealtime.alert("bus trip", header: "Your bus is full", informing: [.init(trip: "B60")]),
                TestRealtime.alert("bus at S1", header: "Bus 60 does not call at Coldham's Lane", informing: [.init(route: "R60", stop: "S1")]),
                TestRealtime.alert("agency", header: "Strike on Monday", informing: [.init(agency: "FT")], description: "All lines"),
            ], plan: plan, in: directory)
            let notices = journey.map(vehicle: nil, alertsAt: Int(now)).notices
            #expect(notices.map(\.text) == ["Tram 7 runs every 20 minutes", "Parker's Piece stop closed", "Your bus is full", "Strike on Monday"])
            #expect(notices[0].lines.map(\.name) == ["7"] && notices[1].lines.isEmpty && notices[2].lines.map(\.name) == ["60"])
            #expect(notices[3].lines.map(\.name) == ["7", "60"])
            #expect(notices[3].label == "Disturbance on tram 7 and bus 60: Strike on Monday")
            // Asked for no moment, every alert about the journey is shown, in force or not.
            #expect(journey.map(vehicle: nil).notices.count == 5)
        }
    }

    @Test func aVehicleNamingOnlyItsRouteIsMatchedToTheRunItIsNearest() throws {
        // The campus shuttle's trips are all frequency-based, and its trackers name no trip.
        try withTemporaryDirectory { directory in
            let feed = try BoardFeedFixture.open(in: directory)
            let moment = BoardFeedFixture.at("08:12:00")
            // The run of 08:10 leaves Campus at 08:10 and reaches Plaza at 08:14: two minutes in,
            // halfway there; the 08:00's is back at Campus.
            let campus = feed.stops["C"]!.coordinate, plaza = feed.stops["P2"]!.coordinate
            func between(_ fraction: Double) -> Coordinate {
                Coordinate(latitude: campus.latitude + (plaza.latitude - campus.latitude) * fraction, longitude: campus.longitude + (plaza.longitude - campus.longitude) * fraction)
            }
            let outbound = RealtimeVehicle(routeID: "RS", label: "bus 12", coordinate: between(0.5), timestamp: moment)
            let returning = RealtimeVehicle(routeID: "RS", label: "bus 14", coordinate: between(0.2), timestamp: moment)
            let run = GTFSTime(parsing: "08:10:00")!
            let matched = try RouteVehicleMatch.vehicle(for: "S-LOOP", run: run, among: [returning, outbound], moment: moment, date: BoardFeedFixture.wednesday, in: feed)
            #expect(matched?.label == "bus 12")
            // The vehicle near Campus is nearer another run (the 08:00's, back, or the 08:20's, waiting).
            #expect(try RouteVehicleMatch.vehicle(for: "S-LOOP", run: run, among: [returning], moment: moment, date: BoardFeedFixture.wednesday, in: feed) == nil)
            // Drawn, the vehicle stands where it reported itself, and its label says how it was matched.
            let journey = try TransitJourney(.departure(trip: "S-LOOP", stop: "P2", start: run), following: "S-LOOP", in: feed)
            let map = journey.map(vehicle: .realtime(outbound))
            #expect(map.vehicle?.coordinate == outbound.coordinate)
            #expect(map.vehicle?.label == "Bus S towards Campus, between Campus and Plaza (matched to its trip by its route and position)")
            #expect(map.sentence == "Bus S is between Campus and your stop, Plaza. It arrives at 08:14.")
        }
    }

    @Test func aVehicleOnATripTheFeedLacksIsMatchedByItsRouteAmongHundreds() throws {
        try withTemporaryDirectory { directory in
            let feed = try TransitFeedFixture.open(in: directory)
            let moment = Self.at("08:31:00")
            // 400 buses of other routes, 300 vehicles on trips of their own, and tram 7 on a trip
            // the realtime system names "T7-20240315-1", which trips.txt lacks.
            var vehicles = (0..<400).map { index in
                RealtimeVehicle(routeID: "R\(100 + index)", coordinate: Coordinate(latitude: 52.19 + Double(index) * 1e-5, longitude: 0.12), timestamp: moment)
            }
            vehicles += (0..<300).map { index in
                RealtimeVehicle(tripID: "OTHER-\(index)", routeID: "R9", coordinate: Coordinate(latitude: 52.21, longitude: 0.1 + Double(index) * 1e-5), timestamp: moment)
            }
            let tram = RealtimeVehicle(tripID: "T7-20240315-1", routeID: "R7", label: "tram 3021", coordinate: Coordinate(latitude: 52.2018, longitude: 0.1452), timestamp: moment)
            vehicles.insert(tram, at: 350)
            let matched = try RouteVehicleMatch.vehicle(for: "T7", run: nil, among: vehicles, moment: moment, date: Self.friday, in: feed)
            #expect(matched == tram)
            let journey = try TransitJourney(Self.tramLeg, following: "T7", in: feed)
            let label = journey.map(vehicle: .realtime(tram)).vehicle?.label
            #expect(label == "Tram 7 towards Castle Hill, between Coldham's Lane and Newmarket Road (reported on trip T7-20240315-1, which the timetable does not have; matched to its trip by its route and position)")
            // A vehicle on a trip the feed has is that trip's, and never matched to another.
            let onN7 = RealtimeVehicle(tripID: "N7", routeID: "R7", coordinate: tram.coordinate, timestamp: moment)
            #expect(try RouteVehicleMatch.vehicle(for: "T7", run: nil, among: [onN7], moment: moment, date: Self.friday, in: feed) == nil)
        }
    }

    @Test func whereTheShapeFallsShortTheLineRunsOnFromStopToStopMarkedEstimated() throws {
        // As BART's 2019 Antioch trips: the shape starts two stops into the trip.
        let shape = TransitFeedFixture.feed.files["shapes.txt"]!.split(separator: "\n").enumerated().filter { $0.offset == 0 || $0.offset > 4 }.map(\.element).joined(separator: "\n") + "\n"
        try withTemporaryDirectory { directory in
            let feed = try TransitFeedFixture.open(in: directory, changing: ["shapes.txt": shape])
            let journey = try TransitJourney(.legs([.init(trip: "T7", board: "S1", alight: "S5")]), following: "T7", in: feed)
            let map = journey.map(vehicle: .scheduled(GTFSTime(parsing: "08:31:00")!))
            let lines = map.lines.filter { $0.kind == .ride }
            #expect(lines.map(\.isEstimated) == [true, false])
            // The estimate joins the start node to the shape, through the stop between, with no gap.
            #expect(lines[0].path.first == feed.stops["S1"]!.coordinate && lines[0].path.contains(feed.stops["S2"]!.coordinate))
            #expect(lines[0].path.last == lines[1].path.first && lines[1].path.first == feed.stops["S3"]!.coordinate)
            #expect(lines[0].label == "Tram 7 towards Castle Hill, estimated from stop to stop")
            // The vehicle on the estimated stretch is on it, between the stops.
            #expect(map.sentence == "Tram 7 is between Coldham's Lane and Newmarket Road, 3 stops before yours. It arrives at 08:38.")
        }
    }
}
