import Foundation
import MapGeometry
import StrictJSON
import Testing
@testable import Payloads

/// OSRM's route service and Mapbox Directions, which answer in one format.
@Suite struct OSRMAnswerTests {
    @Test func polylineAndPolyline6OfOneRouteGiveTheSamePoints() throws {
        let five = try OSRMRouteParser.parse(Fixture.data("routes/osrm-polyline.json"))
        let six = try OSRMRouteParser.parse(Fixture.data("routes/osrm-polyline6.json"))
        expectParts(five, [Ride.points])
        expectParts(six, [Ride.snapped])
        expectParts(five, six.parts, tolerance: 1e-5)
    }

    @Test func geoJSONGeometryWithStepsAndAnnotations() throws {
        expectParts(try OSRMRouteParser.parse(Fixture.data("routes/osrm-geojson-steps.json")), [Ride.snapped])
    }

    @Test func mapboxDirectionsIsTheSameFormat() throws {
        expectParts(try RouteParser.parse(Fixture.data("routes/mapbox-directions.json")), [Ride.snapped])
    }

    /// Near (0, 0) a precision-6 polyline read at 5 stays on the map, ten times farther out:
    /// Libreville's streets would land in the Indian Ocean. The first waypoint tells them apart.
    @Test func theFirstWaypointTellsPolyline6NearTheEquator() throws {
        let libreville = [(0.3912, 9.4536), (0.3925, 9.4551), (0.3941, 9.456)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let polyline6 = EncodedPolyline.encode(libreville, precision: 6)
        #expect(polyline6 == "_a{V_a_`QgpAw|A_cBgw@")
        let answer = #"{"code": "Ok", "routes": [{"geometry": "\#(polyline6)"}], "waypoints": [{"name": "", "location": [9.453612, 0.391187]}]}"#
        expectParts(try RouteParser.parse(Data(answer.utf8)), [libreville])
        // The same polyline at precision 5 starts nearer that waypoint when it is ten times farther out.
        let polyline5 = EncodedPolyline.encode(libreville, precision: 5)
        let answer5 = #"{"code": "Ok", "routes": [{"geometry": "\#(polyline5)"}], "waypoints": [{"name": "", "location": [9.453612, 0.391187]}]}"#
        expectParts(try RouteParser.parse(Data(answer5.utf8)), [libreville])
    }

    @Test func withoutWaypointsAPolylineIsReadAtFiveUnlessItFallsOffTheMap() throws {
        let farFromTheEquator = #"{"code": "Ok", "routes": [{"geometry": "i_kqbB{fsGql@~hAik@xf@qu@uxAel@et@}g@_|@"}]}"#
        expectParts(try RouteParser.parse(Data(farFromTheEquator.utf8)), [Ride.snapped])
        // The documented ambiguity: near (0, 0), precision 6 without waypoints reads as 5.
        let nearTheEquator = #"{"code": "Ok", "routes": [{"geometry": "_a{V_a_`QgpAw|A_cBgw@"}]}"#
        expectParts(try RouteParser.parse(Data(nearTheEquator.utf8)), [
            [(3.912, 94.536), (3.925, 94.551), (3.941, 94.56)].map { Coordinate(latitude: $0.0, longitude: $0.1) },
        ])
    }

    @Test func anErrorAnswerNamesItsCodeAndMessage() throws {
        let osrm = try #require(routeParserError(Fixture.data("routes/osrm-error.json")))
        #expect(osrm == .serviceError(service: "OSRM or Mapbox Directions", status: "NoRoute", message: "Impossible route between points"))
        #expect(osrm.description == "payload: the OSRM or Mapbox Directions answer is an error (NoRoute): Impossible route between points")
        #expect(try routeParserError(Fixture.data("routes/mapbox-error.json")) == .serviceError(
            service: "OSRM or Mapbox Directions", status: "NoSegment", message: "No suitable road segment could be found near one of the coordinates."
        ))
        #expect(routeParserError(#"{"code": "TooBig"}"#)?.description == "payload: the OSRM or Mapbox Directions answer is an error (TooBig)")
    }

    @Test func namesTheBadMember() {
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"geometry": "_p~iF ~ps|U"}]}"#)?.description
            == "routes[0].geometry: read as an encoded polyline at precision 5 or 6, character 6 (' ') is not part of an encoded polyline, whose characters run from ? to ~")
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"legs": [], "distance": 556.3}], "waypoints": []}"#)?.description
            == "routes[0].geometry: missing; expected the route's line, an encoded polyline or a GeoJSON LineString (there is none when asked for with overview=false)")
        #expect(routeParserError(#"{"code": "Ok", "routes": []}"#)?.description
            == "routes: an array of 0 is not allowed; expected an array of one or more routes")
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"geometry": 42}]}"#)?.description
            == "routes[0].geometry: 42 is not allowed; expected an encoded polyline or a GeoJSON LineString")
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}]}"#)?.description
            == #"routes[0].geometry.type: "Point" is not allowed; expected "LineString""#)
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"geometry": {"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 95]]}}]}"#)?.description
            == "routes[0].geometry.coordinates[1][1] (lat): 95 is outside the allowed range -85.0511...85.0511")
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"geometry": "yks}H_sZqClF"}], "waypoints": [{"location": [0.1, 91]}]}"#)?.description
            == "waypoints[0].location[1] (lat): 91 is outside the allowed range -85.0511...85.0511")
        #expect(routeParserError(#"{"code": 200, "routes": []}"#)?.description == #"code: 200 is not allowed; expected the answer's code, such as "Ok""#)
        #expect(routeParserError(#"{"code": "Ok", "routes": [{"geometry": "yks}H_sZ"}]}"#) == .tooFewPoints(field: "routes[0].geometry", count: 1, minimum: 2))
    }
}

/// Valhalla's own route answers.
@Suite struct ValhallaAnswerTests {
    @Test func legsAreJoinedIntoOnePart() throws {
        let line = try RouteParser.parse(Fixture.data("routes/valhalla.json"))
        expectParts(line, [Ride.points])
        #expect(line == (try ValhallaRouteParser.parse(Fixture.data("routes/valhalla.json"))))
    }

    @Test func anErrorAnswerIsValhallasNotCycleStreets() throws {
        let error = try #require(routeParserError(Fixture.data("routes/valhalla-error.json")))
        #expect(error == .serviceError(service: "Valhalla", status: "171", message: "No suitable edges near location"))
        #expect(error.description == "payload: the Valhalla answer is an error (171): No suitable edges near location")
        let trip = #"{"trip": {"status": 442, "status_message": "No path could be found for input", "legs": []}}"#
        #expect(routeParserError(trip) == .serviceError(service: "Valhalla", status: "442", message: "No path could be found for input"))
    }

    @Test func namesTheBadLeg() {
        #expect(routeParserError(#"{"trip": {"status": 0, "legs": [{"shape": "c_kqbB_gsGsl@jiA"}, {"shape": "cymqbBguoG~"}]}}"#)?.description
            == "trip.legs[1].shape: read as an encoded polyline at precision 6, ends in the middle of a value, after 11 characters")
        #expect(routeParserError(#"{"trip": {"status": 0, "legs": []}}"#)?.description
            == "trip.legs: an array of 0 is not allowed; expected an array of one or more legs")
        #expect(routeParserError(#"{"trip": {"legs": [{"maneuvers": []}]}}"#)?.description
            == "trip.legs[0].shape: missing; expected the leg's line, an encoded polyline at precision 6")
        #expect(routeParserError(#"{"trip": {"legs": [{"shape": "c_kqbB_gsG"}]}}"#) == .tooFewPoints(field: "trip.legs[0].shape", count: 1, minimum: 2))
    }
}

/// Google Directions answers.
@Suite struct GoogleDirectionsAnswerTests {
    /// The ride with one more point on Thoday Street, which puts a `\` in the polyline.
    static let ride = [Ride.points[0], Coordinate(latitude: 52.20566, longitude: 0.14129)] + Ride.points.dropFirst()

    @Test func theOverviewPolylineWithAnEscapedBackslash() throws {
        let line = try RouteParser.parse(Fixture.data("routes/google-directions.json"))
        expectParts(line, [Self.ride])
        #expect(EncodedPolyline.encode(Self.ride, precision: 5) == #"yks}H_sZQ\_CnEmC|BmD}GqCiDaCcE"#)
    }

    @Test func withoutAnOverviewTheStepsOfEveryLegAreJoined() throws {
        expectParts(try GoogleDirectionsParser.parse(Fixture.data("routes/google-directions-steps.json")), [Self.ride])
    }

    @Test func aStatusOtherThanOKIsAnError() throws {
        let denied = try #require(routeParserError(Fixture.data("routes/google-error.json")))
        #expect(denied == .serviceError(service: "Google Directions", status: "REQUEST_DENIED", message: "The provided API key is invalid. "))
        #expect(routeParserError(#"{"geocoded_waypoints": [], "routes": [], "status": "ZERO_RESULTS"}"#)?.description
            == "payload: the Google Directions answer is an error (ZERO_RESULTS)")
    }

    @Test func namesTheBadPolyline() {
        // A precision-6 polyline: Google writes only 5, and the message says nothing of enc6:.
        #expect(routeParserError(#"{"routes": [{"overview_polyline": {"points": "c_kqbB_gsGsl@jiA"}}], "status": "OK"}"#)?.description
            == "routes[0].overview_polyline.points: read as an encoded polyline at precision 5, point 1 is 522.0557,1.4144, off the map")
        let badStep = #"{"routes": [{"legs": [{"steps": [{"polyline": {"points": "yks}H_sZQ\\_CnE"}}]}, {"steps": [{"polyline": {"points": "?"}}]}]}], "status": "OK"}"#
        #expect(routeParserError(badStep)?.description
            == "routes[0].legs[1].steps[0].polyline.points: read as an encoded polyline at precision 5, ends after a latitude with no longitude (point 1)")
        #expect(routeParserError(#"{"routes": [{"legs": [{"steps": [{"distance": {"value": 4}}]}]}], "status": "OK"}"#)?.description
            == "routes[0].legs[0].steps[0].polyline: missing; expected an object")
        #expect(routeParserError(#"{"routes": [{"summary": "A14"}], "status": "OK"}"#)?.description
            == "routes[0].legs: missing; expected an array of one or more legs (or an overview_polyline)")
        #expect(routeParserError(#"{"routes": [{"overview_polyline": {"points": 7}}], "status": "OK"}"#)?.description
            == "routes[0].overview_polyline.points: 7 is not allowed; expected an encoded polyline")
    }
}

/// GraphHopper's routing answers.
@Suite struct GraphHopperAnswerTests {
    @Test func anEncodedPath() throws {
        expectParts(try RouteParser.parse(Fixture.data("routes/graphhopper.json")), [Ride.points])
    }

    @Test func elevationsAreReadAndDroppedAsTheSnappedWaypointsTell() throws {
        let data = try Fixture.data("routes/graphhopper-elevation.json")
        expectParts(try RouteParser.parse(data), [Ride.points])
        // Read without elevations, the same polyline is another line altogether.
        let polyline = "yks}H_sZ_jAqClFoAmC|BwBmD}Gg@qCiD_DaCcES"
        #expect(try EncodedPolyline.decode(polyline[...], precision: 5).count == 9)
    }

    @Test func aGeoJSONPathWithElevations() throws {
        expectParts(try RouteParser.parse(Fixture.data("routes/graphhopper-geojson.json")), [Ride.points])
    }

    @Test func theMultiplierSetsThePrecision() throws {
        let answer = #"{"paths": [{"points_encoded": true, "points_encoded_multiplier": 1000000, "points": "c_kqbB_gsGsl@jiAkk@jf@ku@kxAsl@ct@sg@g|@"}]}"#
        expectParts(try RouteParser.parse(Data(answer.utf8)), [Ride.points])
    }

    @Test func anErrorAnswerGivesItsMessage() throws {
        let error = try #require(routeParserError(Fixture.data("routes/graphhopper-error.json")))
        #expect(error == .serviceError(service: "GraphHopper", status: nil, message: "Cannot find point 0: 52.5,-1.7"))
        #expect(error.description == "payload: the GraphHopper answer is an error: Cannot find point 0: 52.5,-1.7")
    }

    @Test func namesTheBadMember() {
        #expect(routeParserError(#"{"paths": [{"points_encoded_multiplier": 10, "points": "yks}H_sZqClF"}]}"#)?.description
            == "paths[0].points_encoded_multiplier: 10 is not allowed; expected 100000 or 1000000")
        #expect(routeParserError(#"{"paths": [{"points_encoded": true, "points": {"type": "LineString", "coordinates": []}}]}"#)?.description
            == "paths[0].points: an object is not allowed; expected an encoded polyline, as points_encoded says")
        #expect(routeParserError(#"{"paths": [], "info": {}}"#)?.description
            == "paths: an array of 0 is not allowed; expected an array of one or more paths")
        #expect(routeParserError(#"{"paths": [{"points": "yks}H_sZqClF~"}]}"#)?.description
            == "paths[0].points: read as an encoded polyline at precision 5, ends in the middle of a value, after 13 characters")
        #expect(routeParserError(#"{"paths": [{"points": "yks}H_sZqClF", "snapped_waypoints": 3}]}"#)?.description
            == "paths[0].snapped_waypoints: 3 is not allowed; expected a string")
        #expect(routeParserError(#"{"paths": [{"points": {"type": "LineString", "coordinates": [[0.1, 52.2, 3, 4]]}}]}"#)?.field == "paths[0].points.coordinates[0]")
    }
}

/// Which format a JSON document is, from its members alone.
@Suite struct RoutingAnswerDetectionTests {
    @Test(arguments: [
        "osrm-polyline.json", "osrm-polyline6.json", "osrm-geojson-steps.json", "mapbox-directions.json", "valhalla.json",
        "google-directions.json", "google-directions-steps.json", "graphhopper.json", "graphhopper-elevation.json", "graphhopper-geojson.json",
    ])
    func eachAnswerIsTheSameRideWhicheverReaderReadsIt(file: String) throws {
        let data = try Fixture.data("routes/\(file)")
        let route = try RouteParser.parse(data)
        let direct: RouteLine = switch file {
        case let name where name.hasPrefix("osrm") || name.hasPrefix("mapbox"): try OSRMRouteParser.parse(data)
        case let name where name.hasPrefix("valhalla"): try ValhallaRouteParser.parse(data)
        case let name where name.hasPrefix("google"): try GoogleDirectionsParser.parse(data)
        default: try GraphHopperRouteParser.parse(data)
        }
        #expect(route == direct)
        #expect(route.first.isNear(Ride.points[0], metres: 1) && route.last.isNear(Ride.points[5], metres: 1))
    }

    @Test func jsonOfNoKnownKindListsEveryKind() {
        #expect(routeParserError(#"{"coordinates": [[0.1, 52.2], [0.2, 52.3]]}"#)?.description == """
            type: missing; expected a GeoJSON type, "LineString", "MultiLineString", "Feature" or "FeatureCollection"; \
            or a CycleStreets journey's "marker", an OSRM or Mapbox Directions answer's "code", a Valhalla answer's "trip", \
            a Google Directions answer's "routes" and "status" or a GraphHopper answer's "paths"
            """)
        // Google's members without its status are not Google's.
        #expect(routeParserError(#"{"routes": []}"#)?.field == "type")
    }

    @Test func aCycleStreetsErrorIsStillCycleStreets() {
        #expect(routeParserError(#"{"error": "Unknown journey"}"#) == .apiError(message: "Unknown journey"))
        #expect(routeParserError(#"{"error": "Unknown journey", "code": "Ok"}"#) == .apiError(message: "Unknown journey"))
    }
}
