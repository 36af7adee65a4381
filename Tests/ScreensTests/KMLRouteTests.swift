import Foundation
import MapGeometry
import Testing
@testable import Payloads

/// KML files as Google Earth, My Maps and GPS software write them.
@Suite struct KMLRouteTests {
    static let ride = Ride.points

    @Test func googleEarthLinesInNestedFoldersAmongStylesAndPoints() throws {
        let line = try KMLParser.parse(Fixture.data("routes/google-earth.kml"))
        expectParts(line, [Array(Self.ride[0...2]), Array(Self.ride[3...5])])
    }

    @Test func aPrefixedMultiGeometryGivesItsLinesAndPassesOverPointsAndPolygons() throws {
        let line = try KMLParser.parse(Fixture.data("routes/multigeometry-prefixed.kml"))
        expectParts(line, [Array(Self.ride[0...2]), Array(Self.ride[3...5])])
    }

    @Test func gxTrackAndEachTrackOfAMultiTrack() throws {
        let line = try KMLParser.parse(Fixture.data("routes/gx-track.kml"))
        expectParts(line, [Array(Self.ride[0...2]), Array(Self.ride[2...3]), Array(Self.ride[3...5])])
    }

    @Test func kml23TracksHaveNoPrefix() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.3"><Placemark><Track>
              <when>2010-11-05T11:01:01Z</when><when>2010-11-05T11:01:32Z</when>
              <coord>0.14144 52.20557 12</coord><coord>0.14025 52.2063</coord>
            </Track></Placemark></kml>
            """
        expectParts(try KMLParser.parse(Data(kml.utf8)), [Array(Self.ride[0...1])])
    }

    @Test func coordinatesTolerateAnyWhiteSpace() throws {
        let kml = "<kml><Placemark><LineString><coordinates>\n\t\t0.1,52.2,0\n\t\t0.2, 52.3, 5   0.3 ,52.4\r\n  </coordinates></LineString></Placemark></kml>"
        expectParts(try KMLParser.parse(Data(kml.utf8)), [[
            Coordinate(latitude: 52.2, longitude: 0.1), Coordinate(latitude: 52.3, longitude: 0.2), Coordinate(latitude: 52.4, longitude: 0.3),
        ]])
    }

    @Test func aFileWithNoLineSaysWhatItHolds() throws {
        let points = try #require(routeParserError(Fixture.data("routes/points.kml")))
        #expect(points == .noLine(
            field: "kml", found: "a KML document of 3 Point placemarks, 1 Polygon placemark and 1 placemark with no geometry",
            wanted: "LineString, gx:Track or gx:MultiTrack"
        ))
        #expect(points.description
            == "kml: a KML document of 3 Point placemarks, 1 Polygon placemark and 1 placemark with no geometry has no LineString, gx:Track or gx:MultiTrack to draw as a route")
        #expect(routeParserError("<kml/>")?.description
            == "kml: a KML document with no placemarks has no LineString, gx:Track or gx:MultiTrack to draw as a route")
    }

    @Test func namesTheBadTuple() {
        let badTuple = "<kml><Document><Placemark><LineString><coordinates>0.1,52.2 0.1;52.3</coordinates></LineString></Placemark></Document></kml>"
        #expect(routeParserError(badTuple)
            == .invalid(field: "Document[1]/Placemark[1]/LineString[1]/coordinates (point 2)", value: "0.1;52.3", expected: "a tuple lon,lat or lon,lat,alt"))
        let offMap = "<kml><Folder/><Folder><Placemark/><Placemark><LineString><coordinates>0.1,52.2 0.1,89</coordinates></LineString></Placemark></Folder></kml>"
        #expect(routeParserError(offMap)?.description
            == #"Folder[2]/Placemark[2]/LineString[1]/coordinates (point 2): "0.1,89" is not within latitude -85.0511...85.0511"#)
        let fourValues = "<kml><Placemark><LineString><coordinates>0.1,52.2,0,0 0.2,52.3</coordinates></LineString></Placemark></kml>"
        #expect(routeParserError(fourValues)?.field == "Placemark[1]/LineString[1]/coordinates (point 1)")
        let badAltitude = "<kml><Placemark><LineString><coordinates>0.1,52.2,high 0.2,52.3</coordinates></LineString></Placemark></kml>"
        #expect(routeParserError(badAltitude) == .invalid(
            field: "Placemark[1]/LineString[1]/coordinates (point 1)", value: "0.1,52.2,high", expected: "a tuple lon,lat or lon,lat,alt"
        ))
    }

    @Test func namesTheBadTrackPoint() {
        let kml = #"<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:MultiTrack><gx:Track><gx:coord>0.1 52.2 3</gx:coord><gx:coord>0.2 52.3 3</gx:coord></gx:Track><gx:Track><gx:coord>0.1 52.2 3</gx:coord><gx:coord>0.1 north 3</gx:coord></gx:Track></gx:MultiTrack></Placemark></kml>"#
        #expect(routeParserError(kml)
            == .invalid(field: "Placemark[1]/MultiTrack[1]/Track[2]/coord[2]", value: "0.1 north 3", expected: "\"lon lat alt\", numbers separated by spaces"))
    }

    @Test func everyLineNeedsTwoPoints() {
        let missing = "<kml><Placemark><LineString><tessellate>1</tessellate></LineString></Placemark></kml>"
        #expect(routeParserError(missing) == .missing(field: "Placemark[1]/LineString[1]/coordinates", expected: "the line's points, lon,lat[,alt] tuples"))
        let onePoint = "<kml><Placemark><MultiGeometry><LineString><coordinates>0.1,52.2 0.2,52.3</coordinates></LineString><LineString><coordinates>0.1,52.2</coordinates></LineString></MultiGeometry></Placemark></kml>"
        #expect(routeParserError(onePoint) == .tooFewPoints(field: "Placemark[1]/MultiGeometry[1]/LineString[2]/coordinates", count: 1, minimum: 2))
        let emptyTrack = #"<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track/></Placemark></kml>"#
        #expect(routeParserError(emptyTrack)?.description == "Placemark[1]/Track[1]: has 0 points; at least 2 are needed")
    }

    @Test func theLimitCountsEveryLineTogether() {
        let tuples = String(repeating: "0.1,52.2 ", count: 50_001)
        let kml = "<kml><Placemark><LineString><coordinates>\(tuples)</coordinates></LineString></Placemark><Placemark><LineString><coordinates>\(tuples)</coordinates></LineString></Placemark></kml>"
        #expect(routeParserError(kml) == .tooManyPoints(field: "kml", count: 100_002, maximum: RouteLine.maximumPoints))
    }
}
