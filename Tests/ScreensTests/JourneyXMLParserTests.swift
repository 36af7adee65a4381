import Foundation
import MapGeometry
import Testing
@testable import Payloads
@testable import Screens

@Suite struct JourneyXMLParserTests {
    @Test func readsTheRouteAndEverySegment() throws {
        let journey = try Fixture.journey()
        #expect(journey.startName == "Thoday Street")
        #expect(journey.finishName == "Gwydir Street")
        #expect(journey.lengthMetres == 556)
        #expect(journey.timeSeconds == 143)
        #expect(journey.plan == "balanced")
        #expect(journey.speedKmh == 20)
        #expect(journey.routeLine.parts.map(\.count) == [6])
        #expect(journey.startCoordinate == Coordinate(latitude: 52.20557, longitude: 0.14144))
        #expect(journey.finishCoordinate == Coordinate(latitude: 52.20926, longitude: 0.14288))
        #expect(journey.segments.map(\.name) == ["Thoday Street", "Mill Road", "Sturton Street", "Gwydir Street"])
        let second = journey.segments[1]
        #expect(second.distanceMetres == 90)
        #expect(second.timeSeconds == 24)
        #expect(second.turn == "turn right")
        #expect(second.startBearing == 330)
        #expect(second.provisionName == "Main road")
        #expect(second.points == [Coordinate(latitude: 52.20630, longitude: 0.14025), Coordinate(latitude: 52.20701, longitude: 0.13962)])
        #expect(journey.segments[0].turn == "")
    }

    @Test func malformedCoordinateNamesElementAttributeAndValue() {
        let error = journeyError(journeyXML(coordinates: "0.14144,52.20557 0.14,abc"))
        #expect(error == .invalid(field: "marker[type=route]@coordinates", value: "0.14,abc", expected: "a number pair \"lon,lat\""))
        #expect(error?.description == #"marker[type=route]@coordinates: "0.14,abc" is not a number pair "lon,lat""#)
    }

    @Test(arguments: ["0.14", "0.14,52.2,7", "nan,52.2", "0x1p-3,52.2", ",52.2", "0.14;52.2"])
    func refusesPointsThatAreNotTwoDecimals(pair: String) {
        let error = journeyError(journeyXML(coordinates: "0.14144,52.20557 \(pair)"))
        #expect(error?.field == "marker[type=route]@coordinates")
        #expect(error?.description.contains(pair) == true)
    }

    @Test func refusesCoordinatesOffTheMap() {
        let latitude = journeyError(journeyXML(coordinates: "0.14144,52.20557 0.14,85.06"))
        #expect(latitude == .invalid(field: "marker[type=route]@coordinates", value: "0.14,85.06", expected: "within latitude -85.0511...85.0511"))
        let longitude = journeyError(journeyXML(coordinates: "0.14144,52.20557 180.5,52.2"))
        #expect(longitude == .invalid(field: "marker[type=route]@coordinates", value: "180.5,52.2", expected: "within longitude -180...180"))
    }

    @Test func refusesAnEmptyOrOnePointRoute() {
        #expect(journeyError(journeyXML(coordinates: "")) == .tooFewPoints(field: "marker[type=route]@coordinates", count: 0, minimum: 2))
        #expect(journeyError(journeyXML(coordinates: "  0.14144,52.20557 ")) == .tooFewPoints(field: "marker[type=route]@coordinates", count: 1, minimum: 2))
    }

    @Test func refusesAnEmptySegment() {
        let error = journeyError(journeyXML(segmentPoints: ""))
        #expect(error == .tooFewPoints(field: "marker[type=segment][1]@points", count: 0, minimum: 1))
    }

    @Test func missingAttributesAreNamed() {
        let noLength = journeyXML().replacingOccurrences(of: #"length="556" "#, with: "")
        #expect(journeyError(noLength) == .missing(field: "marker[type=route]@length", expected: "a whole number"))
        let noBearing = journeyXML().replacingOccurrences(of: #"startBearing="315" "#, with: "")
        #expect(journeyError(noBearing)?.field == "marker[type=segment][1]@startBearing")
    }

    @Test func badNumbersInAttributesAreNamed() {
        let error = journeyError(journeyXML().replacingOccurrences(of: #"time="31""#, with: #"time="31s""#))
        #expect(error == .invalid(field: "marker[type=segment][1]@time", value: "31s", expected: "a whole number"))
    }

    @Test func needsOneRouteAndSomeSegments() {
        #expect(journeyError("<markers/>") == .missing(field: "marker[type=route]", expected: "one route marker"))
        let twoRoutes = journeyXML().replacingOccurrences(of: "<markers>", with: "<markers>" + routeMarker(coordinates: "0.1,52.2 0.2,52.3"))
        #expect(journeyError(twoRoutes)?.field == "marker[type=route]")
        let noSegments = "<markers>\(routeMarker(coordinates: "0.1,52.2 0.2,52.3"))</markers>"
        #expect(journeyError(noSegments) == .missing(field: "marker[type=segment]", expected: "at least one segment marker"))
    }

    @Test func apiErrorsBecomeTypedErrorsWithTheirMessage() {
        #expect(journeyError("<error>Too far apart</error>") == .apiError(message: "Too far apart"))
        let nested = "<markers><error>\n  Routing failed:\n  the start is not on the network\n</error></markers>"
        #expect(journeyError(nested) == .apiError(message: "Routing failed: the start is not on the network"))
    }

    @Test func refusesTheWrongRoot() {
        #expect(journeyError("<sayt><results/></sayt>") == .unexpectedRoot(found: "sayt", expected: ["markers"]))
    }

    @Test func reportsMalformedXMLWithLibxmlMessage() throws {
        let error = try #require(journeyError("<markers>\n<marker type=\"route\"\n</markers>"))
        guard case .malformedXML(let message) = error else {
            Issue.record("expected malformed XML, got \(error)")
            return
        }
        #expect(message.hasPrefix("line "))
        #expect(journeyError("") == .malformedXML(message: "the document is empty"))
    }
}

/// A small valid journey, with one segment, whose parts the tests replace.
func journeyXML(coordinates: String = "0.14144,52.20557 0.14288,52.20926", segmentPoints: String = "0.14144,52.20557 0.14288,52.20926") -> String {
    """
    <?xml version="1.0"?>
    <markers>\(routeMarker(coordinates: coordinates))
    <marker type="segment" name="Thoday Street" distance="422" time="31" turn="" startBearing="315" provisionName="Minor road" points="\(segmentPoints)"/>
    </markers>
    """
}

func routeMarker(coordinates: String) -> String {
    #"<marker type="route" start="Thoday Street" finish="Gwydir Street" length="556" time="143" plan="balanced" speed="20" coordinates="\#(coordinates)"/>"#
}
