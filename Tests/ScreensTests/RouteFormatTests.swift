import Foundation
import MapGeometry
import StrictJSON
import Testing
@testable import Payloads
@testable import Screens

@Suite struct GPXParserTests {
    @Test func eachTrackSegmentIsAPartAndWaypointsAreIgnored() throws {
        let line = try GPXParser.parse(Fixture.data("track.gpx"))
        #expect(line.parts == [
            [Coordinate(latitude: 52.20557, longitude: 0.14144), Coordinate(latitude: 52.20630, longitude: 0.14025)],
            [Coordinate(latitude: 52.20701, longitude: 0.13962), Coordinate(latitude: 52.20788, longitude: 0.14105)],
        ])
    }

    @Test func severalTracksAndSegmentsKeepTheirOrder() throws {
        let line = try GPXParser.parse(Fixture.data("tracks.gpx"))
        #expect(line.parts.map(\.count) == [2, 2, 3])
        #expect(line.first == Coordinate(latitude: 52.20557, longitude: 0.14144))
        #expect(line.last == Coordinate(latitude: 52.20926, longitude: 0.14288))
        #expect(line.pointCount == 7)
        #expect(line.bounds == GeoBounds(south: 52.20557, west: 0.13962, north: 52.20926, east: 0.14288))
    }

    @Test func readsPrefixedRoutes() throws {
        let line = try GPXParser.parse(Fixture.data("route-prefixed.gpx"))
        #expect(line.parts.map(\.count) == [3])
        #expect(line.last == Coordinate(latitude: 52.20926, longitude: 0.14288))
    }

    @Test func sameLineAsTheJourney() throws {
        let gpx = try GPXParser.parse(Fixture.data("route-prefixed.gpx"))
        let journey = try Fixture.journey()
        #expect(gpx.parts == [journey.segments[3].points])
    }

    @Test func namesTheBadPoint() {
        let xml = #"<gpx><trk><trkseg><trkpt lat="52.2" lon="0.1"/><trkpt lat="52.3" lon="0.1"/></trkseg><trkseg><trkpt lat="52.2" lon="0.1"/><trkpt lat="north" lon="0.1"/></trkseg></trk></gpx>"#
        #expect(throws: PayloadError.invalid(field: "trk[1]/trkseg[2]/trkpt[2]@lat", value: "north", expected: "a number")) {
            try GPXParser.parse(Data(xml.utf8))
        }
        #expect(throws: PayloadError.missing(field: "rte[1]/rtept[1]@lon", expected: "a longitude")) {
            try GPXParser.parse(Data(#"<gpx><rte><rtept lat="52.2"/></rte></gpx>"#.utf8))
        }
    }

    @Test func aSegmentOfOnePointIsPassedOver() throws {
        let oneShort = #"<gpx><trk><trkseg><trkpt lat="52.2" lon="0.1"/><trkpt lat="52.3" lon="0.1"/></trkseg><trkseg><trkpt lat="52.4" lon="0.2"/></trkseg><trkseg/><trkseg><trkpt lat="52.5" lon="0.3"/><trkpt lat="52.6" lon="0.3"/></trkseg></trk></gpx>"#
        #expect(try GPXParser.parse(Data(oneShort.utf8)).parts == [
            [Coordinate(latitude: 52.2, longitude: 0.1), Coordinate(latitude: 52.3, longitude: 0.1)],
            [Coordinate(latitude: 52.5, longitude: 0.3), Coordinate(latitude: 52.6, longitude: 0.3)],
        ])
    }

    @Test func aFileOfShortSegmentsOnlyIsRefusedAtTheFirst() {
        let allShort = #"<gpx><trk><trkseg/><trkseg><trkpt lat="52.2" lon="0.1"/></trkseg></trk></gpx>"#
        #expect(throws: PayloadError.tooFewPoints(field: "trk[1]/trkseg[1]", count: 0, minimum: 2)) {
            try GPXParser.parse(Data(allShort.utf8))
        }
        #expect(throws: PayloadError.tooFewPoints(field: "trk[1]/trkseg[1]", count: 1, minimum: 2)) {
            try GPXParser.parse(Data(#"<gpx><trk><trkseg><trkpt lat="52.2" lon="0.1"/></trkseg></trk></gpx>"#.utf8))
        }
    }

    @Test func everyRouteNeedsTwoPoints() {
        #expect(throws: PayloadError.tooFewPoints(field: "rte[2]", count: 1, minimum: 2)) {
            try GPXParser.parse(Data(#"<gpx><rte><rtept lat="52.2" lon="0.1"/><rtept lat="52.3" lon="0.1"/></rte><rte><rtept lat="52.2" lon="0.1"/></rte></gpx>"#.utf8))
        }
        let shortSegmentAndShortRoute = #"<gpx><trk><trkseg><trkpt lat="52.2" lon="0.1"/></trkseg></trk><rte><rtept lat="52.2" lon="0.1"/></rte></gpx>"#
        #expect(throws: PayloadError.tooFewPoints(field: "rte[1]", count: 1, minimum: 2)) {
            try GPXParser.parse(Data(shortSegmentAndShortRoute.utf8))
        }
    }

    @Test func emptyAndWrongRoot() {
        #expect(throws: PayloadError.tooFewPoints(field: "gpx (trkpt and rtept)", count: 0, minimum: 2)) {
            try GPXParser.parse(Data(#"<gpx><wpt lat="52.2" lon="0.1"/></gpx>"#.utf8))
        }
        #expect(throws: PayloadError.unexpectedRoot(found: "kml", expected: ["gpx"])) {
            try GPXParser.parse(Data("<kml/>".utf8))
        }
    }

    @Test func theLimitCountsEveryPartTogether() throws {
        func gpx(segments: Int, pointsEach: Int) -> Data {
            let points = String(repeating: #"<trkpt lat="52.2" lon="0.1"/>"#, count: pointsEach)
            return Data(("<gpx><trk>" + String(repeating: "<trkseg>\(points)</trkseg>", count: segments) + "</trk></gpx>").utf8)
        }
        #expect(try GPXParser.parse(gpx(segments: 4, pointsEach: 25_000)).pointCount == RouteLine.maximumPoints)
        #expect(throws: PayloadError.tooManyPoints(field: "gpx (trkpt and rtept)", count: 100_004, maximum: RouteLine.maximumPoints)) {
            try GPXParser.parse(gpx(segments: 4, pointsEach: 25_001))
        }
    }
}

@Suite struct GeoJSONParserTests {
    @Test func readsAFeatureWithAltitudes() throws {
        let line = try GeoJSONParser.parse(Fixture.data("route.geojson"))
        #expect(line.parts.map(\.count) == [4])
        #expect(line.first == Coordinate(latitude: 52.20557, longitude: 0.14144))
        #expect(line.last == Coordinate(latitude: 52.20926, longitude: 0.14288))
    }

    @Test func readsABareLineString() throws {
        let json = #"{"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 52.3]]}"#
        #expect(try GeoJSONParser.parse(Data(json.utf8)).parts == [[
            Coordinate(latitude: 52.2, longitude: 0.1), Coordinate(latitude: 52.3, longitude: 0.2),
        ]])
    }

    @Test func readsAMultiLineStringAsOnePartPerLine() throws {
        let json = #"{"type": "MultiLineString", "coordinates": [[[0.1, 52.2], [0.2, 52.3]], [[0.3, 52.4, 15], [0.4, 52.5, 16], [0.5, 52.6]]]}"#
        let line = try GeoJSONParser.parse(Data(json.utf8))
        #expect(line.parts.map(\.count) == [2, 3])
        #expect(line.first == Coordinate(latitude: 52.2, longitude: 0.1) && line.last == Coordinate(latitude: 52.6, longitude: 0.5))
    }

    @Test func readsAFeatureWithNullPropertiesAndABoundingBox() throws {
        let json = #"{"type": "Feature", "properties": null, "bbox": [0.1, 52.2, 0.2, 52.3], "geometry": {"type": "MultiLineString", "coordinates": [[[0.1, 52.2], [0.2, 52.3]]]}}"#
        #expect(try GeoJSONParser.parse(Data(json.utf8)).parts.map(\.count) == [2])
    }

    @Test func aCollectionGivesItsLinesInOrderAndPassesOverTheRest() throws {
        let line = try GeoJSONParser.parse(Fixture.data("collection.geojson"))
        let journey = try Fixture.journey()
        #expect(line.parts == [journey.segments[0].points, journey.segments[2].points, Array(journey.segments[3].points.dropFirst())])
        #expect(line.first == journey.startCoordinate && line.last == journey.finishCoordinate)
    }

    @Test func aCollectionWithNoLineSaysWhatItHolds() throws {
        let points = try #require(geoJSONError(String(decoding: Fixture.data("points.geojson"), as: UTF8.self)))
        #expect(points == .noLine(field: "features", found: "a FeatureCollection of 3 Point features"))
        #expect(points.description == "features: a FeatureCollection of 3 Point features has no LineString or MultiLineString to draw as a route")
        let mixed = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": []}}, {"type": "Feature", "geometry": null}, {"type": "Feature", "geometry": null}, {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}]}"#
        #expect(geoJSONError(mixed)?.description
            == "features: a FeatureCollection of 1 Polygon feature, 2 features with no geometry and 1 Point feature has no LineString or MultiLineString to draw as a route")
        #expect(geoJSONError(#"{"type": "FeatureCollection", "features": []}"#)
            == .noLine(field: "features", found: "an empty FeatureCollection"))
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
        let inCollection = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}, {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[0.1, 52.2], [0.2, 52.3]], [[0.1, 52.2], [0.2, 91]]]}}]}"#
        #expect(geoJSONError(inCollection)?.description
            == "features[1].geometry.coordinates[1][1][1] (lat): 91 is outside the allowed range -85.0511...85.0511")
    }

    @Test func refusesOtherGeometriesAndShortLines() {
        #expect(geoJSONError(#"{"type": "Point", "coordinates": [0.1, 52.2]}"#)?.description
            == #"type: "Point" is not allowed; expected "LineString", "MultiLineString", "Feature" or "FeatureCollection""#)
        #expect(geoJSONError(#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}}"#)?.description
            == #"geometry.type: "Polygon" is not allowed; expected "LineString" or "MultiLineString""#)
        #expect(geoJSONError(#"{"type": "Feature", "geometry": null}"#)?.description == "geometry: null is not allowed; expected an object")
        #expect(throws: PayloadError.tooFewPoints(field: "coordinates", count: 0, minimum: 2)) {
            try GeoJSONParser.parse(Data(#"{"type": "LineString", "coordinates": []}"#.utf8))
        }
        #expect(throws: PayloadError.tooFewPoints(field: "geometry.coordinates", count: 1, minimum: 2)) {
            try GeoJSONParser.parse(Data(#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.1, 52.2]]}}"#.utf8))
        }
        #expect(throws: PayloadError.tooFewPoints(field: "coordinates[1]", count: 1, minimum: 2)) {
            try GeoJSONParser.parse(Data(#"{"type": "MultiLineString", "coordinates": [[[0.1, 52.2], [0.2, 52.3]], [[0.1, 52.2]]]}"#.utf8))
        }
        #expect(throws: PayloadError.tooFewPoints(field: "coordinates", count: 0, minimum: 2)) {
            try GeoJSONParser.parse(Data(#"{"type": "MultiLineString", "coordinates": []}"#.utf8))
        }
        #expect(geoJSONError(#"{"type": "LineString"}"#)
            == .json(JSONFieldError(path: "coordinates", value: nil, allowed: "an array of positions [lon, lat]")))
    }

    @Test func checksCollectionsFeaturesAndBoundingBoxes() {
        #expect(geoJSONError(#"{"type": "FeatureCollection"}"#)?.description == "features: missing; expected an array of Feature objects")
        #expect(geoJSONError(#"{"type": "FeatureCollection", "features": [{"type": "LineString", "coordinates": []}]}"#)?.description
            == #"features[0].type: "LineString" is not allowed; expected "Feature""#)
        #expect(geoJSONError(#"{"type": "FeatureCollection", "features": [{"type": "Feature"}]}"#)?.description
            == "features[0].geometry: missing; expected a geometry object or null")
        #expect(geoJSONError(#"{"type": "LineString", "bbox": [0.1, 52.2], "coordinates": [[0.1, 52.2], [0.2, 52.3]]}"#)?.description
            == "bbox: an array of 2 is not allowed; expected an array of 4 or 6 numbers")
        #expect(geoJSONError(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "bbox": "0.1,52.2,0.2,52.3", "geometry": null}]}"#)?.field
            == "features[0].bbox")
    }

    @Test func refusesRoutesOfMoreThanTheMaximumPointsOverAllParts() throws {
        func line(_ count: Int) -> Data {
            Data(("{\"type\": \"LineString\", \"coordinates\": [" + Array(repeating: "[0.1,52.2]", count: count).joined(separator: ",") + "]}").utf8)
        }
        #expect(try GeoJSONParser.parse(line(RouteLine.maximumPoints)).pointCount == RouteLine.maximumPoints)
        #expect(throws: PayloadError.tooManyPoints(field: "coordinates", count: RouteLine.maximumPoints + 1, maximum: RouteLine.maximumPoints)) {
            try GeoJSONParser.parse(line(RouteLine.maximumPoints + 1))
        }
        let half = Array(repeating: "[0.1,52.2]", count: RouteLine.maximumPoints / 2).joined(separator: ",")
        let feature = "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [\(half)]}}"
        let collection = { (extra: String) in
            Data("{\"type\": \"FeatureCollection\", \"features\": [\(feature), \(feature)\(extra)]}".utf8)
        }
        #expect(try GeoJSONParser.parse(collection("")).parts.map(\.count) == [50_000, 50_000])
        let more = ", {\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[0.1, 52.2], [0.2, 52.3]]}}"
        #expect(throws: PayloadError.tooManyPoints(field: "features", count: 100_002, maximum: RouteLine.maximumPoints)) {
            try GeoJSONParser.parse(collection(more))
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
