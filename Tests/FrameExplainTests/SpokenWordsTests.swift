import FrameExplain
import Testing

@Suite struct SpokenWordsTests {
    @Test func compassPointsAreWordsOfEightPoints() {
        #expect(CompassPoint(bearing: 0) == .north)
        #expect(CompassPoint(bearing: 143) == .southEast)
        #expect(CompassPoint(bearing: 202.4) == .south)
        #expect(CompassPoint(bearing: 202.6) == .southWest)
        #expect(CompassPoint(bearing: -45) == .northWest)
        #expect(CompassPoint(bearing: 359) == .north)
        #expect(CompassPoint(bearing: 720 + 90) == .east)
        #expect(CompassPoint.southWest.rawValue == "south-west")
    }

    @Test func distancesAreMetresThenKilometres() {
        #expect(SpokenMeasure.distance(metres: 2) == "less than 5 metres")
        #expect(SpokenMeasure.distance(metres: 304) == "300 metres")
        #expect(SpokenMeasure.distance(metres: 995) == "1 kilometre")
        #expect(SpokenMeasure.distance(metres: 2345) == "2.3 kilometres")
        #expect(SpokenMeasure.distance(metres: 12_600) == "13 kilometres")
    }

    @Test func durationsAreMinutesAndHours() {
        #expect(SpokenMeasure.duration(seconds: 10) == "1 minute")
        #expect(SpokenMeasure.duration(seconds: 143) == "2 minutes")
        #expect(SpokenMeasure.duration(seconds: 3600) == "1 hour")
        #expect(SpokenMeasure.duration(seconds: 3900) == "1 hour 5 minutes")
        #expect(SpokenMeasure.list(["a", "b", "c"]) == "a, b and c")
    }
}
