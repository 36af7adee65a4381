import Foundation
import GTFS
import MapFrameTestSupport
import MapRender
import Testing
@testable import Transit

/// A stop's departure board, from a feed and realtime files written for these tests
/// (`BoardFeedFixture`): which trips run on the date, frequency-based runs, service days past
/// midnight, calls with no time of their own, and what TripUpdates and Alerts change.
@Suite struct DeparturesTests {
    private func rows(_ departures: Departures) -> [String] {
        departures.board.rows.map { "\($0.line.name) \($0.destination) \($0.time) \($0.minutes)" + ($0.note.map { " (\($0))" } ?? "") }
    }

    @Test func aStationsBoardTakesItsPlatformsAndOnlyTheTripsThatRunThatDay() throws {
        try withTemporaryDirectory { directory in
            let departures = try BoardFeedFixture.departures(in: directory)
            #expect(rows(departures) == [
                "2 ירושלים 08:09 ca 4",
                "1 Hill 08:13 ca 8",
                "S Campus 08:14 ca 9 (Every 10 min)",
                "S Campus 08:17 ca 12",
                "1 Hill 08:23 ca 18",
                "S Campus 08:24 ca 19 (Every 10 min)",
                "S Campus 08:32 ca 27",
                "S Campus 08:34 ca 29 (Every 10 min)",
            ])
            let board = departures.board
            #expect(board.title == "Plaza" && board.subtitle == "Departures at 08:05" && board.notices.isEmpty)
            #expect(departures.moment == BoardFeedFixture.eightOhFive)
            // Tram 1's trip ending here arrives at 08:07 and departs from nowhere; bus 2's run that
            // takes nobody on at the station (pickup_type 1) is no departure either.
            #expect(!departures.departures.contains { $0.tripID == "T1-END" || $0.tripID == "B2-DROP" })
            #expect(board.rows[0].spokenCells == ["Bus 2", "ירושלים", "08:09", "in about 4 minutes, by the timetable"])
        }
    }

    @Test func aPlatformsBoardIsThatPlatformsAlone() throws {
        try withTemporaryDirectory { directory in
            let departures = try BoardFeedFixture.departures(at: "P1", count: 3, in: directory)
            #expect(rows(departures) == ["1 Hill 08:13 ca 8", "S Campus 08:17 ca 12", "1 Hill 08:23 ca 18"])
        }
    }

    @Test func calendarDatesRemoveAWeekdayAndServeASaturdayAlone() throws {
        try withTemporaryDirectory { directory in
            // Friday 15 March is taken out of the weekday service, and nothing else runs in the next 24 hours.
            let friday = try BoardFeedFixture.departures(on: GTFSDate(year: 2024, month: 3, day: 15)!, in: directory)
            #expect(friday.departures.isEmpty && friday.board.emptyText == "No departures in the next 24 hours")
            let saturday = try BoardFeedFixture.departures(on: GTFSDate(year: 2024, month: 3, day: 16)!, time: "08:55:00", in: directory)
            #expect(rows(saturday) == ["1 Hill 09:03 ca 8"])
        }
    }

    @Test func aFeedServedByCalendarDatesAloneRunsOnTheDatesItLists() throws {
        try withTemporaryDirectory { directory in
            var feed = BoardFeedFixture.feed
            feed.files["calendar.txt"] = nil
            feed.setTable("calendar_dates.txt", ["service_id", "date", "exception_type"], [["WK", "20240313", "1"], ["SAT", "20240316", "1"]])
            try feed.write(to: directory)
            let opened = try GTFSFeed.open(at: directory)
            func board(on date: GTFSDate, at time: String) throws -> [String] {
                rows(try Departures(at: "P1", on: date, time: GTFSTime(parsing: Substring(time))!, count: 1, in: opened) { _ in RealtimeFeed() })
            }
            #expect(try board(on: BoardFeedFixture.wednesday, at: "08:05:00") == ["1 Hill 08:13 ca 8"])
            // Thursday is listed for neither service: the next departure is Saturday's.
            #expect(try board(on: BoardFeedFixture.wednesday.adding(days: 1), at: "08:05:00") == [])
            #expect(try board(on: GTFSDate(year: 2024, month: 3, day: 16)!, at: "08:55:00") == ["1 Hill 09:03 ca 8"])
        }
    }

    @Test func aTripOfYesterdaysServiceLeavesAfterMidnightUpTo29Hours() throws {
        try withTemporaryDirectory { directory in
            // Tuesday's night tram leaves the station at 24:20:00 of Tuesday's service: 00:20 on Wednesday.
            let late = try BoardFeedFixture.departures(at: "P1", time: "0:10:00", count: 1, in: directory)
            #expect(rows(late) == ["1 Hill 00:20 ca 10"], "its headsign is its last stop's name")
            #expect(late.departures[0].serviceDate == GTFSDate(year: 2024, month: 3, day: 12))
            // And reaches its last stop but one at 29:30:00: 05:30.
            let early = try BoardFeedFixture.departures(at: "Q", time: "5:25:00", count: 1, in: directory)
            #expect(rows(early) == ["1 Hill 05:30 ca 5"])
            #expect(early.board.title == "תחנה מרכזית", "a right-to-left name is kept as written, in logical order")
        }
    }

    @Test func frequencyBasedRunsAreExpandedExactOrAbout() throws {
        try withTemporaryDirectory { directory in
            let departures = try BoardFeedFixture.departures(at: "P", time: "08:40:00", count: 4, in: directory)
            let shuttle = departures.departures.filter { $0.routeID == "RS" }
            // The exact runs leave at 08:00, 08:15, 08:30 and 08:45, and none at 09:00, the period's end.
            #expect(shuttle.filter { $0.tripID == "S-EXACT" }.map(\.runStart) == [GTFSTime(parsing: "08:45:00")])
            #expect(shuttle.filter { $0.tripID == "S-LOOP" }.allSatisfy { $0.headway == 600 })
            // No run of the exact period leaves at or after 09:00: after the night tram, the
            // platform's next shuttle is Thursday's first run, at 08:02.
            let late = try BoardFeedFixture.departures(at: "P1", time: "08:50:00", count: 2, in: directory)
            // Over an hour away, the time says when and the minutes are left out, but said.
            #expect(rows(late) == ["1 Hill 00:20 ", "S Campus 08:02 "])
            #expect(late.board.rows[1].spokenCells[3] == "in about 23 hours 12 minutes, by the timetable")
            #expect(late.departures[1].serviceDate == BoardFeedFixture.wednesday.adding(days: 1))
        }
    }

    @Test func tripUpdatesGiveLiveMinutesCancelSkipAndAdd() throws {
        let updates = TestRealtime.message(timestamp: UInt64(BoardFeedFixture.eightOhFive), [
            // Tram 1 of 08:00 runs 5 minutes late, so has not left yet.
            TestRealtime.tripUpdate("a", trip: TestRealtime.trip("T1-0800", startDate: "20240313"), stops: [.init(sequence: 1, departureDelay: 300)]),
            // Of 08:10, 2 minutes late from the station on.
            TestRealtime.tripUpdate("b", trip: TestRealtime.trip("T1-0810"), stops: [.init(stopID: "P1", arrivalDelay: 120)]),
            TestRealtime.tripUpdate("c", trip: TestRealtime.trip("T1-0820", relationship: .canceled)),
            // The exact shuttle's 08:15 run passes the station by.
            TestRealtime.tripUpdate("d", trip: TestRealtime.trip("S-EXACT", startTime: "08:15:00"), stops: [.init(sequence: 2, relationship: .skipped)]),
            // An extra tram the timetable lacks.
            TestRealtime.tripUpdate(
                "e", trip: TestRealtime.trip("T1-EXTRA", route: "R1", relationship: .added),
                stops: [.init(stopID: "P1", departureTime: Int64(BoardFeedFixture.at("08:11:00"))), .init(stopID: "Z", arrivalTime: Int64(BoardFeedFixture.at("08:16:00")))],
                headsign: "Hill"
            ),
        ])
        try withTemporaryDirectory { directory in
            let departures = try BoardFeedFixture.departures(realtime: [updates], in: directory)
            #expect(Array(rows(departures).prefix(7)) == [
                "1 Hill 08:08 3 (5 min late)",
                "2 ירושלים 08:09 ca 4",
                "1 Hill 08:11 6 (Extra trip)",
                "S Campus 08:14 ca 9 (Every 10 min)",
                "1 Hill 08:15 10 (2 min late)",
                "S Campus 08:17  (Does not stop here)",
                "1 Hill 08:23  (Cancelled)",
            ])
            let board = departures.board
            #expect(board.rows[0].isLive && !board.rows[1].isLive)
            #expect(board.rows[6].state == .cancelled && board.rows[6].spokenCells[3] == "cancelled")
            #expect(board.rows[2].state == .extra && departures.departures[2].scheduled == nil)
            #expect(board.rows[0].spokenCells == ["Tram 1", "Hill, 5 minutes late", "08:08", "in 3 minutes, live"])
        }
    }

    @Test func onlyTheAlertsInForceThatTouchTheBoardAreShown() throws {
        let now = UInt64(BoardFeedFixture.eightOhFive)
        let alerts = TestRealtime.message(timestamp: now, [
            TestRealtime.alert("tram", header: "Tram 1 runs every 20 minutes", informing: [.init(route: "R1")], periods: [(now - 600, now + 600)]),
            TestRealtime.alert("elsewhere", header: "Line 9 is diverted", informing: [.init(route: "R9")]),
            TestRealtime.alert("over", header: "Bus 2 replaced", informing: [.init(route: "R2")], periods: [(now - 7200, now - 3600)]),
            TestRealtime.alert("later", header: "Works tonight", informing: [.init(route: "R2")], periods: [(now + 3600, nil)]),
            TestRealtime.alert("lift", header: "The lift at Plaza is out of order", informing: [.init(stop: "P")]),
            TestRealtime.alert("other stop", header: "Hill stop moved", informing: [.init(stop: "Z")]),
            TestRealtime.alert("tram at hill", header: "Tram 1 does not stop at Hill", informing: [.init(route: "R1", stop: "Z")]),
            TestRealtime.alert("shuttles", header: "All buses late", informing: [.init(routeType: 3)]),
        ])
        try withTemporaryDirectory { directory in
            let departures = try BoardFeedFixture.departures(realtime: [alerts], in: directory)
            #expect(departures.notices.map(\.text) == ["Tram 1 runs every 20 minutes", "The lift at Plaza is out of order", "All buses late"])
            #expect(departures.notices[0].lines.map(\.name) == ["1"] && departures.notices[1].lines.isEmpty)
            #expect(Set(departures.notices[2].lines.map(\.name)) == ["2", "S"])
            #expect(departures.notices[0].label == "Disturbance on tram 1: Tram 1 runs every 20 minutes")
        }
    }

    @Test func aBadRealtimeFileNamesTheFileTheEntityAndTheField() throws {
        let alerts = TestRealtime.message(timestamp: 1, [
            TestRealtime.alert("0", header: "a", informing: [.init(route: "R1")]), TestRealtime.alert("1", header: "b", informing: [.init(route: "R1")]),
            TestRealtime.alert("2", header: "c", informing: [.init(route: "R1")]), TestRealtime.alert("3", header: "d", informing: [.init()]),
        ])
        try withTemporaryDirectory { directory in
            let error = #expect(throws: TransitError.self) { try BoardFeedFixture.departures(realtime: [alerts], in: directory) }
            #expect(error?.description == "realtime: realtime-0.pb: entity[3].alert.informed_entity[0]: names no route, trip or stop (nor an agency or route type); allowed at least one")
        }
    }

    @Test func aStopTheFeedLacksOrAFeedWithNoCalendarIsRefused() throws {
        try withTemporaryDirectory { directory in
            let unknown = #expect(throws: TransitError.self) { try BoardFeedFixture.departures(at: "NOWHERE", in: directory) }
            #expect(unknown?.description == "stop: \"NOWHERE\" is not a stop in the feed's stops.txt")
        }
        try withTemporaryDirectory { directory in
            var feed = TransitFeedFixture.feed
            feed.files["calendar.txt"] = nil
            try feed.write(to: directory)
            let opened = try GTFSFeed.open(at: directory)
            let error = #expect(throws: TransitError.self) {
                try Departures(at: "S5", on: BoardFeedFixture.wednesday, time: GTFSTime(seconds: 0), count: 1, in: opened) { _ in RealtimeFeed() }
            }
            #expect(error?.description.hasPrefix("feed: has neither calendar.txt nor calendar_dates.txt") == true)
        }
    }

    @Test func aTripsServiceNotInTheCalendarIsRefusedByItsLine() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: GTFSError.self) {
                try BoardFeedFixture.open(in: directory, changing: ["trips.txt": BoardFeedFixture.feed.files["trips.txt"]!.replacingOccurrences(of: "R1,SAT,", with: "R1,SUN,")])
            }
            #expect(error?.description == "trips.txt line 9, column service_id: \"SUN\" is in neither calendar.txt nor calendar_dates.txt; allowed the service_id of a row of either")
        }
    }
}
