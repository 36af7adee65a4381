import Foundation
import MapGeometry
import Testing
@testable import Payloads

/// Garmin Training Center files: activities as devices record them, and courses.
@Suite struct TCXRouteTests {
    static let ride = Ride.points

    @Test func aGarminActivityPassesOverDroppedPositionsAndALoneTrackpoint() throws {
        let line = try TCXParser.parse(Fixture.data("routes/activity.tcx"))
        // Lap 1's track, less the trackpoint with no Position; lap 2's first track (one point
        // after a pause) is passed over; lap 2's second track, less its first trackpoint.
        expectParts(line, [Array(Self.ride[0...2]), Array(Self.ride[3...5])])
    }

    @Test func aCourseIsOneTrack() throws {
        expectParts(try TCXParser.parse(Fixture.data("routes/course.tcx")), [Self.ride])
    }

    @Test func activitiesAndCoursesInDocumentOrder() throws {
        let tcx = """
            <TrainingCenterDatabase>
              <Courses><Course><Track>
                <Trackpoint><Position><LatitudeDegrees>52.3</LatitudeDegrees><LongitudeDegrees>0.2</LongitudeDegrees></Position></Trackpoint>
                <Trackpoint><Position><LatitudeDegrees>52.4</LatitudeDegrees><LongitudeDegrees>0.3</LongitudeDegrees></Position></Trackpoint>
              </Track></Course></Courses>
              <Activities><Activity Sport="Running"><Lap><Track>
                <Trackpoint><Position><LatitudeDegrees>52.1</LatitudeDegrees><LongitudeDegrees>0.1</LongitudeDegrees></Position></Trackpoint>
                <Trackpoint><Position><LatitudeDegrees> 52.2 </LatitudeDegrees><LongitudeDegrees>0.1</LongitudeDegrees></Position></Trackpoint>
              </Track></Lap></Activity></Activities>
            </TrainingCenterDatabase>
            """
        expectParts(try RouteParser.parse(Data(tcx.utf8)), [
            [Coordinate(latitude: 52.3, longitude: 0.2), Coordinate(latitude: 52.4, longitude: 0.3)],
            [Coordinate(latitude: 52.1, longitude: 0.1), Coordinate(latitude: 52.2, longitude: 0.1)],
        ])
    }

    @Test func aPrefixedFileReadsAlike() throws {
        let tcx = """
            <tcx:TrainingCenterDatabase xmlns:tcx="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
              <tcx:Activities><tcx:Activity Sport="Biking"><tcx:Lap StartTime="2010-11-05T11:01:01Z"><tcx:Track>
                <tcx:Trackpoint><tcx:Position><tcx:LatitudeDegrees>52.20557</tcx:LatitudeDegrees><tcx:LongitudeDegrees>0.14144</tcx:LongitudeDegrees></tcx:Position></tcx:Trackpoint>
                <tcx:Trackpoint><tcx:Position><tcx:LatitudeDegrees>52.2063</tcx:LatitudeDegrees><tcx:LongitudeDegrees>0.14025</tcx:LongitudeDegrees></tcx:Position></tcx:Trackpoint>
              </tcx:Track></tcx:Lap></tcx:Activity></tcx:Activities>
            </tcx:TrainingCenterDatabase>
            """
        expectParts(try RouteParser.parse(Data(tcx.utf8)), [Array(Self.ride[0...1])])
    }

    @Test func anIndoorActivityHasNoLineAndSaysSo() {
        let trackpoint = "<Trackpoint><Time>2010-11-05T11:01:01Z</Time><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>"
        let indoor = "<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"><Lap><Track>\(String(repeating: trackpoint, count: 3))</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        #expect(routeParserError(indoor) == .noLine(
            field: "TrainingCenterDatabase", found: "a TCX file of 3 trackpoints (none with a Position)", wanted: "track of 2 or more trackpoints with a Position"
        ))
        #expect(routeParserError(indoor)?.description
            == "TrainingCenterDatabase: a TCX file of 3 trackpoints (none with a Position) has no track of 2 or more trackpoints with a Position to draw as a route")
        #expect(routeParserError("<TrainingCenterDatabase><Activities/></TrainingCenterDatabase>")?.description
            == "TrainingCenterDatabase: a TCX file with no trackpoints has no track of 2 or more trackpoints with a Position to draw as a route")
        let positioned = "<Trackpoint><Position><LatitudeDegrees>52.2</LatitudeDegrees><LongitudeDegrees>0.1</LongitudeDegrees></Position></Trackpoint>"
        let lonePoints = "<TrainingCenterDatabase><Activities><Activity><Lap><Track>\(positioned)\(trackpoint)</Track><Track>\(positioned)</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        #expect(routeParserError(lonePoints)?.description
            == "TrainingCenterDatabase: a TCX file of 3 trackpoints (2 with a Position, none beside another in its track) has no track of 2 or more trackpoints with a Position to draw as a route")
    }

    @Test func namesTheBadPosition() {
        func activity(_ second: String) -> String {
            let first = "<Trackpoint><Position><LatitudeDegrees>52.2</LatitudeDegrees><LongitudeDegrees>0.1</LongitudeDegrees></Position></Trackpoint>"
            return "<TrainingCenterDatabase><Activities><Activity><Lap/><Lap><Track/><Track>\(first)<Trackpoint><Position>\(second)</Position></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        }
        #expect(routeParserError(activity("<LatitudeDegrees>north</LatitudeDegrees><LongitudeDegrees>0.1</LongitudeDegrees>")) == .invalid(
            field: "Activities[1]/Activity[1]/Lap[2]/Track[2]/Trackpoint[2]/Position/LatitudeDegrees", value: "north", expected: "a number"
        ))
        #expect(routeParserError(activity("<LatitudeDegrees>52.3</LatitudeDegrees>")) == .missing(
            field: "Activities[1]/Activity[1]/Lap[2]/Track[2]/Trackpoint[2]/Position/LongitudeDegrees", expected: "a longitude"
        ))
        #expect(routeParserError(activity("<LatitudeDegrees>52.3</LatitudeDegrees><LongitudeDegrees>181</LongitudeDegrees>"))?.description
            == #"Activities[1]/Activity[1]/Lap[2]/Track[2]/Trackpoint[2]/Position/LongitudeDegrees: "181" is not within longitude -180...180"#)
        let course = "<TrainingCenterDatabase><Courses><Course><Track><Trackpoint><Position><LatitudeDegrees>86</LatitudeDegrees><LongitudeDegrees>0.1</LongitudeDegrees></Position></Trackpoint></Track></Course></Courses></TrainingCenterDatabase>"
        #expect(routeParserError(course)?.field == "Courses[1]/Course[1]/Track[1]/Trackpoint[1]/Position/LatitudeDegrees")
    }

    @Test func theWrongRootIsNamed() {
        #expect(throws: PayloadError.unexpectedRoot(found: "gpx", expected: ["TrainingCenterDatabase"])) {
            try TCXParser.parse(Data("<gpx/>".utf8))
        }
    }
}
