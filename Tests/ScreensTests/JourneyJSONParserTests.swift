import Foundation
import MapGeometry
import StrictJSON
import Testing
@testable import Payloads
@testable import Screens

@Suite struct JourneyJSONParserTests {
    @Test func readsTheSameJourneyAsTheXML() throws {
        let json = try JourneyJSONParser.parse(Fixture.data("journey.json"))
        let xml = try Fixture.journey()
        #expect(json == xml)
        #expect(json.segments.map(\.name) == ["Thoday Street", "Mill Road", "Sturton Street", "Gwydir Street"])
        #expect(json.segments[1].turn == "turn right" && json.segments[1].distanceMetres == 90 && json.segments[1].timeSeconds == 24)
        #expect(json.waypoints == [Coordinate(latitude: 52.20557, longitude: 0.14144), Coordinate(latitude: 52.20926, longitude: 0.14288)])
        #expect(json.routeLine.parts.map(\.count) == [6])
    }

    @Test func theXMLKeepsItsWaypointsToo() throws {
        #expect(try Fixture.journey().waypoints.count == 2)
        #expect(try JourneyXMLParser.parse(Data(journeyXML().utf8)).waypoints.isEmpty)
    }

    @Test func aLoneMarkerOrWaypointMayBeAnObjectRatherThanAnArray() throws {
        let json = journeyJSON(extraMarkers: "", waypoint: #"{"@attributes": {"sequenceId": "1", "longitude": "0.14144", "latitude": "52.20557"}}"#)
        let journey = try JourneyJSONParser.parse(Data(json.utf8))
        #expect(journey.waypoints == [Coordinate(latitude: 52.20557, longitude: 0.14144)])
        let oneMarker = #"{"marker": {"@attributes": {"type": "route", "start": "A", "finish": "B", "length": "1", "time": "1", "plan": "quietest", "speed": "20", "coordinates": "0.1,52.2 0.2,52.3"}}}"#
        #expect(journeyJSONError(oneMarker) == .missing(field: "marker[type=segment]", expected: "at least one segment marker"))
    }

    @Test func takesNumbersAsNumbersToo() throws {
        let json = journeyJSON().replacingOccurrences(of: #""length": "556""#, with: #""length": 556"#)
        #expect(try JourneyJSONParser.parse(Data(json.utf8)).lengthMetres == 556)
    }

    @Test func numbersAsStringsMustBeNumbers() {
        let length = journeyJSON().replacingOccurrences(of: #""length": "556""#, with: #""length": "556 m""#)
        #expect(journeyJSONError(length) == .invalid(field: "marker[0].@attributes.length", value: "556 m", expected: "a whole number"))
        #expect(journeyJSONError(length)?.description == #"marker[0].@attributes.length: "556 m" is not a whole number"#)
        let fraction = journeyJSON().replacingOccurrences(of: #""time": "31""#, with: #""time": 31.5"#)
        #expect(journeyJSONError(fraction) == .invalid(field: "marker[1].@attributes.time", value: "31.5", expected: "a whole number"))
        let points = journeyJSON().replacingOccurrences(of: "0.14144,52.20557 0.14288,52.20926\"}}]", with: "0.14144,52.20557 0.14288,north\"}}]")
        #expect(journeyJSONError(points) == .invalid(field: "marker[1].@attributes.points", value: "0.14288,north", expected: "a number pair \"lon,lat\""))
        let waypoint = journeyJSON(waypoint: #"[{"@attributes": {"longitude": "0.1", "latitude": "1e999"}}]"#)
        #expect(journeyJSONError(waypoint) == .invalid(field: "waypoint[0].@attributes.latitude", value: "1e999", expected: "a number"))
        let flag = journeyJSON().replacingOccurrences(of: #""plan": "balanced""#, with: #""plan": true"#)
        #expect(journeyJSONError(flag) == .json(JSONFieldError(path: "marker[0].@attributes.plan", value: .bool(true), allowed: "a string")))
    }

    @Test func errorsNameTheMarkerAsTheXMLDoes() {
        #expect(journeyJSONError(#"{"marker": []}"#) == .missing(field: "marker[type=route]", expected: "one route marker"))
        let twoRoutes = journeyJSON(extraMarkers: #", {"@attributes": {"type": "route"}}"#)
        #expect(journeyJSONError(twoRoutes) == .invalid(field: "marker[type=route]", value: "2 route markers", expected: "exactly one route marker"))
        let noName = journeyJSON().replacingOccurrences(of: #""name": "Thoday Street", "#, with: "")
        #expect(journeyJSONError(noName) == .missing(field: "marker[1].@attributes.name", expected: "a street name"))
        #expect(journeyJSONError(#"{"marker": [{"type": "route"}]}"#)
            == .json(JSONFieldError(path: "marker[0].@attributes", value: nil, allowed: "an object")))
        #expect(journeyJSONError(#"{"waypoint": []}"#)?.field == "marker")
        #expect(journeyJSONError("[]") == .json(JSONFieldError(path: "document", value: .array([]), allowed: "an object")))
    }

    @Test func otherMarkerTypesAndMembersAreIgnored() throws {
        let extra = journeyJSON(extraMarkers: #", {"@attributes": {"type": "poi", "name": "Cafe"}}, {"@attributes": {"name": "no type"}}"#)
            .replacingOccurrences(of: #"{"marker""#, with: #"{"generator": "test", "marker""#)
        #expect(try JourneyJSONParser.parse(Data(extra.utf8)).segments.count == 1)
    }

    @Test func apiErrorsBecomeTypedErrors() {
        #expect(journeyJSONError(#"{"error": "Routing failed: the start is not on the network"}"#)
            == .apiError(message: "Routing failed: the start is not on the network"))
    }
}

/// A small valid journey.json with one segment, in CycleStreets' shape.
func journeyJSON(extraMarkers: String = "", waypoint: String? = nil) -> String {
    let route = #"{"@attributes": {"type": "route", "start": "Thoday Street", "finish": "Gwydir Street", "length": "556", "time": "143", "plan": "balanced", "speed": "20", "coordinates": "0.14144,52.20557 0.14288,52.20926"}}"#
    let segment = #"{"@attributes": {"type": "segment", "name": "Thoday Street", "distance": "422", "time": "31", "turn": "", "startBearing": "315", "provisionName": "Minor road", "points": "0.14144,52.20557 0.14288,52.20926"}}"#
    return #"{"marker": [\#(route), \#(segment)\#(extraMarkers)]"# + (waypoint.map { #", "waypoint": \#($0)"# } ?? "") + "}"
}

/// Parses `json` with the journey JSON parser and returns the error it throws, if any.
func journeyJSONError(_ json: String) -> PayloadError? {
    do {
        _ = try JourneyJSONParser.parse(Data(json.utf8))
        return nil
    } catch {
        return error
    }
}
