import Foundation
import MapGeometry
import StrictJSON
import Testing
@testable import Payloads
@testable import Screens

/// Every route format, told apart by content alone.
@Suite struct RouteParserTests {
    @Test(arguments: [
        "journey.xml", "journey.json", "track.gpx", "tracks.gpx", "route-prefixed.gpx", "route.geojson", "collection.geojson",
        "routes/google-earth.kml", "routes/multigeometry-prefixed.kml", "routes/gx-track.kml", "routes/activity.tcx", "routes/course.tcx",
    ])
    func readsEachFormatFromItsContent(file: String) throws {
        let route = try RouteParser.parse(Fixture.data(file))
        let expected: RouteLine = switch file {
        case "journey.xml", "journey.json": try Fixture.journey().routeLine
        case let name where name.hasSuffix(".gpx"): try GPXParser.parse(Fixture.data(file))
        case let name where name.hasSuffix(".kml"): try KMLParser.parse(Fixture.data(file))
        case let name where name.hasSuffix(".tcx"): try TCXParser.parse(Fixture.data(file))
        default: try GeoJSONParser.parse(Fixture.data(file))
        }
        #expect(route == expected)
    }

    @Test func theSameRouteInEveryFormatIsTheSameRoute() throws {
        let journey = try RouteParser.parse(Fixture.data("journey.json"))
        let points = journey.parts[0].map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
        let geoJSON = try RouteParser.parse(Data(#"{"type": "LineString", "coordinates": [\#(points)]}"#.utf8))
        let trackPoints = journey.parts[0].map { #"<trkpt lat="\#($0.latitude)" lon="\#($0.longitude)"/>"# }.joined()
        let gpx = try RouteParser.parse(Data("<gpx><trk><trkseg>\(trackPoints)</trkseg></trk></gpx>".utf8))
        #expect(journey == geoJSON && geoJSON == gpx)
    }

    /// The one ride, as every file format and routing answer holds it, gives the same points
    /// (the routing answers to the precision they were written at).
    @Test(arguments: [
        "routes/google-earth.kml", "routes/multigeometry-prefixed.kml", "routes/activity.tcx", "routes/course.tcx", "routes/osrm-polyline.json",
        "routes/osrm-polyline6.json", "routes/mapbox-directions.json", "routes/valhalla.json", "routes/graphhopper.json",
        "routes/graphhopper-elevation.json", "routes/graphhopper-geojson.json",
    ])
    func theSameRideInEveryFormatHasTheSamePoints(file: String) throws {
        let ride = try Fixture.journey().routeLine.parts[0]
        let route = try RouteParser.parse(Fixture.data(file))
        expectParts(RouteLine(Array(route.points))!, [ride], tolerance: 1e-5)
    }

    @Test func namesWhatItCannotRead() {
        #expect(routeError("<sayt/>") == .unexpectedRoot(found: "sayt", expected: ["gpx", "kml", "TrainingCenterDatabase", "markers"]))
        #expect(routeError("<sayt/>")?.description == "payload: root element <sayt> is not <gpx> or <kml> or <TrainingCenterDatabase> or <markers>")
        #expect(routeError("<error>Unknown journey</error>") == .apiError(message: "Unknown journey"))
        #expect(routeError(#"{"error": "Unknown journey"}"#) == .apiError(message: "Unknown journey"))
        #expect(routeError(#"{"coordinates": [[0.1, 52.2], [0.2, 52.3]]}"#)?.description
            == #"type: missing; expected a GeoJSON type, "LineString", "MultiLineString", "Feature" or "FeatureCollection"; or a CycleStreets journey's "marker", an OSRM or Mapbox Directions answer's "code", a Valhalla answer's "trip", a Google Directions answer's "routes" and "status" or a GraphHopper answer's "paths""#)
        #expect(routeError("0.1,52.2 0.2,52.3") == .notXMLOrJSON(found: "a document beginning with '0'"))
        #expect(routeError(#"{"type": "LineString", "coordinates": [[0.1, 52.2]"#)?.description.hasPrefix("route: malformed JSON: unexpected end of input") == true)
    }

    @Test func aUTF16DocumentIsXML() throws {
        let gpx = #"<?xml version="1.0" encoding="UTF-16"?><gpx><rte><rtept lat="52.2" lon="0.1"/><rtept lat="52.3" lon="0.2"/></rte></gpx>"#
        #expect(try RouteParser.parse(#require(gpx.data(using: .utf16))).pointCount == 2)
    }

    func routeError(_ text: String) -> PayloadError? {
        do {
            _ = try RouteParser.parse(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }
}

/// The readers of CycleStreets answers take either notation, told apart by content.
@Suite struct PayloadNotationTests {
    @Test func aJourneyInEitherNotation() throws {
        let xml = try JourneyParser.parse(Fixture.data("journey.xml"))
        let json = try JourneyParser.parse(Fixture.data("journey.json"))
        #expect(xml == json)
        #expect(try JourneyParser.parse(Data(("\n  \t" + journeyJSON()).utf8)).segments.count == 1)
        #expect(throws: PayloadError.notXMLOrJSON(found: "a document beginning with 'm'")) { try JourneyParser.parse(Data("marker=1".utf8)) }
        #expect(throws: PayloadError.notXMLOrJSON(found: "an empty document")) { try JourneyParser.parse(Data()) }
        #expect(throws: PayloadError.notXMLOrJSON(found: "a document of only white space")) { try JourneyParser.parse(Data(" \n".utf8)) }
        #expect(PayloadError.notXMLOrJSON(found: "an empty document").description == "payload: an empty document is neither XML nor JSON")
    }
}

/// Hostile JSON payloads: each gets a clear error, naming where it went wrong, and is read
/// within the 5 MB payload limit (the server's tests post the largest and measure the memory
/// they take). One at a time, since each keeps a core busy.
@Suite(.serialized) struct HostileJSONPayloadTests {
    @Test func deepNestingIsMalformedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for error in Self.errors(reading: Data(deep.utf8)) {
            #expect(error != nil && error?.field == nil)
            #expect(error?.description.contains("nesting deeper than 256 levels") == true)
        }
    }

    @Test func aMillionEmptyFeaturesStopAtTheFirst() throws {
        let features = Array(repeating: "{}", count: 1_000_000).joined(separator: ",")
        let json = Data(#"{"type": "FeatureCollection", "features": [\#(features)]}"#.utf8)
        #expect(json.count < PayloadLimits.defaultMaxBytes)
        #expect(throws: PayloadError.json(JSONFieldError(path: "features[0].type", value: nil, allowed: #""Feature""#))) {
            try GeoJSONParser.parse(json)
        }
    }

    @Test func tenThousandFeaturesWithNoGeometryAreCounted() throws {
        let features = Array(repeating: #"{"type":"Feature","geometry":null}"#, count: 10_000).joined(separator: ",")
        let json = Data(#"{"type": "FeatureCollection", "features": [\#(features)]}"#.utf8)
        #expect(throws: PayloadError.noLine(field: "features", found: "a FeatureCollection of 10000 features with no geometry")) {
            try GeoJSONParser.parse(json)
        }
    }

    /// 150,000 positions, past the limit; the server's tests post 800,000.
    @Test func aHugeArrayOfPositionsIsCountedAndRefused() throws {
        let positions = Array(repeating: "[0,0]", count: 150_000).joined(separator: ",")
        let json = Data(#"{"type": "MultiLineString", "coordinates": [[\#(positions)]]}"#.utf8)
        #expect(throws: PayloadError.tooManyPoints(field: "coordinates", count: 150_000, maximum: RouteLine.maximumPoints)) {
            try GeoJSONParser.parse(json)
        }
    }

    @Test func aHugeArrayOfMarkersIsReadToTheFirstBadOne() throws {
        let segment = #"{"@attributes": {"type": "segment", "name": "A", "distance": "1", "time": "one", "turn": "", "startBearing": "0", "provisionName": "x", "points": "0.1,52.2"}}"#
        let json = journeyJSON(extraMarkers: String(repeating: ", " + segment, count: 2_000))
        #expect(throws: PayloadError.invalid(field: "marker[2].@attributes.time", value: "one", expected: "a whole number")) {
            try JourneyJSONParser.parse(Data(json.utf8))
        }
    }

    @Test func payloadsOverTheLimitAreNotParsed() {
        let oversize = Data(repeating: UInt8(ascii: "["), count: PayloadLimits.defaultMaxBytes + 1)
        #expect(Self.errors(reading: oversize) == Array(repeating: .tooLarge(bytes: oversize.count, limit: PayloadLimits.defaultMaxBytes), count: 4))
    }

    /// What each reader that tells formats apart by content throws for `data`; nil where one
    /// reads it.
    static func errors(reading data: Data) -> [PayloadError?] {
        func error(_ parse: (Data) throws(PayloadError) -> Void) -> PayloadError? {
            do {
                try parse(data)
                return nil
            } catch {
                return error
            }
        }
        return [
            error { data throws(PayloadError) in _ = try RouteParser.parse(data) },
            error { data throws(PayloadError) in _ = try JourneyParser.parse(data) },
            error { data throws(PayloadError) in _ = try PhotosParser.parse(data) },
            error { data throws(PayloadError) in _ = try GeocoderParser.parse(data) },
        ]
    }
}
