import Foundation
import MapGeometry
import StrictJSON
import Testing
@testable import Screens

@Suite struct GPXParserTests {
    @Test func joinsEveryTrackSegmentAndIgnoresWaypoints() throws {
        let line = try GPXParser.parse(Fixture.data("track.gpx"))
        #expect(line.coordinates == [
            Coordinate(latitude: 52.20557, longitude: 0.14144), Coordinate(latitude: 52.20630, longitude: 0.14025),
            Coordinate(latitude: 52.20701, longitude: 0.13962), Coordinate(latitude: 52.20788, longitude: 0.14105),
        ])
    }

    @Test func readsPrefixedRoutes() throws {
        let line = try GPXParser.parse(Fixture.data("route-prefixed.gpx"))
        #expect(line.coordinates.count == 3)
        #expect(line.last == Coordinate(latitude: 52.20926, longitude: 0.14288))
    }

    @Test func sameLineAsTheJourney() throws {
        let gpx = try GPXParser.parse(Fixture.data("route-prefixed.gpx"))
        let journey = try Fixture.journey()
        #expect(gpx.coordinates == journey.segments[3].points)
    }

    @Test func namesTheBadPoint() {
        let xml = #"<gpx><trk><trkseg><trkpt lat="52.2" lon="0.1"/></trkseg><trkseg><trkpt lat="52.2" lon="0.1"/><trkpt lat="north" lon="0.1"/></trkseg></trk></gpx>"#
        #expect(throws: PayloadError.invalid(field: "trk[1]/trkseg[2]/trkpt[2]@lat", value: "north", expected: "a number")) {
            try GPXParser.parse(Data(xml.utf8))
        }
        #expect(throws: PayloadError.missing(field: "rte[1]/rtept[1]@lon", expected: "a longitude")) {
            try GPXParser.parse(Data(#"<gpx><rte><rtept lat="52.2"/></rte></gpx>"#.utf8))
        }
    }

    @Test func emptyAndWrongRoot() {
        #expect(throws: PayloadError.tooFewPoints(field: "gpx (trkpt and rtept)", count: 0, minimum: 2)) {
            try GPXParser.parse(Data("<gpx><trk><trkseg/></trk></gpx>".utf8))
        }
        #expect(throws: PayloadError.unexpectedRoot(found: "kml", expected: "gpx")) {
            try GPXParser.parse(Data("<kml/>".utf8))
        }
    }
}

@Suite struct GeoJSONParserTests {
    @Test func readsAFeatureWithAltitudes() throws {
        let line = try GeoJSONParser.parse(Fixture.data("route.geojson"))
        #expect(line.coordinates.count == 4)
        #expect(line.first == Coordinate(latitude: 52.20557, longitude: 0.14144))
        #expect(line.last == Coordinate(latitude: 52.20926, longitude: 0.14288))
    }

    @Test func readsABareLineString() throws {
        let json = #"{"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 52.3]]}"#
        #expect(try GeoJSONParser.parse(Data(json.utf8)).coordinates == [
            Coordinate(latitude: 52.2, longitude: 0.1), Coordinate(latitude: 52.3, longitude: 0.2),
        ])
    }

    @Test func namesTheBadPosition() {
        let bad = #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, "52.3"]]}}"#
        #expect(geoJSONError(bad) == .json(JSONFieldError(
            path: "geometry.coordinates[1][1] (lat)", value: .string("52.3"), allowed: "a number in -85.0511...85.0511"
        )))
        #expect(geoJSONError(bad)?.description
            == #"geometry.coordinates[1][1] (lat): "52.3" is not allowed; expected a number in -85.0511...85.0511"#)
        let offMap = #"{"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 89]]}"#
        #expect(geoJSONError(offMap)?.description == "coordinates[1][1] (lat): 89 is outside the allowed range -85.0511...85.0511")
        let boolean = #"{"type": "LineString", "coordinates": [[0.1, 52.2], [true, 52.2]]}"#
        #expect(geoJSONError(boolean)?.description == "coordinates[1][0] (lon): true is not allowed; expected a number in -180...180")
        let short = #"{"type": "LineString", "coordinates": [[0.1, 52.2], [0.2]]}"#
        #expect(geoJSONError(short)?.description == "coordinates[1]: an array of 1 is not allowed; expected a position [lon, lat] or [lon, lat, alt]")
        let altitude = #"{"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 52.3, "high"]]}"#
        #expect(geoJSONError(altitude)?.field == "coordinates[1][2] (alt)")
    }

    @Test func refusesOtherGeometriesAndEmptyLines() {
        #expect(geoJSONError(#"{"type": "Point", "coordinates": [0.1, 52.2]}"#)?.description
            == #"type: "Point" is not allowed; expected "LineString" or "Feature""#)
        #expect(geoJSONError(#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}}"#)?.description
            == #"geometry.type: "Polygon" is not allowed; expected "LineString""#)
        #expect(geoJSONError(#"{"type": "Feature", "geometry": null}"#)?.description == "geometry: null is not allowed; expected an object")
        #expect(throws: PayloadError.tooFewPoints(field: "coordinates", count: 0, minimum: 2)) {
            try GeoJSONParser.parse(Data(#"{"type": "LineString", "coordinates": []}"#.utf8))
        }
        #expect(throws: PayloadError.tooFewPoints(field: "geometry.coordinates", count: 1, minimum: 2)) {
            try GeoJSONParser.parse(Data(#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.1, 52.2]]}}"#.utf8))
        }
        #expect(geoJSONError(#"{"type": "LineString"}"#)
            == .json(JSONFieldError(path: "coordinates", value: nil, allowed: "an array of positions [lon, lat]")))
    }

    @Test func refusesRoutesOfMoreThanTheMaximumPoints() throws {
        func line(_ count: Int) -> Data {
            Data(("{\"type\": \"LineString\", \"coordinates\": [" + Array(repeating: "[0.1,52.2]", count: count).joined(separator: ",") + "]}").utf8)
        }
        #expect(try GeoJSONParser.parse(line(RouteLine.maximumPoints)).coordinates.count == RouteLine.maximumPoints)
        #expect(throws: PayloadError.tooManyPoints(field: "coordinates", count: RouteLine.maximumPoints + 1, maximum: RouteLine.maximumPoints)) {
            try GeoJSONParser.parse(line(RouteLine.maximumPoints + 1))
        }
    }

    @Test func malformedJSON() throws {
        let error = try #require(geoJSONError(#"{"type": "LineString", "coordinates": [[0.1, 52.2]"#))
        #expect(error.field == nil)
        #expect(error.description.hasPrefix("GeoJSON: malformed JSON: unexpected end of input"))
        #expect(geoJSONError(#"{"type": "LineString", "type": "Feature"}"#)?.description.contains(#"duplicate field "type""#) == true)
    }

    func geoJSONError(_ json: String) -> PayloadError? {
        do {
            _ = try GeoJSONParser.parse(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }
}
