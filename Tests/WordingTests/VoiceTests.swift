import Testing
import Wording

@Suite struct VoiceTests {
    static let english = Voice.britishEnglish
    static let swedish = Voice(language: .swedish, units: .metric)
    static let imperial = Voice(language: .britishEnglish, units: .imperial)

    @Test func compassPointsAreWordsOfEightPoints() {
        #expect(CompassPoint(bearing: 0) == .north)
        #expect(CompassPoint(bearing: 143) == .southEast)
        #expect(CompassPoint(bearing: 202.4) == .south)
        #expect(CompassPoint(bearing: 202.6) == .southWest)
        #expect(CompassPoint(bearing: -45) == .northWest)
        #expect(CompassPoint(bearing: 359) == .north)
        #expect(CompassPoint(bearing: 720 + 90) == .east)
        #expect(Self.english.say(CompassPoint.southWest.name) == "south-west")
        #expect(Self.swedish.say(CompassPoint.southWest.name) == "sydväst")
        #expect(Self.swedish.say(CompassPoint.north.heading) == "norrut")
    }

    @Test func clockPositionsAreHoursFromTwelveAtTheTop() {
        #expect(ClockPosition(bearing: 0).hour == 12)
        #expect(ClockPosition(bearing: 14).hour == 12)
        #expect(ClockPosition(bearing: 16).hour == 1)
        #expect(ClockPosition(bearing: 90).hour == 3)
        #expect(ClockPosition(bearing: -90).hour == 9)
        #expect(Self.english.say(ClockPosition(bearing: 60).phrase) == "at 2 o'clock")
        #expect(Self.swedish.say(ClockPosition(bearing: 60).phrase) == "på klockan 2")
    }

    @Test func turnsAreClassedBySharpness() {
        #expect(Turn(change: 10) == .straightOn && Turn(change: -19.9) == .straightOn)
        #expect(Turn(change: 30) == .bearRight && Turn(change: -30) == .bearLeft)
        #expect(Turn(change: 90) == .turnRight && Turn(change: -100) == .turnLeft)
        #expect(Turn(change: 140) == .sharpRight && Turn(change: 175) == .turnBack)
    }

    @Test func distancesAreMetresThenKilometresInTheLocalesNumbers() {
        func both(_ metres: Double) -> (String, String) { (Self.english.say(.distance(metres: metres)), Self.swedish.say(.distance(metres: metres))) }
        #expect(both(2) == ("less than 5 metres", "mindre än 5 meter"))
        #expect(both(304) == ("300 metres", "300 meter"))
        #expect(both(995) == ("1 kilometre", "1 kilometer"))
        #expect(both(2345) == ("2.3 kilometres", "2,3 kilometer"))
        #expect(both(12_600) == ("13 kilometres", "13 kilometer"))
        #expect(Self.english.say(.length(metres: 65)) == "65 metres" && Self.english.say(.length(metres: 1)) == "1 metre")
        #expect(Self.english.say(.count(100_000)) == "100,000")
        #expect(Self.swedish.say(.count(100_000)) == "100\u{A0}000")
    }

    @Test func imperialDistancesAreYardsThenMiles() {
        #expect(Self.imperial.say(.distance(metres: 2)) == "less than 5 yards")
        #expect(Self.imperial.say(.distance(metres: 100)) == "110 yards")
        #expect(Self.imperial.say(.distance(metres: 400)) == "440 yards" || Self.imperial.say(.distance(metres: 400)) == "0.2 miles")
        #expect(Self.imperial.say(.distance(metres: 1609.344)) == "1 mile")
        #expect(Self.imperial.say(.distance(metres: 5000)) == "3.1 miles")
        #expect(Self.imperial.say(.length(metres: 65)) == "71 yards")
        let swedishMiles = Voice(language: .swedish, units: .imperial)
        #expect(swedishMiles.say(.distance(metres: 1609.344)) == "1 engelsk mil")
        #expect(swedishMiles.say(.distance(metres: 5000)) == "3,1 engelska mil")
    }

    @Test func durationsTimesAndLists() {
        #expect(Self.english.say(.duration(seconds: 10)) == "1 minute")
        #expect(Self.english.say(.duration(seconds: 143)) == "2 minutes")
        #expect(Self.english.say(.duration(seconds: 3600)) == "1 hour")
        #expect(Self.english.say(.duration(seconds: 3900)) == "1 hour 5 minutes")
        #expect(Self.swedish.say(.duration(seconds: 3900)) == "1 timme och 5 minuter")
        #expect(Self.english.say(.clock(seconds: 8 * 3600 + 34 * 60 + 59)) == "08:34")
        #expect(Self.swedish.say(.clock(seconds: 24 * 3600 + 20 * 60)) == "00:20")
        let items: [Phrase] = [.text("a"), .text("b"), .text("c")]
        #expect(Self.english.say(.list(items)) == "a, b and c")
        #expect(Self.swedish.say(.list(items)) == "a, b och c")
    }

    @Test func templatesFillTheirGapsCapitaliseAndChoosePlurals() {
        let tram = Phrase(.lineNumbered, Phrase(.modeTram), .text("7"))
        #expect(Self.english.say(Phrase(.lineTowards, tram, .text("Angered"))) == "Tram 7 towards Angered")
        #expect(Self.swedish.say(Phrase(.lineTowards, tram, .text("Angered"))) == "Spårvagn 7 mot Angered")
        let between = Phrase(.vehicleIsBetween, tram, .text("Järntorget"), .text("Vasaplatsen"))
        #expect(Self.swedish.say(Phrase(.arrivesAfterStops, between, .count(2), .clock(seconds: 8 * 3600 + 45 * 60)))
            == "Spårvagn 7 är mellan Järntorget och Vasaplatsen, 2 hållplatser före din. Ankommer kl. 08:45.")
        #expect(Self.english.say(Phrase(.arrivesAfterStops, between, .count(1), .clock(seconds: 8 * 3600 + 45 * 60)))
            == "Tram 7 is between Järntorget and Vasaplatsen, 1 stop before yours. It arrives at 08:45.")
        #expect(Phrase(.photoCaptioned, .text("12"), .text("Cycle parking")).texts == ["12", "Cycle parking"])
    }
}
