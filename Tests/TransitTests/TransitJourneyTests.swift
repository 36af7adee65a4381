import ImageCodec
import Foundation
import GTFS
import MapFrameTestSupport
import MapGeometry
import MapRender
import Testing
@testable import Transit

/// A journey from a feed, drawn at a moment: where the vehicle is, what is grey, which stops
/// are nodes, and what the sentence says.
@Suite struct TransitJourneyTests {
    static let tramLeg = TransitJourney.Plan.legs([.init(trip: "T7", board: "S3", alight: "S6")])
    static let transfer = TransitJourney.Plan.legs([.init(trip: "T7", board: "S3", alight: "S5"), .init(trip: "B60", board: "S5", alight: "S9")])

    private func map(_ plan: TransitJourney.Plan, following trip: String? = "T7", at time: String?) throws -> TransitMap {
        try withTemporaryDirectory { directory in
            let journey = try TransitJourney(plan, following: trip, in: TransitFeedFixture.open(in: directory))
            return journey.map(vehicle: time.map { .scheduled(GTFSTime(parsing: Substring($0))!) })
        }
    }

    @Test func aVehicleBetweenItsArrivalAndDepartureIsAtTheStop() throws {
        let map = try map(Self.tramLeg, at: "08:32:30")
        #expect(map.vehicle?.coordinate == Coordinate(latitude: 52.2, longitude: 0.14))
        #expect(map.vehicle?.label == "Tram 7 towards Castle Hill, at Newmarket Road")
        #expect(map.sentence == "Tram 7 is at Newmarket Road, the stop before yours. It arrives at 08:34.")
    }

    @Test func aVehicleBetweenStopsIsDrawnHalfwayAlongItsPath() throws {
        let map = try map(Self.tramLeg, at: "08:31:00")
        // Halfway along the shape's bend from S1 to S2 is its middle point.
        let vehicle = try #require(map.vehicle)
        #expect(abs(vehicle.coordinate.latitude - 52.202) < 1e-6 && abs(vehicle.coordinate.longitude - 0.145) < 1e-6)
        #expect(map.sentence == "Tram 7 is between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:34.")
        #expect(vehicle.name == "7" && vehicle.colour == Colour(hex: 0x0062A8) && vehicle.textColour == .white)
    }

    @Test func theSentenceFollowsTheVehicleToYourStopAndThenToWhereYouAlight() throws {
        #expect(try map(Self.tramLeg, at: "08:33:30").sentence == "Tram 7 is between Newmarket Road and your stop, Elizabeth Way. It arrives at 08:34.")
        #expect(try map(Self.tramLeg, at: "08:34:10").sentence == "Tram 7 is at your stop, Elizabeth Way. It leaves at 08:34.")
        #expect(try map(Self.tramLeg, at: "08:35:00").sentence == "Tram 7 is between Elizabeth Way and Midsummer Common, 2 stops before yours. It arrives at 08:41.")
        #expect(try map(Self.tramLeg, at: "08:41:00").sentence == "Tram 7 is at your stop, Market Square, where you alight.")
        #expect(try map(Self.tramLeg, at: "08:42:00").sentence == "Tram 7 has passed your stop, Market Square.")
        #expect(try map(Self.tramLeg, at: "08:50:00").sentence == "Tram 7 has reached the end of its trip at Castle Hill.")
        #expect(try map(Self.tramLeg, at: "08:00:00").sentence == "Tram 7 has not yet left Coldham's Lane, 1 stop before yours. It arrives at 08:34.")
    }

    @Test func timesPastMidnightAreTheSameServiceDay() throws {
        let plan = TransitJourney.Plan.legs([.init(trip: "N7", board: "S3", alight: "S7")])
        let late = try map(plan, following: "N7", at: "24:01:30")
        #expect(late.sentence == "Tram 7 is at Market Square, the stop before yours. It arrives at 00:04.")
        // Asked at 00:01:30 rather than 24:01:30, the trip is taken a day later.
        #expect(try map(plan, following: "N7", at: "00:01:30").sentence == late.sentence)
        #expect(try map(plan, following: "N7", at: "23:51:00").sentence?.hasPrefix("Tram 7 is between Coldham's Lane and Newmarket Road") == true)
    }

    @Test func theApproachRunsGreyFromTheVehicleToTheBoardingStop() throws {
        let map = try map(Self.tramLeg, at: "08:31:00")
        let approach = try #require(map.lines.first)
        #expect(approach.kind == .approach && approach.label == "Tram 7 towards Castle Hill, before your stop")
        #expect(approach.path.first == map.vehicle?.coordinate)
        #expect(approach.path.last == Coordinate(latitude: 52.2, longitude: 0.13))
        // Newmarket Road, between the vehicle and the boarding stop, has its dot.
        #expect(map.stops.contains { $0.role == .passed && $0.label == "Newmarket Road, 08:32" })
        // Once the vehicle has passed the boarding stop, there is nothing grey.
        #expect(try self.map(Self.tramLeg, at: "08:35:00").lines.allSatisfy { $0.kind == .ride })
        // With no vehicle followed, the approach is the whole trip before the boarding stop.
        let unfollowed = try self.map(Self.tramLeg, following: nil, at: nil)
        #expect(unfollowed.lines.first?.path.first == Coordinate(latitude: 52.2, longitude: 0.15))
        #expect(unfollowed.vehicle == nil && unfollowed.sentence == nil)
    }

    @Test func theLegFollowsItsShapeBetweenItsStops() throws {
        let ride = try #require(try map(Self.tramLeg, at: nil).lines.last)
        #expect(ride.kind == .ride)
        #expect(ride.path.first == Coordinate(latitude: 52.2, longitude: 0.13))
        #expect(ride.path.last == Coordinate(latitude: 52.2, longitude: 0.10))
        #expect(ride.path.contains(Coordinate(latitude: 52.202, longitude: 0.125)), "the shape's bends lie on the leg")
        #expect(!ride.path.contains(Coordinate(latitude: 52.202, longitude: 0.135)), "the shape before the boarding stop is not")
    }

    @Test func aTransferJourneyHasStartTransferAndEndNodes() throws {
        let map = try map(Self.transfer, at: "08:31:00")
        let nodes = map.stops.filter { $0.role != .passed }.map { "\($0.role.rawValue): \($0.label)" }
        #expect(nodes == [
            "start: Elizabeth Way, board tram 7 at 08:34",
            "transfer: Parker's Piece, transfer to bus 60 at 08:45",
            "end: Coleridge Café, alight from bus 60 at 08:49",
        ])
        #expect(map.lines.map(\.label) == ["Tram 7 towards Castle Hill, before your stop", "Tram 7 towards Castle Hill", "Bus 60 towards Cherry Hinton"])
        #expect(map.stops.filter { $0.role == .passed }.map(\.label) == ["Newmarket Road, 08:32", "Midsummer Common, 08:36", "Mill Road, 08:47"])
    }

    @Test func theDeparturesViewRidesToTheEndOfTheLineWithNoEndNode() throws {
        let map = try map(.departure(trip: "T7", stop: "S5"), at: "08:35:00")
        #expect(map.stops.contains { $0.role == .start && $0.label == "Parker's Piece, your stop, tram 7 at 08:39" })
        #expect(!map.stops.contains { $0.role == .end })
        #expect(map.stops.filter { $0.role == .passed }.map(\.label) == ["Midsummer Common, 08:36", "Market Square, 08:41", "Castle Hill, 08:44"])
        #expect(map.lines.last?.path.last == Coordinate(latitude: 52.2, longitude: 0.09))
        #expect(map.sentence == "Tram 7 is between Elizabeth Way and Midsummer Common, 1 stop before yours. It arrives at 08:38.")
    }

    @Test func aLineWithNoColourTakesItsModesColourAndTheBetterTextColour() throws {
        let map = try map(Self.transfer, following: "B60", at: "08:46:00")
        let bus = try #require(map.lines.last)
        #expect(bus.colour == TransitMode.bus.defaultColour)
        #expect(map.vehicle?.textColour == .white)
        #expect(map.sentence == "Bus 60 is between Parker's Piece and Mill Road, 1 stop before yours. It arrives at 08:49.")
    }

    @Test func everyDefaultLineColourStandsOutAgainstTheMap() {
        for mode in TransitMode.allCases {
            for background in TransitMode.mapColours {
                let ratio = ContrastRatio(mode.defaultColour, background)
                #expect(ratio.value >= 3, "\(mode) against \(background): \(ratio)")
            }
        }
    }

    @Test func timesLeftOutAreInterpolatedByDistance() throws {
        // X9 has no times at S2 and S3, a third and two thirds of the way from 09:00 to 09:03.
        let plan = TransitJourney.Plan.legs([.init(trip: "X9", board: "S1", alight: "S4")])
        let map = try map(plan, following: "X9", at: "09:01:00")
        #expect(map.vehicle?.label == "Airport Express towards Midsummer Common, at Newmarket Road")
        #expect(map.stops.filter { $0.role == .passed }.map(\.label) == ["Newmarket Road, 09:01", "Elizabeth Way, 09:02"])
        // A line with no short name is named by its long name, on its icon too; yellow takes black text.
        #expect(map.vehicle?.name == "Airport Express" && map.vehicle?.textColour == .black)
    }

    @Test(arguments: [
        (TransitJourney.Plan.legs([.init(trip: "T9", board: "S1", alight: "S2")]), nil as String?,
         "legs[0].trip: \"T9\" is not a trip in the feed's trips.txt, nor in a realtime file's trip updates"),
        (.legs([.init(trip: "T7", board: "S9", alight: "S2")]), nil,
         "legs[0].board: \"S9\" is not a stop of trip T7; allowed \"S1\", \"S2\", \"S3\", \"S4\", \"S5\", \"S6\" or \"S7\""),
        (.legs([.init(trip: "T7", board: "S4", alight: "S2")]), nil,
         "legs[0].alight: \"S2\" does not come after the boarding stop \"S4\" on trip T7; allowed \"S5\", \"S6\" or \"S7\""),
        (.legs([.init(trip: "T7", board: "S4", alight: "S9")]), nil,
         "legs[0].alight: \"S9\" is not a stop of trip T7; allowed \"S5\", \"S6\" or \"S7\""),
        (.legs([.init(trip: "T7", board: "S1", alight: "S2")]), "B60",
         "vehicle.trip: \"B60\" is not a trip of the journey; allowed \"T7\""),
        (.departure(trip: "T7", stop: "S7"), nil,
         "departure.stop: \"S7\" is the last stop of trip T7, so nothing departs from it; allowed \"S1\", \"S2\", \"S3\", \"S4\", \"S5\" or \"S6\""),
    ])
    func aJourneyTheFeedCannotMakeIsRefusedNamingTheFieldAndWhatIsAllowed(plan: TransitJourney.Plan, vehicle: String?, expected: String) throws {
        try withTemporaryDirectory { directory in
            let feed = try TransitFeedFixture.open(in: directory)
            let error = #expect(throws: TransitError.self) { try TransitJourney(plan, following: vehicle, in: feed) }
            #expect(error?.description == expected)
        }
    }

    @Test func aRealtimeReportPlacesTheVehicleByItsStopAndStatus() throws {
        try withTemporaryDirectory { directory in
            let journey = try TransitJourney(Self.tramLeg, following: "T7", in: TransitFeedFixture.open(in: directory))
            func sentence(_ vehicle: RealtimeVehicle) -> String? { journey.map(vehicle: .realtime(vehicle)).sentence }
            let stopped = RealtimeVehicle(tripID: "T7", coordinate: nil, bearing: nil, currentStopSequence: 2, stopID: nil, status: .stoppedAt)
            #expect(sentence(stopped) == "Tram 7 is at Newmarket Road, the stop before yours. It arrives at 08:34.")
            let coming = RealtimeVehicle(tripID: "T7", coordinate: nil, bearing: nil, currentStopSequence: nil, stopID: "S2", status: .inTransitTo)
            #expect(sentence(coming) == "Tram 7 is between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:34.")
            // A position alone is placed along the trip; the icon stands where the report says.
            let position = Coordinate(latitude: 52.2021, longitude: 0.1352)
            let placed = RealtimeVehicle(tripID: "T7", coordinate: position, bearing: 270, currentStopSequence: nil, stopID: nil, status: .inTransitTo)
            #expect(sentence(placed) == "Tram 7 is between Newmarket Road and your stop, Elizabeth Way. It arrives at 08:34.")
            #expect(journey.map(vehicle: .realtime(placed)).vehicle?.coordinate == position)
        }
    }
}
